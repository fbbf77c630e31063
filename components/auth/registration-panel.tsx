import { getTranslations } from "next-intl/server";
import { AuthPrompt } from "./auth-links";

/** The form area of /registration (the identity feature puts the sign-up form here). */
export async function RegistrationPanel() {
  const t = await getTranslations("auth");
  return <AuthPrompt question={t("haveAccount")} href="/login" action={t("submit")} />;
}
