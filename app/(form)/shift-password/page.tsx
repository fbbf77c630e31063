import { getTranslations } from "next-intl/server";
import { ShiftPasswordPanel } from "@/components/auth/shift-password-panel";
import { AuthFrame } from "@/components/layout/auth-frame";
import { LockIcon } from "@/components/ui/icons";
import { routeMetadata } from "@/lib/i18n/metadata";

export const generateMetadata = () => routeMetadata("ShiftPassword");

export default async function ShiftPasswordPage() {
  const t = await getTranslations("auth");
  return (
    <AuthFrame heading={t("shiftPasswordHeading")} text={t("shiftPasswordText")} icon={<LockIcon size={28} />}>
      <ShiftPasswordPanel />
    </AuthFrame>
  );
}
