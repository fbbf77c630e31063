import { getTranslations } from "next-intl/server";
import { AdminAccountsTable } from "@/components/layout/admin-accounts-table";
import { Card, CardHeader } from "@/components/ui/card";
import { routeMetadata } from "@/lib/i18n/metadata";
import { listAccounts } from "@/lib/server/services/admin/list-accounts";
import { adminCtx } from "../admin-context";
import styles from "@/components/layout/admin.module.css";

export const generateMetadata = () => routeMetadata("AdminUsers");

export default async function AdminUsersPage() {
  const { items, total } = await listAccounts({ ctx: await adminCtx(), input: {} });
  const t = await getTranslations("admin");
  const routes = await getTranslations("routes");
  return (
    <Card>
      <CardHeader as="h1" title={routes("AdminUsers")} />
      <p className={styles.lead}>{t("usersText")}</p>
      <AdminAccountsTable items={items} total={total} />
    </Card>
  );
}
