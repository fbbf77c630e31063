import { getLocale, getTranslations } from "next-intl/server";
import Link from "next/link";
import styles from "./admin.module.css";
import { Avatar } from "@/components/ui/avatar";
import type { AdminAccountRow } from "@/lib/server/services/admin/list-accounts";

/** Accounts as a table for the admin area: who, since when, which role, which state. */
export async function AdminAccountsTable({ items, total }: { items: AdminAccountRow[]; total: number }) {
  const t = await getTranslations("admin");
  const date = new Intl.DateTimeFormat(await getLocale(), { dateStyle: "medium" });
  return (
    <>
      <div className={styles.tableWrap}>
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">{t("colId")}</th>
              <th scope="col">{t("colName")}</th>
              <th scope="col">{t("colRegistered")}</th>
              <th scope="col">{t("colRole")}</th>
              <th scope="col">{t("colStatus")}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((a) => (
              <tr key={a.id}>
                <td className={styles.muted}>{a.id}</td>
                <td>
                  <Link href={`/profile/${a.id}`} className={styles.person}>
                    <Avatar id={a.id} firstName={a.firstName} lastName={a.lastName} photo={null} size={32} alt="" />
                    <span>
                      {a.firstName} {a.lastName}
                    </span>
                  </Link>
                </td>
                <td className={styles.muted}>{date.format(a.createdAt)}</td>
                <td>
                  <span className={`${styles.pill} ${a.role !== "USER" ? styles.pillAccent : ""}`}>{t(`role${a.role}`)}</span>
                </td>
                <td>
                  {a.isDeleted ? (
                    <span className={`${styles.pill} ${styles.pillDanger}`}>{t("statusDeleted")}</span>
                  ) : a.isBlocked ? (
                    <span className={`${styles.pill} ${styles.pillDanger}`}>{t("statusBlocked")}</span>
                  ) : (
                    <span className={styles.pill}>{t("statusActive")}</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className={styles.foot}>{t("shownOf", { shown: items.length, total })}</p>
    </>
  );
}
