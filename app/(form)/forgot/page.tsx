import { getTranslations } from "next-intl/server";
import { ForgotPanel } from "@/components/auth/forgot-panel";
import { AuthFrame } from "@/components/layout/auth-frame";
import { LockIcon } from "@/components/ui/icons-more";
import { routeMetadata } from "@/lib/i18n/metadata";

export const generateMetadata = () => routeMetadata("Forgot");

export default async function ForgotPage() {
  const t = await getTranslations("auth");
  return (
    <AuthFrame heading={t("forgotHeading")} text={t("forgotText")} icon={<LockIcon size={28} />}>
      <ForgotPanel />
    </AuthFrame>
  );
}
