import { getTranslations } from "next-intl/server";
import Link from "@/components/ui/link";
import { BlockButton, RoleSelect } from "@/components/admin/admin-actions";
import ui from "@/components/admin/admin-ui.module.css";
import { staffDates } from "@/components/admin/staff-dates";
import { Avatar } from "@/components/ui/avatar";
import type { AdminUserDto } from "@/lib/validation/admin";
import styles from "@/components/layout/admin.module.css";

/** The status pill of an account: deleted, blocked or active. */
export async function UserStatus({ user }: { user: Pick<AdminUserDto, "isDeleted" | "isBlocked"> }) {
  const t = await getTranslations("admin");
  if (user.isDeleted) return <span className={`${styles.pill} ${styles.pillDanger}`}>{t("statusDeleted")}</span>;
  if (user.isBlocked) return <span className={`${styles.pill} ${styles.pillDanger}`}>{t("statusBlocked")}</span>;
  return <span className={styles.pill}>{t("statusActive")}</span>;
}

/** Accounts for staff: search by name or e-mail, blocked / deleted / role filters, paging, block and (administrators) roles. */
export async function UsersTable({ items, viewer }: { items: AdminUserDto[]; viewer: { id: number; role: string } }) {
  const t = await getTranslations("admin");
  const { date } = await staffDates();
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">{t("colId")}</th>
            <th scope="col">
              {t("colName")} · {t("colEmail")}
            </th>
            <th scope="col">{t("colRegistered")}</th>
            <th scope="col">{t("colRole")}</th>
            <th scope="col">{t("colStatus")}</th>
            <th scope="col">{t("colActions")}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((u) => {
            const name = `${u.firstName} ${u.lastName}`;
            const canBlock = u.id !== viewer.id && u.role !== "ADMIN" && (u.role === "USER" || viewer.role === "ADMIN");
            return (
              <tr key={u.id} className={u.isBlocked ? ui.rowBlocked : undefined} data-testid={`user-row-${u.id}`}>
                <td className={styles.muted}>{u.id}</td>
                <td>
                  <Link href={`/admin/users/${u.id}`} className={styles.person} title={t("openCard")}>
                    <Avatar id={u.id} firstName={u.firstName} lastName={u.lastName} photo={u.photo} size={32} alt="" />
                    <span className={styles.who}>
                      <span>{name}</span>
                      <span className={styles.email}>{u.email}</span>
                    </span>
                  </Link>
                </td>
                <td className={styles.muted}>{date.format(new Date(u.createdAt))}</td>
                <td>
                  {viewer.role === "ADMIN" ? (
                    <RoleSelect id={u.id} role={u.role} name={name} disabled={u.id === viewer.id} />
                  ) : (
                    <span className={`${styles.pill} ${u.role !== "USER" ? styles.pillAccent : ""}`}>{t(`role${u.role}`)}</span>
                  )}
                </td>
                <td>
                  <UserStatus user={u} />
                </td>
                <td>{canBlock ? <BlockButton kind="users" id={u.id} blocked={u.isBlocked} withLabel /> : null}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
