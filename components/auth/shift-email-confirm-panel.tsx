import { getTranslations } from "next-intl/server";
import { currentViewer } from "@/components/layout/current-viewer";
import { AuthNextStep } from "./auth-links";
import { ShiftEmailConfirm } from "./shift-email-confirm";

/** The area of /shift-email-confirm: confirms the mailed link, or (opened bare) points onwards. */
export async function ShiftEmailConfirmPanel({ secret }: { secret: string | null }) {
  const t = await getTranslations("common");
  const signedIn = Boolean(await currentViewer());
  if (secret) return <ShiftEmailConfirm secret={secret} signedIn={signedIn} />;
  return signedIn ? <AuthNextStep href="/settings" label={t("backToSettings")} variant="secondary" /> : <AuthNextStep href="/login" label={t("signIn")} />;
}
