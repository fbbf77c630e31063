import { getTranslations } from "next-intl/server";
import { currentViewer } from "@/components/layout/current-viewer";
import { getDb } from "@/db/client";
import { getMyAccount } from "@/lib/server/services/accounts/get-account";
import { AuthPrompt } from "./auth-links";
import { SignInNeededNotice } from "./link-notices";
import { ShiftEmailForm } from "./shift-email-form";

/** The form area of /shift-email: a signed-in account names its new address. */
export async function ShiftEmailPanel() {
  const t = await getTranslations("common");
  const current = await currentViewer();
  if (!current) return <SignInNeededNotice />;
  const me = await getMyAccount({ ctx: { viewer: current.viewer, db: getDb(), requestId: "page" } });
  return (
    <>
      <ShiftEmailForm currentEmail={me.email ?? ""} />
      <AuthPrompt href="/settings" action={t("backToSettings")} />
    </>
  );
}
