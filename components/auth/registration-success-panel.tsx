import { getTranslations } from "next-intl/server";
import { AuthNextStep } from "./auth-links";

/** Next step after sign-up: sign in. */
export async function RegistrationSuccessPanel() {
  const t = await getTranslations("auth");
  return <AuthNextStep href="/login" label={t("submit")} />;
}
