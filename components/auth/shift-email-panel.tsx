import { getTranslations } from "next-intl/server";
import { AuthPrompt } from "./auth-links";

/** The form area of /shift-email (the identity feature puts the new-address form here). */
export async function ShiftEmailPanel() {
  const t = await getTranslations("common");
  return <AuthPrompt href="/settings" action={t("backToSettings")} />;
}
