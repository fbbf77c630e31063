import { getTranslations } from "next-intl/server";
import { ShiftEmailConfirmPanel } from "@/components/auth/shift-email-confirm-panel";
import { AuthFrame } from "@/components/layout/auth-frame";
import { CheckCircleIcon } from "@/components/ui/icons-more";
import { routeMetadata } from "@/lib/i18n/metadata";

export const generateMetadata = () => routeMetadata("ShiftEmailConfirm");

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ShiftEmailConfirmPage({ searchParams }: Props) {
  const raw = (await searchParams).secret;
  const secret = (Array.isArray(raw) ? raw[0] : raw) || null;
  const t = await getTranslations("auth");
  // With the mailed secret the panel itself tells how the confirmation went.
  return (
    <AuthFrame heading={t("shiftEmailConfirmHeading")} text={secret ? undefined : t("shiftEmailConfirmText")} icon={<CheckCircleIcon size={28} />}>
      <ShiftEmailConfirmPanel secret={secret} />
    </AuthFrame>
  );
}
