import { getTranslations } from "next-intl/server";
import { ShiftEmailSuccessPanel } from "@/components/auth/shift-email-success-panel";
import { AuthFrame } from "@/components/layout/auth-frame";
import { MailIcon } from "@/components/ui/icons-more";
import { routeMetadata } from "@/lib/i18n/metadata";

export const generateMetadata = () => routeMetadata("ShiftEmailSuccess");

export default async function ShiftEmailSuccessPage() {
  const t = await getTranslations("auth");
  return (
    <AuthFrame heading={t("shiftEmailSuccessHeading")} text={t("shiftEmailSuccessText")} icon={<MailIcon size={28} />}>
      <ShiftEmailSuccessPanel />
    </AuthFrame>
  );
}
