import { getTranslations } from "next-intl/server";
import { ShiftPasswordPanel } from "@/components/auth/shift-password-panel";
import { AuthFrame } from "@/components/layout/auth-frame";
import { getDb } from "@/db/client";
import { LockIcon } from "@/components/ui/icons-more";
import { routeMetadata } from "@/lib/i18n/metadata";
import { isPasswordLinkAlive } from "@/lib/server/services/auth/link-status";

export const generateMetadata = () => routeMetadata("ShiftPassword");

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ShiftPasswordPage({ searchParams }: Props) {
  const raw = (await searchParams).secret;
  const secret = (Array.isArray(raw) ? raw[0] : raw) || null;
  const t = await getTranslations("auth");
  const tId = await getTranslations("identity");
  const alive = secret ? await isPasswordLinkAlive({ ctx: { viewer: null, db: getDb(), requestId: "page" }, kind: "PASSWORD_CHANGE", secret }) : false;
  const heading = !secret ? t("shiftPasswordHeading") : alive ? t("changePasswordHeading") : tId("linkDeadHeading");
  const text = !secret ? t("shiftPasswordText") : alive ? t("changePasswordText") : undefined;
  return (
    <AuthFrame heading={heading} text={text} icon={<LockIcon size={28} />}>
      <ShiftPasswordPanel secret={secret} alive={alive} />
    </AuthFrame>
  );
}
