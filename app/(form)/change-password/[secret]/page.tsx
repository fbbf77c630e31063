import { getTranslations } from "next-intl/server";
import { ChangePasswordPanel } from "@/components/auth/change-password-panel";
import { AuthFrame } from "@/components/layout/auth-frame";
import { getDb } from "@/db/client";
import { LockIcon } from "@/components/ui/icons-more";
import { routeMetadata } from "@/lib/i18n/metadata";
import { isPasswordLinkAlive } from "@/lib/server/services/auth/link-status";

export const generateMetadata = () => routeMetadata("ChangePassword");

type Props = { params: Promise<{ secret: string }> };

export default async function ChangePasswordPage({ params }: Props) {
  const { secret } = await params;
  const t = await getTranslations("auth");
  const tId = await getTranslations("identity");
  // Checked (not spent) up front, so a dead link says so before anybody types a new password.
  const alive = await isPasswordLinkAlive({ ctx: { viewer: null, db: getDb(), requestId: "page" }, kind: "PASSWORD_RECOVERY", secret });
  return (
    <AuthFrame
      heading={alive ? t("changePasswordHeading") : tId("linkDeadHeading")}
      text={alive ? t("changePasswordText") : undefined}
      icon={<LockIcon size={28} />}
    >
      <ChangePasswordPanel secret={secret} alive={alive} />
    </AuthFrame>
  );
}
