import { getTranslations } from "next-intl/server";
import { ChangePasswordPanel } from "@/components/auth/change-password-panel";
import { AuthFrame } from "@/components/layout/auth-frame";
import { LockIcon } from "@/components/ui/icons";
import { routeMetadata } from "@/lib/i18n/metadata";

export const generateMetadata = () => routeMetadata("ChangePassword");

export default async function ChangePasswordPage() {
  const t = await getTranslations("auth");
  return (
    <AuthFrame heading={t("changePasswordHeading")} text={t("changePasswordText")} icon={<LockIcon size={28} />}>
      <ChangePasswordPanel />
    </AuthFrame>
  );
}
