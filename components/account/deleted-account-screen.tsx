import { getTranslations } from "next-intl/server";
import { Card } from "@/components/ui/card";
import { AlertIcon } from "@/components/ui/icons";
import styles from "./deleted-account-screen.module.css";
import { LocalDateTime } from "./local-date-time";
import { RestoreAccount } from "./restore-account";

/** Whether the restore window is still open; the API decides for real, this only picks the text. */
function isRestorable(restoreUntil: string | null): restoreUntil is string {
  return restoreUntil !== null && Date.parse(restoreUntil) > Date.now();
}

/**
 * What a signed-in viewer whose account is flagged deleted sees instead of any page (spec section 2):
 * the notice, the possible reasons, until when the page can come back, and the restore button. The
 * date and the number of days both come from DELETION_RESTORE_DAYS, the setting the API enforces.
 */
export async function DeletedAccountScreen({ restoreUntil, restoreDays }: { restoreUntil: string | null; restoreDays: number }) {
  const t = await getTranslations("deletedAccount");
  return (
    <Card className={styles.card} aria-labelledby="deleted-title" data-testid="deleted-account">
      <span className={styles.badge} aria-hidden="true">
        <AlertIcon size={28} />
      </span>
      <h1 id="deleted-title" className={styles.title}>
        {t("title")}
      </h1>
      <p className={styles.lead}>{t("lead")}</p>
      <div className={styles.reasons}>
        <h2 className={styles.reasonsTitle}>{t("reasonsTitle")}</h2>
        <ul className={styles.list}>
          <li>{t("reasonSelf")}</li>
          <li>{t("reasonIntruder")}</li>
          <li>{t("reasonRules")}</li>
        </ul>
      </div>
      {isRestorable(restoreUntil) ? (
        <>
          <p className={styles.until}>{t.rich("restoreUntil", { date: () => <LocalDateTime iso={restoreUntil} /> })}</p>
          <p className={styles.window}>{t("restoreWindow", { days: restoreDays })}</p>
          <div className={styles.actions}>
            <RestoreAccount />
          </div>
        </>
      ) : (
        <p className={styles.until}>{t("expired")}</p>
      )}
    </Card>
  );
}
