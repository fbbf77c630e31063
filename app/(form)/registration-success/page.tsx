import { getTranslations } from "next-intl/server";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { RegistrationSuccessPanel } from "@/components/auth/registration-success-panel";
import { currentViewer } from "@/components/layout/current-viewer";
import { AuthFrame } from "@/components/layout/auth-frame";
import { CheckCircleIcon } from "@/components/ui/icons-more";
import { routeMetadata } from "@/lib/i18n/metadata";
import { WELCOME_COOKIE } from "@/lib/server/http/welcome-cookie";

export const generateMetadata = () => routeMetadata("RegistrationSuccess");

/**
 * The greeting after sign-up (issue 14 item 5): registration has signed the person in, so this page
 * leads to a first step (photo, city, friends). Only for the browser that has just registered this
 * account; anyone else goes to the registration (signed out) or the news (signed in).
 */
export default async function RegistrationSuccessPage() {
  const current = await currentViewer();
  if (!current) redirect("/registration");
  const welcomed = (await cookies()).get(WELCOME_COOKIE)?.value;
  if (welcomed !== String(current.viewer.id)) redirect("/");
  const t = await getTranslations("auth");
  return (
    <AuthFrame
      heading={t("registrationSuccessHeading")}
      text={t("registrationSuccessGreeting", { name: current.summary.firstName })}
      icon={<CheckCircleIcon size={28} />}
    >
      <RegistrationSuccessPanel />
    </AuthFrame>
  );
}
