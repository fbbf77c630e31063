import { getTranslations } from "next-intl/server";
import { Card, CardHeader } from "@/components/ui/card";
import { routeMetadata } from "@/lib/i18n/metadata";
import { listUsers } from "@/lib/server/services/admin/users";
import { UsersTable } from "@/components/admin/users-table";
import { adminCtx } from "../admin-context";
import styles from "@/components/layout/admin.module.css";

export const generateMetadata = () => routeMetadata("AdminModerators");

/** Administrators and moderators; an administrator grants and revokes roles here and on the users page. */
export default async function AdminModeratorsPage() {
  const ctx = await adminCtx();
  const page = await listUsers({ ctx, input: { staff: "true", size: "100" } });
  const t = await getTranslations("admin");
  const routes = await getTranslations("routes");
  return (
    <Card>
      <CardHeader as="h1" title={routes("AdminModerators")} />
      <p className={styles.lead}>
        {t("moderatorsText")} {ctx.viewer!.role !== "ADMIN" ? t("staffOnlyAdmins") : null}
      </p>
      <UsersTable items={page.content} viewer={ctx.viewer!} />
      <p className={styles.foot}>{t("shownOf", { shown: page.content.length, total: page.totalElements })}</p>
    </Card>
  );
}
