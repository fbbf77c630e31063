import { getTranslations } from "next-intl/server";
import { AuthPrompt } from "./auth-links";
import { DeadLinkNotice } from "./link-notices";
import { NewPasswordForm } from "./new-password-form";

/** The form area of /change-password/{secret}: the new password for a live recovery link. */
export async function ChangePasswordPanel({ secret, alive }: { secret: string; alive: boolean }) {
  const t = await getTranslations("common");
  return (
    <>
      {alive ? <NewPasswordForm mode="recovery" secret={secret} /> : <DeadLinkNotice requestHref="/forgot" />}
      <AuthPrompt href="/login" action={t("backToLogin")} />
    </>
  );
}
