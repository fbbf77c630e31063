import { getTranslations } from "next-intl/server";
import { Field, FilterForm, Pager, plainParams, withFallback, YesNoFilter, type SearchParams } from "@/components/admin/admin-ui";
import ui from "@/components/admin/admin-ui.module.css";
import { UsersTable } from "@/components/admin/users-table";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { UsersIcon } from "@/components/ui/icons";
import { routeMetadata } from "@/lib/i18n/metadata";
import { listUsers } from "@/lib/server/services/admin/users";
import { adminCtx } from "../admin-context";
import styles from "@/components/layout/admin.module.css";

export const generateMetadata = () => routeMetadata("AdminUsers");

export default async function AdminUsersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const ctx = await adminCtx();
  const params = plainParams(await searchParams);
  const page = await withFallback(params, (input) => listUsers({ ctx, input }));
  const t = await getTranslations("admin");
  const routes = await getTranslations("routes");
  return (
    <Card>
      <CardHeader as="h1" title={routes("AdminUsers")} />
      <p className={styles.lead}>{t("usersText")}</p>
      <FilterForm resetHref="/admin/users">
        <Field label={t("search")}>
          <input type="search" name="query" defaultValue={params.query ?? ""} placeholder={t("searchUsers")} className={ui.input} maxLength={100} />
        </Field>
        <YesNoFilter name="blocked" label={t("blockedFilter")} value={params.blocked} any={t("any")} yes={t("onlyBlocked")} no={t("onlyActive")} />
        <YesNoFilter name="deleted" label={t("deletedFilter")} value={params.deleted} any={t("any")} yes={t("onlyDeleted")} no={t("notDeleted")} />
        <Field label={t("roleFilter")}>
          <select name="role" defaultValue={params.role ?? ""} className={ui.select}>
            <option value="">{t("any")}</option>
            {(["USER", "MODERATOR", "ADMIN"] as const).map((r) => (
              <option key={r} value={r}>
                {t(`role${r}`)}
              </option>
            ))}
          </select>
        </Field>
      </FilterForm>
      {page.content.length === 0 ? (
        <EmptyState icon={<UsersIcon size={28} />} title={t("nothingFound")} text={t("nothingFoundText")} />
      ) : (
        <UsersTable items={page.content} viewer={ctx.viewer!} />
      )}
      <p className={styles.foot}>{t("shownOf", { shown: page.content.length, total: page.totalElements })}</p>
      <Pager path="/admin/users" params={params} page={page.number} totalPages={page.totalPages} />
    </Card>
  );
}
