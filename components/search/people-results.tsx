import { getTranslations } from "next-intl/server";
import Link from "@/components/ui/link";
import { ZodError } from "zod";
import { PersonRow } from "@/components/friends/person-row";
import { EmptyState } from "@/components/ui/empty-state";
import { UsersIcon } from "@/components/ui/icons";
import type { Viewer } from "@/lib/server/auth/viewer";
import { ServiceError } from "@/lib/server/http/errors";
import { getDb } from "@/db/client";
import { searchAccounts } from "@/lib/server/services/accounts/search-accounts";
import { looksLikeAddress } from "@/lib/server/federation/remote";
import styles from "./people-results.module.css";
import { requestLocale } from "@/lib/i18n/request";

/**
 * The people tab of /search: the first page is rendered on the server through the search service
 * (spec section 7: account/search with the name as author, deleted accounts excluded, 5 per page),
 * each person as on /friends/find (issue 14 item 6).
 */
export async function PeopleResults({ viewer, query, page }: { viewer: Viewer; query: string; page: number }) {
  const t = await getTranslations("search");
  let result;
  try {
    result = await searchAccounts({ ctx: { viewer, db: getDb(), requestId: "search-page", locale: await requestLocale() }, input: { author: query, page: String(page) } });
  } catch (err) {
    // A query the schema refuses (or a viewer who may not search) simply finds nobody.
    if (!(err instanceof ZodError || err instanceof ServiceError)) throw err;
    result = null;
  }
  if (!result || result.content.length === 0) {
    // An address or a profile URL names one person: say plainly that they were not found (issue 43).
    if (looksLikeAddress(query)) return <EmptyState icon={<UsersIcon size={28} />} title={t("remoteNotFoundTitle", { query })} text={t("remoteNotFoundText")} />;
    return <EmptyState icon={<UsersIcon size={28} />} title={t("noPeopleTitle", { query })} text={t("noPeopleText")} />;
  }
  const href = (p: number) => `/search?${new URLSearchParams({ tab: "people", query, page: String(p) })}`;
  return (
    <div className={styles.wrap}>
      <p className={styles.count}>{t("found", { count: result.totalElements })}</p>
      {/* As on /friends/find: photo, name, city and age, and the action that fits the relation. */}
      <ul className={styles.list} aria-label={t("tabPeople")}>
        {result.content.map((a) => (
          // Found by their address, a person of another server carries it (issue 43): shown under the name.
          <PersonRow key={a.id} person={a} statusCode={a.statusCode} canMessage={a.canMessage} fediverseAddress={a.fediverseAddress ?? undefined} />
        ))}
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
