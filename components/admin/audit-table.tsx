import { getTranslations } from "next-intl/server";
import Link from "@/components/ui/link";
import type { AuditEntryDto } from "@/lib/validation/admin";
import styles from "@/components/layout/admin.module.css";
import { staffDates } from "./staff-dates";

/** Audit entries as a table: who, what, which target, why, when. Read-only: nothing here changes a record. */
export async function AuditTable({ entries }: { entries: AuditEntryDto[] }) {
  const t = await getTranslations("admin");
  const { dateTime: date } = await staffDates();
  const role = (r: unknown) => (r === "USER" || r === "MODERATOR" || r === "ADMIN" ? t(`role${r}`) : String(r));
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table} data-testid="audit-table">
        <thead>
          <tr>
            <th scope="col">{t("colWhen")}</th>
            <th scope="col">{t("colWho")}</th>
            <th scope="col">{t("colAction")}</th>
            <th scope="col">{t("colTarget")}</th>
            <th scope="col">{t("colReason")}</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id}>
              <td className={styles.muted}>{date.format(new Date(e.createdAt))}</td>
              <td>{e.actor ? <Link href={`/admin/users/${e.actor.id}`}>{`${e.actor.firstName} ${e.actor.lastName}`}</Link> : t("systemActor")}</td>
              <td>
                {t(`action${e.action}` as "actionUSER_BLOCKED")}
                {e.action === "ROLE_CHANGED" && e.details ? ` (${t("roleChange", { from: role(e.details.from), to: role(e.details.to) })})` : null}
              </td>
              <td>
                {e.targetAccountId ? (
                  <Link href={`/admin/users/${e.targetAccountId}`}>{t(`target${e.targetType}`, { id: e.targetId })}</Link>
                ) : (
                  t(`target${e.targetType}`, { id: e.targetId })
                )}
              </td>
              <td className={styles.muted}>{e.reason ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
