import { getTranslations } from "next-intl/server";
import { ZodError } from "zod";
import { CommunityRow } from "@/components/communities/community-row";
import { EmptyState } from "@/components/ui/empty-state";
import { UsersIcon } from "@/components/ui/icons";
import Link from "@/components/ui/link";
import { getDb } from "@/db/client";
import { requestLocale } from "@/lib/i18n/request";
import type { Viewer } from "@/lib/server/auth/viewer";
import { ServiceError } from "@/lib/server/http/errors";
import { listCommunities } from "@/lib/server/services/communities/communities";
import { COMMUNITY_QUERY_MIN } from "@/lib/validation/communities-shared";
import styles from "./people-results.module.css";

/** Communities a page of the search's communities tab shows. */
export const COMMUNITY_RESULTS_PAGE = 10;

/**
 * The communities tab of /search (issue 42): GET communities?query= rendered on the server — names holding
 * the text (from COMMUNITY_QUERY_MIN letters), biggest first, private ones only to their members — each as
 * on /communities, with pages.
 */
export async function CommunityResults({ viewer, query, page }: { viewer: Viewer; query: string; page: number }) {
  const t = await getTranslations("search");
  if ([...query].length < COMMUNITY_QUERY_MIN) {
    return <EmptyState icon={<UsersIcon size={28} />} title={t("communitiesShortTitle")} text={t("communitiesShortText", { count: COMMUNITY_QUERY_MIN })} />;
  }
  let result;
  try {
    const ctx = { viewer, db: getDb(), requestId: "search-page", locale: await requestLocale() };
    result = await listCommunities({ ctx, input: { query, page, size: COMMUNITY_RESULTS_PAGE } });
  } catch (err) {
    // A query the schema refuses (or a viewer who may not search) simply finds nothing.
    if (!(err instanceof ZodError || err instanceof ServiceError)) throw err;
    result = null;
  }
  if (!result || result.content.length === 0) {
    return <EmptyState icon={<UsersIcon size={28} />} title={t("noCommunitiesTitle", { query })} text={t("noPeopleText")} />;
  }
  const href = (p: number) => `/search?${new URLSearchParams({ tab: "communities", query, page: String(p) })}`;
  return (
    <div className={styles.wrap} data-testid="search-communities">
      <p className={styles.count}>{t("found", { count: result.totalElements })}</p>
      <ul className={styles.list} aria-label={t("tabCommunities")}>
        {result.content.map((c) => (
          <CommunityRow key={c.id} community={c} />
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
