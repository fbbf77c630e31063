import { getTranslations } from "next-intl/server";
import { ZodError } from "zod";
import { getDb } from "@/db/client";
import { FindForm } from "@/components/friends/find-form";
import { FindResults, type FoundPerson } from "@/components/friends/find-results";
import { currentViewer } from "@/components/layout/current-viewer";
import { SignInPrompt } from "@/components/layout/sign-in-prompt";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { UsersIcon } from "@/components/ui/icons";
import { SearchIcon } from "@/components/ui/icons-more";
import { routeMetadata } from "@/lib/i18n/metadata";
import { ServiceError } from "@/lib/server/http/errors";
import { searchAccounts } from "@/lib/server/services/accounts/search-accounts";
import { listRecommendations } from "@/lib/server/services/friends/recommendations";
import { SEARCH_PAGE_SIZE_DEFAULT } from "@/lib/validation/account";
import { FRIEND_SEARCH_FIELDS, friendSearchForm, type FriendSearchForm } from "@/lib/validation/friends";
import { requestLocale } from "@/lib/i18n/request";
import { withClientMessages } from "@/components/layout/client-messages";

export const generateMetadata = () => routeMetadata("FriendsFind");

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Only what a card shows travels to the browser (the search answer carries more of each account). */
const toFound = (p: FoundPerson & Record<string, unknown>): FoundPerson => ({
  id: p.id,
  firstName: p.firstName,
  lastName: p.lastName,
  fullName: p.fullName,
  photo: p.photo,
  city: p.city,
  country: p.country,
  age: p.age,
  isOnline: p.isOnline,
  statusCode: p.statusCode,
  mutualFriends: p.mutualFriends,
  canMessage: p.canMessage,
});

const first = (v: string | string[] | undefined) => ((Array.isArray(v) ? v[0] : v) ?? "").slice(0, 200);

type Found = { people: FoundPerson[]; total: number; totalPages: number } | null;

/**
 * /friends/find (spec section 2): the search form, then either the results of the filters in the
 * address (or everyone, with ?all=1) or, with no filter, the recommendations ranked by mutual friends.
 * The first page is rendered here through the services; the pager moves through ?page=.
 */
async function FriendsFindPage({ searchParams }: Props) {
  const t = await getTranslations("friends");
  const current = await currentViewer();
  // A deleted viewer sees the deleted-account screen from the layout; this page renders nothing (its services refuse them).
  if (current?.viewer.isDeleted) return null;
  if (!current) {
    return (
      <Card>
        <CardHeader as="h1" title={t("findHeading")} />
        <SignInPrompt returnTo="FriendsFind" />
      </Card>
    );
  }
  const params = await searchParams;
  const values = Object.fromEntries(FRIEND_SEARCH_FIELDS.map((k) => [k, first(params[k])])) as FriendSearchForm;
  const page = Math.min(Math.max(Number.parseInt(first(params.page), 10) || 0, 0), 10_000);
  const all = first(params.all) === "1";
  const filtered = FRIEND_SEARCH_FIELDS.some((k) => values[k].trim() !== "");
  const searching = filtered || all;
  const ctx = { viewer: current.viewer, db: getDb(), requestId: "friends-find-page", locale: await requestLocale() };

  let found: Found = null;
  try {
    if (searching) {
      const valid = friendSearchForm.parse(values);
      const result = await searchAccounts({ ctx, input: { ...valid, page: String(page), size: String(SEARCH_PAGE_SIZE_DEFAULT) } });
      found = { people: result.content.map(toFound), total: result.totalElements, totalPages: result.totalPages };
    } else {
      const result = await listRecommendations({ ctx, input: { page, size: SEARCH_PAGE_SIZE_DEFAULT } });
      found = { people: result.content.map(toFound), total: result.totalElements, totalPages: result.totalPages };
    }
  } catch (err) {
    // Filters the schema refuses (typed into the address) or a viewer who may not search find nobody.
    if (!(err instanceof ZodError || err instanceof ServiceError)) throw err;
  }

  const query = new URLSearchParams();
  for (const k of FRIEND_SEARCH_FIELDS) if (values[k]) query.set(k, values[k]);
  if (all && !filtered) query.set("all", "1");
  const hrefOf: Record<number, string> = {};
  for (const p of [page - 1, page + 1]) {
    if (p < 0) continue;
    const q = new URLSearchParams(query);
    if (p > 0) q.set("page", String(p));
    hrefOf[p] = `/friends/find${q.size ? `?${q}` : ""}`;
  }

  const heading = searching ? t("search.results", { count: found?.total ?? 0 }) : t("search.recommendations");
  return (
    <>
      <Card>
        <CardHeader as="h1" title={t("findHeading")} />
        {/* Keyed by the query: a new search (or "all", or reset) starts the form from the address again. */}
        <FindForm key={`${query}-${all}`} initial={values} />
      </Card>
      <Card aria-labelledby="friends-find-results">
        <CardHeader title={<span id="friends-find-results">{heading}</span>} />
        {found && found.people.length > 0 ? (
          <FindResults
            key={`${query}-${page}`}
            people={found.people}
            page={page}
            totalPages={found.totalPages}
            hrefOf={hrefOf}
            label={heading}
          />
        ) : searching ? (
          <EmptyState icon={<SearchIcon size={28} />} title={t("search.noneTitle")} text={t("search.noneText")} />
        ) : (
          <EmptyState icon={<UsersIcon size={28} />} title={t("search.noRecommendationsTitle")} text={t("search.noRecommendationsText")} />
        )}
      </Card>
    </>
  );
}

export default withClientMessages("(main)/friends/find/page", FriendsFindPage);
