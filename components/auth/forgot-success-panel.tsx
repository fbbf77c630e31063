import { getTranslations } from "next-intl/server";
import { AuthNextStep } from "./auth-links";

/** Next step after asking for a recovery link. */
export async function ForgotSuccessPanel() {
  const t = await getTranslations("common");
  return <AuthNextStep href="/login" label={t("backToLogin")} variant="secondary" />;
}
