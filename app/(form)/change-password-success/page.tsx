import { getTranslations } from "next-intl/server";
import { ChangePasswordSuccessPanel } from "@/components/auth/change-password-success-panel";
import { AuthFrame } from "@/components/layout/auth-frame";
import { CheckCircleIcon } from "@/components/ui/icons-more";
import { routeMetadata } from "@/lib/i18n/metadata";

export const generateMetadata = () => routeMetadata("ChangePasswordSuccess");

export default async function ChangePasswordSuccessPage() {
  const t = await getTranslations("auth");
  return (
    <AuthFrame heading={t("changePasswordSuccessHeading")} text={t("changePasswordSuccessText")} icon={<CheckCircleIcon size={28} />}>
      <ChangePasswordSuccessPanel />
    </AuthFrame>
  );
}
