import { getTranslations } from "next-intl/server";
import { FormAlert } from "@/components/ui/text-field";
import { AuthNextStep, AuthPrompt } from "./auth-links";
import styles from "./link-notices.module.css";

/** A mailed link that is unknown, spent or expired: say so and offer a new one. */
export async function DeadLinkNotice({ requestHref }: { requestHref: string }) {
  const tErrors = await getTranslations("errors");
  const t = await getTranslations("identity");
  return (
    <div className={styles.stack}>
      <FormAlert>{tErrors("linkInvalid")}</FormAlert>
      <AuthNextStep href={requestHref} label={t("requestNewLink")} />
    </div>
  );
}

/** The signed-in flows (/shift-password, /shift-email) opened while signed out. */
export async function SignInNeededNotice() {
  const t = await getTranslations("identity");
  const tCommon = await getTranslations("common");
  return (
    <div className={styles.stack}>
      <p className={styles.note}>{t("signInFirst")}</p>
      <AuthNextStep href="/login?redirect=Settings" label={tCommon("signIn")} />
      <AuthPrompt href="/forgot" action={t("forgotInstead")} />
    </div>
  );
}
