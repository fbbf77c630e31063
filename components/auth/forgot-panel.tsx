import { getTranslations } from "next-intl/server";
import { AuthPrompt } from "./auth-links";
import { ForgotForm } from "./forgot-form";

/** The form area of /forgot: the address for the recovery link, and the way back to sign-in. */
export async function ForgotPanel() {
  const t = await getTranslations("common");
  return (
    <>
      <ForgotForm />
      <AuthPrompt href="/login" action={t("backToLogin")} />
    </>
  );
}
