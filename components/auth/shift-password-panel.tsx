import { getTranslations } from "next-intl/server";
import { AuthPrompt } from "./auth-links";

/** The form area of /shift-password (the identity feature puts the request form here). */
export async function ShiftPasswordPanel() {
  const t = await getTranslations("common");
  return <AuthPrompt href="/settings" action={t("backToSettings")} />;
}
