import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { ZodError } from "zod";
import { Avatar } from "@/components/ui/avatar";
import { EmptyState } from "@/components/ui/empty-state";
import { UsersIcon } from "@/components/ui/icons";
import type { Viewer } from "@/lib/server/auth/viewer";
import { ServiceError } from "@/lib/server/http/errors";
import { getDb } from "@/db/client";
import { searchAccounts } from "@/lib/server/services/accounts/search-accounts";
import styles from "./people-results.module.css";

/**
 * The people tab of /search: the first page is rendered on the server through the search service
 * (spec section 7: account/search with the name as author, deleted accounts excluded, 5 per page).
 */
export async function PeopleResults({ viewer, query, page }: { viewer: Viewer; query: string; page: number }) {
  const t = await getTranslations("search");
  let result;
  try {
    result = await searchAccounts({ ctx: { viewer, db: getDb(), requestId: "search-page" }, input: { author: query, page: String(page) } });
  } catch (err) {
    // A query the schema refuses (or a viewer who may not search) simply finds nobody.
    if (!(err instanceof ZodError || err instanceof ServiceError)) throw err;
    result = null;
  }
  if (!result || result.content.length === 0) {
    return <EmptyState icon={<UsersIcon size={28} />} title={t("noPeopleTitle", { query })} text={t("noPeopleText")} />;
  }
  const href = (p: number) => `/search?${new URLSearchParams({ tab: "people", query, page: String(p) })}`;
  return (
    <div className={styles.wrap}>
      <p className={styles.count}>{t("found", { count: result.totalElements })}</p>
      <ul className={styles.list}>
        {result.content.map((a) => {
          const place = [a.city, a.country].filter(Boolean).join(", ");
          return (
            <li key={a.id}>
              <Link href={`/profile/${a.id}`} className={styles.person}>
                <Avatar id={a.id} firstName={a.firstName} lastName={a.lastName} photo={a.photo} size={48} alt="" />
                <span className={styles.text}>
                  <span className={styles.name}>{a.fullName}</span>
                  {place || a.age !== null ? (
                    <span className={styles.meta}>{[place, a.age !== null ? t("age", { age: a.age }) : ""].filter(Boolean).join(" · ")}</span>
                  ) : null}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
      {result.totalPages > 1 ? (
        <nav className={styles.pager} aria-label={t("pages")}>
          {page > 0 ? <Link href={href(page - 1)}>{t("prev")}</Link> : <span />}
          <span className={styles.pageOf}>{t("pageOf", { page: page + 1, total: result.totalPages })}</span>
          {page + 1 < result.totalPages ? <Link href={href(page + 1)}>{t("next")}</Link> : <span />}
        </nav>
      ) : null}
    </div>
  );
}
