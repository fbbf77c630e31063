import { getTranslations } from "next-intl/server";
import Link from "@/components/ui/link";
import type { ReactNode } from "react";
import { BlockButton } from "@/components/admin/admin-actions";
import { Pager } from "@/components/admin/admin-ui";
import ui from "@/components/admin/admin-ui.module.css";
import { ContentFilters } from "@/components/admin/content-filters";
import { staffDates } from "@/components/admin/staff-dates";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import styles from "@/components/layout/admin.module.css";

export type ModerationRow = {
  id: number;
  time: string;
  author: { id: number; firstName: string; lastName: string };
  isBlocked: boolean;
  /** What the first column shows: a post's title and excerpt, a comment's text. */
  content: ReactNode;
};

type Props = {
  kind: "posts" | "comments";
  title: string;
  /** The page's own path: the filters' reset and the pager link there. */
  path: string;
  params: Record<string, string>;
  page: { content: ModerationRow[]; number: number; totalPages: number; totalElements: number };
  /** The header of the first column. */
  contentHeader: string;
  emptyIcon: ReactNode;
};

/**
 * The moderation list of publications or comments (issue 13): filters, the table with author, date,
 * status and the block / unblock button (tooltips 'Заблокировать' / 'Разблокировать'), and the pager.
 */
export async function ModerationList({ kind, title, path, params, page, contentHeader, emptyIcon }: Props) {
  const t = await getTranslations("admin");
  const { dateTime: date } = await staffDates();
  const rowTestId = kind === "posts" ? "post-row" : "comment-row";
  return (
    <Card>
      <CardHeader as="h1" title={title} />
      <ContentFilters params={params} resetHref={path} />
      {page.content.length === 0 ? (
        <EmptyState icon={emptyIcon} title={t("nothingFound")} text={t("nothingFoundText")} />
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">{contentHeader}</th>
                <th scope="col">{t("colAuthor")}</th>
                <th scope="col">{t("colDate")}</th>
                <th scope="col">{t("colStatus")}</th>
                <th scope="col">{t("colActions")}</th>
              </tr>
            </thead>
            <tbody>
              {page.content.map((row) => (
                <tr key={row.id} className={row.isBlocked ? ui.rowBlocked : undefined} data-testid={`${rowTestId}-${row.id}`}>
                  <td>{row.content}</td>
                  <td>
                    <Link href={`/admin/users/${row.author.id}`}>{`${row.author.firstName} ${row.author.lastName}`}</Link>
                  </td>
                  <td className={styles.muted}>{date.format(new Date(row.time))}</td>
                  <td>
                    {row.isBlocked ? (
                      <span className={`${styles.pill} ${styles.pillDanger}`}>{t("blockedMark")}</span>
                    ) : (
                      <span className={styles.pill}>{t("statusActive")}</span>
                    )}
                  </td>
                  <td>
                    <BlockButton kind={kind} id={row.id} blocked={row.isBlocked} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className={styles.foot}>{t("shownOf", { shown: page.content.length, total: page.totalElements })}</p>
      <Pager path={path} params={params} page={page.number} totalPages={page.totalPages} />
    </Card>
  );
}
