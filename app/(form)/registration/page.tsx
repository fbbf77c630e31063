import { getTranslations } from "next-intl/server";
import { RegistrationPanel } from "@/components/auth/registration-panel";
import { AuthFrame } from "@/components/layout/auth-frame";
import { UserPlusIcon } from "@/components/ui/icons-more";
import { routeMetadata } from "@/lib/i18n/metadata";

export const generateMetadata = () => routeMetadata("Registration");

export default async function RegistrationPage() {
  const t = await getTranslations("auth");
  return (
    <AuthFrame heading={t("registrationHeading")} text={t("registrationText")} icon={<UserPlusIcon size={28} />}>
      <RegistrationPanel />
    </AuthFrame>
  );
}
