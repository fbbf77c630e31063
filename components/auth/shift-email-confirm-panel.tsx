import { getTranslations } from "next-intl/server";
import { AuthNextStep } from "./auth-links";

/** The area of /shift-email-confirm (the identity feature confirms the link here). */
export async function ShiftEmailConfirmPanel() {
  const t = await getTranslations("common");
  return <AuthNextStep href="/login" label={t("signIn")} />;
}
