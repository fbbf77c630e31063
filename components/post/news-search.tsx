import { getTranslations } from "next-intl/server";
import { ZodError } from "zod";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { SyncedInput } from "@/components/ui/synced-input";
import { NewsIcon } from "@/components/ui/icons";
import { getDb } from "@/db/client";
import { queryStems } from "@/lib/client/post-text";
import type { CurrentViewer } from "@/components/layout/current-viewer";
import { ServiceError } from "@/lib/server/http/errors";
import { listNewsPosts } from "@/lib/server/services/posts/list-posts";
import type { PostPage } from "@/lib/validation/post";
import { FEED_PAGE_SIZE } from "@/lib/validation/post-shared";
import { renderCardPage } from "./card-page";
import { PostList } from "./post-list";
import styles from "./news-search.module.css";

export const PERIODS = ["all", "year", "month", "week"] as const;
export type Period = (typeof PERIODS)[number];

export type NewsFilters = { query: string; author: string; tags: string; period: Period };

/** The start of a period (spec section 2: all time, last year, month, week), to the minute so pages agree. */
export function periodStart(period: Period, now = new Date()): string | undefined {
  if (period === "all") return undefined;
  const d = new Date(now);
  d.setUTCSeconds(0, 0);
  if (period === "week") d.setUTCDate(d.getUTCDate() - 7);
  else if (period === "month") d.setUTCMonth(d.getUTCMonth() - 1);
  else d.setUTCFullYear(d.getUTCFullYear() - 1);
  return d.toISOString();
}

export const hasNewsFilters = (f: NewsFilters) => Boolean(f.query || f.author || f.tags || f.period !== "all");

/** The news tab's extra filters, inside the search form of the page (one submit applies them all). */
export async function NewsFilterFields({ filters }: { filters: NewsFilters }) {
  const t = await getTranslations("post.search");
  return (
    <fieldset className={styles.filters}>
      <legend className="visually-hidden">{t("filters")}</legend>
      <div className={styles.field}>
        <label htmlFor="news-author" className={styles.label}>
          {t("author")}
        </label>
        <SyncedInput id="news-author" name="author" className={styles.input} value={filters.author} maxLength={101} placeholder={t("authorPlaceholder")} autoComplete="off" />
      </div>
      <div className={styles.field}>
        <label htmlFor="news-tags" className={styles.label}>
          {t("tag")}
        </label>
        <SyncedInput id="news-tags" name="tags" className={styles.input} value={filters.tags} maxLength={120} placeholder={t("tagPlaceholder")} autoComplete="off" />
      </div>
      <div className={styles.field}>
        <label htmlFor="news-period" className={styles.label}>
          {t("period")}
        </label>
        <select id="news-period" name="period" className={styles.input} defaultValue={filters.period}>
          <option value="all">{t("periodAll")}</option>
          <option value="year">{t("periodYear")}</option>
          <option value="month">{t("periodMonth")}</option>
          <option value="week">{t("periodWeek")}</option>
        </select>
      </div>
    </fieldset>
  );
}

/**
 * The news tab's results: page 0 through the feed service with text, author, tags and dateFrom (every
 * visible post, not only friends'), then SWR infinite scroll; matched words highlighted.
 */
export async function NewsResults({ current, filters }: { current: CurrentViewer; filters: NewsFilters }) {
  const t = await getTranslations("search");
  const tList = await getTranslations("post.list");
  const dateFrom = periodStart(filters.period);
  const params = {
    ...(filters.query ? { text: filters.query } : {}),
    ...(filters.author ? { author: filters.author } : {}),
    ...(filters.tags ? { tags: filters.tags } : {}),
    ...(dateFrom ? { dateFrom } : {}),
  };
  const source = { kind: "search" as const, ...params };
  let first: PostPage | null = null;
  try {
    first = await listNewsPosts({
      ctx: { viewer: current.viewer, db: getDb(), requestId: "search-page" },
      input: { ...params, page: "0", size: String(FEED_PAGE_SIZE) },
    });
  } catch (err) {
    // A filter the schema refuses (too long, too many tags) finds nothing rather than failing the page.
    if (!(err instanceof ZodError || err instanceof ServiceError)) throw err;
  }
  const what = [filters.query, filters.author, filters.tags && `#${filters.tags}`].filter(Boolean).join(", ");
  const empty = (
    <Card>
      <EmptyState icon={<NewsIcon size={28} />} title={t("noNewsTitle", { query: what })} text={t("noNewsText")} />
    </Card>
  );
  if (!first) return empty;
  const s = current.summary;
  return (
    <>
      {first.totalElements > 0 ? <p className={styles.count}>{t("found", { count: first.totalElements })}</p> : null}
      <PostList
        source={source}
        first={renderCardPage(first, s.id, queryStems(filters.query))}
        viewer={{ id: s.id, firstName: s.firstName, lastName: s.lastName, photo: s.photo }}
        paging="scroll"
        label={tList("results")}
        empty={empty}
      />
    </>
  );
}
