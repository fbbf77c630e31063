import { getTranslations } from "next-intl/server";
import { AuthPrompt } from "./auth-links";

/** The form area of /forgot (the identity feature puts the e-mail form here). */
export async function ForgotPanel() {
  const t = await getTranslations("common");
  return <AuthPrompt href="/login" action={t("backToLogin")} />;
}
