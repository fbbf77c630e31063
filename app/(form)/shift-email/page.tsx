import { getTranslations } from "next-intl/server";
import { ShiftEmailPanel } from "@/components/auth/shift-email-panel";
import { AuthFrame } from "@/components/layout/auth-frame";
import { MailIcon } from "@/components/ui/icons-more";
import { routeMetadata } from "@/lib/i18n/metadata";

export const generateMetadata = () => routeMetadata("ShiftEmail");

export default async function ShiftEmailPage() {
  const t = await getTranslations("auth");
  return (
    <AuthFrame heading={t("shiftEmailHeading")} text={t("shiftEmailText")} icon={<MailIcon size={28} />}>
      <ShiftEmailPanel />
    </AuthFrame>
  );
}
