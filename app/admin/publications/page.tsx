import { getLocale, getTranslations } from "next-intl/server";
import Link from "next/link";
import { BlockButton } from "@/components/admin/admin-actions";
import { Pager, plainParams, withFallback, type SearchParams } from "@/components/admin/admin-ui";
import ui from "@/components/admin/admin-ui.module.css";
import { ContentFilters } from "@/components/admin/content-filters";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { FileTextIcon } from "@/components/ui/icons";
import { routeMetadata } from "@/lib/i18n/metadata";
import { listAdminPosts } from "@/lib/server/services/admin/content";
import { adminCtx } from "../admin-context";
import styles from "@/components/layout/admin.module.css";

export const generateMetadata = () => routeMetadata("AdminPublications");

/** Publications for moderation: search and filters, block and unblock (tooltips 'Заблокировать' / 'Разблокировать'). */
export default async function AdminPublicationsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const ctx = await adminCtx();
  const params = plainParams(await searchParams);
  const page = await withFallback(params, (input) => listAdminPosts({ ctx, input }));
  const t = await getTranslations("admin");
  const routes = await getTranslations("routes");
  const date = new Intl.DateTimeFormat(await getLocale(), { dateStyle: "medium", timeStyle: "short" });
  return (
    <Card>
      <CardHeader as="h1" title={routes("AdminPublications")} />
      <ContentFilters params={params} resetHref="/admin/publications" />
      {page.content.length === 0 ? (
        <EmptyState icon={<FileTextIcon size={28} />} title={t("nothingFound")} text={t("nothingFoundText")} />
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">{t("colTitle")}</th>
                <th scope="col">{t("colAuthor")}</th>
                <th scope="col">{t("colDate")}</th>
                <th scope="col">{t("colStatus")}</th>
                <th scope="col">{t("colActions")}</th>
              </tr>
            </thead>
            <tbody>
              {page.content.map((p) => (
                <tr key={p.id} className={p.isBlocked ? ui.rowBlocked : undefined} data-testid={`post-row-${p.id}`}>
                  <td>
                    <div className={ui.stack}>
                      <strong>{p.title}</strong>
                      <span className={ui.excerpt}>{p.excerpt}</span>
                    </div>
                  </td>
                  <td>
                    <Link href={`/admin/users/${p.author.id}`}>{`${p.author.firstName} ${p.author.lastName}`}</Link>
                  </td>
                  <td className={styles.muted}>{date.format(new Date(p.time))}</td>
                  <td>
                    {p.isBlocked ? (
                      <span className={`${styles.pill} ${styles.pillDanger}`}>{t("blockedMark")}</span>
                    ) : (
                      <span className={styles.pill}>{t("statusActive")}</span>
                    )}
                  </td>
                  <td>
                    <BlockButton kind="posts" id={p.id} blocked={p.isBlocked} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className={styles.foot}>{t("shownOf", { shown: page.content.length, total: page.totalElements })}</p>
      <Pager path="/admin/publications" params={params} page={page.number} totalPages={page.totalPages} />
    </Card>
  );
}
