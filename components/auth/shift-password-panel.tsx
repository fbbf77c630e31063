import { getTranslations } from "next-intl/server";
import { currentViewer } from "@/components/layout/current-viewer";
import { getDb } from "@/db/client";
import { getMyAccount } from "@/lib/server/services/accounts/get-account";
import { AuthPrompt } from "./auth-links";
import { DeadLinkNotice, SignInNeededNotice } from "./link-notices";
import { NewPasswordForm } from "./new-password-form";
import { ShiftPasswordRequest } from "./shift-password-request";

/**
 * The area of /shift-password. Without a secret: a signed-in account asks for the link (mailed to its
 * own address, so a stolen session alone cannot change the password). With the mailed secret: the
 * new password form, which also works in a browser that is not signed in.
 */
export async function ShiftPasswordPanel({ secret, alive }: { secret: string | null; alive: boolean }) {
  const t = await getTranslations("common");
  const current = await currentViewer();
  const back = current ? <AuthPrompt href="/settings" action={t("backToSettings")} /> : <AuthPrompt href="/login" action={t("backToLogin")} />;
  if (secret) {
    return (
      <>
        {alive ? <NewPasswordForm mode="change" secret={secret} /> : <DeadLinkNotice requestHref="/shift-password" />}
        {back}
      </>
    );
  }
  if (!current) return <SignInNeededNotice />;
  const me = await getMyAccount({ ctx: { viewer: current.viewer, db: getDb(), requestId: "page" } });
  return (
    <>
      <ShiftPasswordRequest email={me.email ?? ""} />
      {back}
    </>
  );
}
