import { getLocale, getTranslations } from "next-intl/server";
import { staffDates } from "./staff-dates";
import type { HealthOverview } from "@/lib/server/services/admin/health";
import styles from "@/components/layout/admin.module.css";
import ui from "./admin-ui.module.css";

/** The server's health at a glance on the statistics page (docs/adr/0140): the same checks as /api/ready. */
export async function HealthPanel({ health }: { health: HealthOverview }) {
  const [t, locale, dates] = await Promise.all([getTranslations("admin"), getLocale(), staffDates()]);
  const size = (bytes: number) =>
    new Intl.NumberFormat(locale, { style: "unit", unit: bytes >= 1e9 ? "gigabyte" : "megabyte", maximumFractionDigits: 1 }).format(bytes >= 1e9 ? bytes / 1e9 : bytes / 1e6);
  const last = health.backup.last;
  const state = (up: boolean) => (
    <span className={up ? ui.changeUp : ui.changeDown} data-state={up ? "up" : "down"}>
      {up ? t("healthUp") : t("healthDown")}
    </span>
  );
  const migrated = health.migrations.applied >= health.migrations.expected;
  return (
    <section aria-labelledby="health-title" data-testid="health" data-ready={health.ready ? "true" : "false"}>
      <h2 id="health-title" className={styles.lead}>
        {t("healthTitle")}: {health.ready ? t("healthReady") : t("healthNotReady")}
      </h2>
      <dl className={styles.tiles}>
        <div className={styles.tile} data-testid="health-database">
          <dt className={styles.tileLabel}>{t("healthDatabase")}</dt>
          <dd className={ui.change}>{state(health.database === "up")}</dd>
          <dd className={ui.change}>{migrated ? t("healthMigrated") : t("healthMigrations", { applied: health.migrations.applied, expected: health.migrations.expected })}</dd>
        </div>
        <div className={styles.tile} data-testid="health-listener">
          <dt className={styles.tileLabel}>{t("healthListener")}</dt>
          <dd className={ui.change}>{state(health.listener === "up")}</dd>
        </div>
        <div className={styles.tile} data-testid="health-outbox">
          <dt className={styles.tileLabel}>{t("healthOutbox")}</dt>
          <dd className={ui.change}>{health.outboxLagSeconds === null ? t("healthUnknown") : t("healthSeconds", { seconds: health.outboxLagSeconds })}</dd>
        </div>
        <div className={styles.tile} data-testid="health-jobs">
          <dt className={styles.tileLabel}>{t("healthJobs")}</dt>
          <dd className={ui.change}>{health.jobs ? t("healthJobsValue", { waiting: health.jobs.waiting, failed: health.jobs.failed }) : t("healthUnknown")}</dd>
        </div>
        <div className={styles.tile} data-testid="health-backup" data-result={last?.result ?? "none"}>
          <dt className={styles.tileLabel}>{t("healthBackup")}</dt>
          {last ? (
            <>
              <dd className={ui.change}>
                <span className={last.result === "succeeded" ? ui.changeUp : ui.changeDown}>
                  {last.result === "succeeded" ? t("healthBackupSucceeded") : t("healthBackupFailed")}
                </span>{" "}
                <time dateTime={last.finishedAt.toISOString()}>{dates.dateTime.format(last.finishedAt)}</time>
              </dd>
              {last.bytes !== null && <dd className={ui.change}>{t("healthBackupSize", { size: size(last.bytes), total: size(last.destinationBytes ?? last.bytes) })}</dd>}
              {last.error && <dd className={ui.change}>{last.error.slice(0, 200)}</dd>}
            </>
          ) : (
            <dd className={ui.change}>{t("healthBackupNone")}</dd>
          )}
          <dd className={ui.change}>{health.backup.scheduled ? t("healthBackupDaily") : t("healthBackupNotScheduled")}</dd>
        </div>
      </dl>
    </section>
  );
}
