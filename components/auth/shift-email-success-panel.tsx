import { getTranslations } from "next-intl/server";
import { AuthNextStep } from "./auth-links";

/** Next step after asking for an e-mail change. */
export async function ShiftEmailSuccessPanel() {
  const t = await getTranslations("common");
  return <AuthNextStep href="/settings" label={t("backToSettings")} variant="secondary" />;
}
