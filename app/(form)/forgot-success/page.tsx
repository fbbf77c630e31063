import { getTranslations } from "next-intl/server";
import { ForgotSuccessPanel } from "@/components/auth/forgot-success-panel";
import { AuthFrame } from "@/components/layout/auth-frame";
import { MailIcon } from "@/components/ui/icons-more";
import { routeMetadata } from "@/lib/i18n/metadata";

export const generateMetadata = () => routeMetadata("ForgotSuccess");

export default async function ForgotSuccessPage() {
  const t = await getTranslations("auth");
  return (
    <AuthFrame heading={t("forgotSuccessHeading")} text={t("forgotSuccessText")} icon={<MailIcon size={28} />}>
      <ForgotSuccessPanel />
    </AuthFrame>
  );
}
