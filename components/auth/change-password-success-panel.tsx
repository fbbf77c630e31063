import { getTranslations } from "next-intl/server";
import { AuthNextStep } from "./auth-links";

/** Next step after a password change: sign in with it. */
export async function ChangePasswordSuccessPanel() {
  const t = await getTranslations("auth");
  return <AuthNextStep href="/login" label={t("submit")} />;
}
