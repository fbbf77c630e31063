import { getTranslations } from "next-intl/server";
import { AuthPrompt } from "./auth-links";

/** The form area of /change-password/{secret} (the identity feature puts the new-password form here). */
export async function ChangePasswordPanel() {
  const t = await getTranslations("common");
  return <AuthPrompt href="/login" action={t("backToLogin")} />;
}
