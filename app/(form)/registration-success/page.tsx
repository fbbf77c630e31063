import { getTranslations } from "next-intl/server";
import { RegistrationSuccessPanel } from "@/components/auth/registration-success-panel";
import { AuthFrame } from "@/components/layout/auth-frame";
import { CheckCircleIcon } from "@/components/ui/icons";
import { routeMetadata } from "@/lib/i18n/metadata";

export const generateMetadata = () => routeMetadata("RegistrationSuccess");

export default async function RegistrationSuccessPage() {
  const t = await getTranslations("auth");
  return (
    <AuthFrame heading={t("registrationSuccessHeading")} text={t("registrationSuccessText")} icon={<CheckCircleIcon size={28} />}>
      <RegistrationSuccessPanel />
    </AuthFrame>
  );
}
