import { getTranslations } from "next-intl/server";
import { AuthPrompt } from "./auth-links";
import { RegistrationForm } from "./registration-form";

/** The form area of /registration: the two-step sign-up form, and the way back to sign-in. */
export async function RegistrationPanel() {
  const t = await getTranslations("auth");
  return (
    <>
      <RegistrationForm />
      <AuthPrompt question={t("haveAccount")} href="/login" action={t("submit")} />
    </>
  );
}
