import { getTranslations } from "next-intl/server";
import { Suspense } from "react";
import { SearchForm } from "@/components/layout/search-form";
import Link from "@/components/ui/link";
import { currentViewer } from "@/components/layout/current-viewer";
import { NewsFilterFields, NewsResults, PERIODS, hasNewsFilters, type NewsFilters, type Period } from "@/components/post/news-search";
import { PeopleResults } from "@/components/search/people-results";
import { CommunityResults } from "@/components/search/community-results";
import { SignInPrompt } from "@/components/layout/sign-in-prompt";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { SyncedInput } from "@/components/ui/synced-input";
import { CommunitiesIcon, NewsIcon, UsersIcon } from "@/components/ui/icons";
import { SearchIcon } from "@/components/ui/icons-more";
import { Spinner } from "@/components/ui/spinner";
import { looksLikeAddress } from "@/lib/server/federation/remote";
import { routeMetadata } from "@/lib/i18n/metadata";
import styles from "./search.module.css";
import { withClientMessages } from "@/components/layout/client-messages";

export const generateMetadata = () => routeMetadata("Search");

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const TABS = ["people", "news", "communities"] as const;
type Tab = (typeof TABS)[number];

function first(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? "";
}

/**
 * Search (spec section 2): tabs people, news and communities (issue 42) chosen by ?tab=, the query text in ?query= (or ?text=,
 * as other clients and older links send it), ?page= for more.
 */
async function SearchPage({ searchParams }: Props) {
  const params = await searchParams;
  const tab: Tab = (TABS as readonly string[]).includes(first(params.tab)) ? (first(params.tab) as Tab) : "people";
  const query = (first(params.query) || first(params.text)).trim().slice(0, 100);
  const period = first(params.period);
  const news: NewsFilters = {
    query,
    author: first(params.author).trim().slice(0, 101),
    tags: first(params.tags).trim().slice(0, 120),
    period: (PERIODS as readonly string[]).includes(period) ? (period as Period) : "all",
  };
  const page = Math.min(Math.max(Number.parseInt(first(params.page), 10) || 0, 0), 10_000);
  const t = await getTranslations("search");
  const viewer = await currentViewer();
  // A deleted viewer sees the deleted-account screen from the layout; this page renders nothing (its services refuse them).
  if (viewer?.viewer.isDeleted) return null;
  const hrefOf = (x: Tab) => `/search?${new URLSearchParams({ tab: x, ...(query ? { query } : {}) })}`;
  return (
    <>
      <Card>
        {/* Marks the page so the top bar hides its own search box on a phone: one box, not two. */}
        <div className={styles.top} data-search-page="">
          <h1 className={styles.heading}>{t("heading")}</h1>
          <SearchForm role="search" aria-label={t("heading")} className={styles.form}>
            <input type="hidden" name="tab" value={tab} />
            <label htmlFor="search-query" className="visually-hidden">
              {t("queryLabel")}
            </label>
            <div className={styles.inputWrap}>
              <SearchIcon size={18} className={styles.inputIcon} />
              <SyncedInput id="search-query" className={styles.input} type="search" name="query" value={query} maxLength={100} />
            </div>
            <Button type="submit">{t("submit")}</Button>
            {tab === "news" ? <NewsFilterFields filters={news} /> : null}
          </SearchForm>
        </div>
        <nav className={styles.tabs} aria-label={t("tabs")}>
          {TABS.map((x) => (
            <Link key={x} href={hrefOf(x)} className={styles.tab} aria-current={x === tab ? "page" : undefined}>
              {x === "people" ? t("tabPeople") : x === "news" ? t("tabNews") : t("tabCommunities")}
            </Link>
          ))}
        </nav>
      </Card>
      {viewer && tab === "news" && hasNewsFilters(news) ? (
        <NewsResults current={viewer} filters={news} />
      ) : (
        <Card>
          {!viewer ? (
            <SignInPrompt returnTo="Search" />
          ) : !query ? (
            <EmptyState
              icon={tab === "people" ? <UsersIcon size={28} /> : tab === "news" ? <NewsIcon size={28} /> : <CommunitiesIcon size={28} />}
              title={t("startTitle")}
              text={tab === "people" ? t("startPeople") : tab === "news" ? t("startNews") : t("startCommunities")}
            />
          ) : tab === "communities" ? (
            <CommunityResults viewer={viewer.viewer} query={query} page={page} />
          ) : looksLikeAddress(query) ? (
            // A fediverse address or a profile URL is looked up on the person's server (issue 43): that may take
            // seconds, so the page says so meanwhile. A new boundary per query: a transition shows its fallback.
            <Suspense key={query} fallback={<Spinner label={t("lookingUp", { query })} />}>
              <PeopleResults viewer={viewer.viewer} query={query} page={page} />
            </Suspense>
          ) : (
            <PeopleResults viewer={viewer.viewer} query={query} page={page} />
          )}
        </Card>
      )}
    </>
  );
}

export default withClientMessages("(main)/search/page", SearchPage);
