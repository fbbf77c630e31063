import { getTranslations } from "next-intl/server";
import { AdminAccountsTable } from "@/components/layout/admin-accounts-table";
import { Card, CardHeader } from "@/components/ui/card";
import { routeMetadata } from "@/lib/i18n/metadata";
import { listAccounts } from "@/lib/server/services/admin/list-accounts";
import { adminCtx } from "../admin-context";
import styles from "@/components/layout/admin.module.css";

export const generateMetadata = () => routeMetadata("AdminModerators");

export default async function AdminModeratorsPage() {
  const { items, total } = await listAccounts({ ctx: await adminCtx(), input: { roles: ["ADMIN", "MODERATOR"] } });
  const t = await getTranslations("admin");
  const routes = await getTranslations("routes");
  return (
    <Card>
      <CardHeader as="h1" title={routes("AdminModerators")} />
      <p className={styles.lead}>{t("moderatorsText")}</p>
      <AdminAccountsTable items={items} total={total} />
    </Card>
  );
}
