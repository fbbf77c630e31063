import { getTranslations } from "next-intl/server";
import { ShiftEmailConfirmPanel } from "@/components/auth/shift-email-confirm-panel";
import { AuthFrame } from "@/components/layout/auth-frame";
import { CheckCircleIcon } from "@/components/ui/icons";
import { routeMetadata } from "@/lib/i18n/metadata";

export const generateMetadata = () => routeMetadata("ShiftEmailConfirm");

export default async function ShiftEmailConfirmPage() {
  const t = await getTranslations("auth");
  return (
    <AuthFrame heading={t("shiftEmailConfirmHeading")} text={t("shiftEmailConfirmText")} icon={<CheckCircleIcon size={28} />}>
      <ShiftEmailConfirmPanel />
    </AuthFrame>
  );
}
