import "server-only";
import { ForbiddenError } from "@/lib/server/http/errors";
import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { pageOf, type Page } from "@/lib/server/http/response";
import {
  RECOMMENDATIONS_MAX,
  recommendationsQuery,
  type FriendRecommendation,
  type FriendStatus,
  type RecommendationsQuery,
} from "@/lib/validation/friends";
import { requireViewer, type ServiceCtx } from "../context";
import { findableBy, takesRequestsFromAnyone } from "../privacy/rules";
import { summaryColumns, toFriendSummary, type SummaryRow } from "./summary";

// Bounds of the friends-of-friends scan (docs/adr/0010-friend-recommendations.md). An account with
// 5,000 friends whose friends have a hundred or more each has a million friend-of-friend rows; we read
// at most FRIEND_SAMPLE × PER_FRIEND of them: the viewer's most recent friends, and each one's most
// recent friends, both straight from friendships_account_status_idx (index-only, in index order). Below
// those sizes the scan is complete; above them the shortlist favours recent ties. The mutual counts
// shown and used for the final order are always exact.
export const FRIEND_SAMPLE = 1000;
export const PER_FRIEND = 50;
export const SHORTLIST = 3 * RECOMMENDATIONS_MAX;

/**
 * Accounts the viewer may not be recommended: a friend, a pending request either way, a block either
 * way (both rows of a pair always exist together, so the viewer's own side says it all). A
 * subscription either way does not rule anyone out: following someone is a reason to befriend them.
 * Used as NOT IN so Postgres hashes this set once (at most the viewer's relations) and probes it per
 * candidate, instead of one index probe per candidate.
 */
const excludedBy = (me: number) => sql`(
  select r.friend_id from friendships r
  where r.account_id = ${me} and r.status_code in ('FRIEND', 'REQUEST_TO', 'REQUEST_FROM', 'BLOCKED', 'REJECTING'))`;

// Index order of friendships_account_status_idx (drizzle builds it DESC NULLS LAST).
const RECENT_FIRST = (t: string) => sql.raw(`${t}.updated_at desc nulls last, ${t}.friend_id desc nulls last`);

type CandidateRow = SummaryRow & { same_city: boolean };

/** The viewer's city: its GeoNames id, or (another client's) text. */
export type MyCity = { cityId: number | null; city: string | null };

/** Whether account `a` lives in the viewer's city: the same GeoNames id, else the same text. */
const sameCity = (mine: MyCity) =>
  mine.cityId !== null ? sql`coalesce(a.city_id = ${mine.cityId}, false)` : sql`coalesce(a.city = ${mine.city}, false)`;

/** Friends of my (sampled) friends, best SHORTLIST by how many sampled friends they share. */
export function friendsOfFriendsQuery(me: number, city: MyCity): SQL {
  return sql`
    with sample as (
      select f.friend_id from friendships f
      where f.account_id = ${me} and f.status_code = 'FRIEND'
      order by ${RECENT_FIRST("f")}
      limit ${FRIEND_SAMPLE}
    ), fof as (
      select c.friend_id as candidate, count(*) as hits
      from sample s
      cross join lateral (
        select g.friend_id from friendships g
        where g.account_id = s.friend_id and g.status_code = 'FRIEND'
        order by ${RECENT_FIRST("g")}
        limit ${PER_FRIEND}
      ) c
      where c.friend_id <> ${me}
      group by c.friend_id
    ), shortlist as (
      select fof.candidate, fof.hits from fof
      where fof.candidate not in ${excludedBy(me)}
      order by fof.hits desc, fof.candidate
      limit ${SHORTLIST}
    )
    select ${summaryColumns}, ${sameCity(city)} as same_city
    from shortlist s
    join accounts a on a.id = s.candidate
    where not a.is_deleted and not a.is_blocked and ${findableBy(me, sql`a.id`, sql`a.searchable`)}`;
}

/**
 * People with no friend in common (a new account, or a small network): same city first, then the
 * most recently active. One bounded top-N pass over accounts (see the ADR on indexing it).
 */
export function nearbyAndActiveQuery(me: number, city: MyCity, skip: number[], limit: number): SQL {
  const skipList = skip.length ? sql`and a.id not in (${sql.join(skip.map((id) => sql`${id}`), sql`, `)})` : sql``;
  // The top-N runs on bare columns; only the winners get their summary computed (age, ISO times).
  return sql`
    select ${summaryColumns}, t.same_city
    from (
      select a.id, ${sameCity(city)} as same_city, a.last_online_time
      from accounts a
      where a.id <> ${me} and not a.is_deleted and not a.is_blocked ${skipList}
        and a.id not in ${excludedBy(me)}
        and ${findableBy(me, sql`a.id`, sql`a.searchable`)} and ${takesRequestsFromAnyone("a")}
      order by same_city desc, a.last_online_time desc nulls last, a.id
      limit ${limit}
    ) t
    join accounts a on a.id = t.id`;
}

/** Exact number of friends each candidate shares with the viewer: the viewer's friends hashed once. */
export function mutualCountsQuery(me: number, ids: number[]): SQL {
  return sql`
    with mine as (select friend_id from friendships where account_id = ${me} and status_code = 'FRIEND')
    select x.account_id as id, count(*) as mutual
    from friendships x
    join mine m on m.friend_id = x.friend_id
    where x.account_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) and x.status_code = 'FRIEND'
    group by x.account_id`;
}

/** The viewer's side towards each shown account: only a subscription either way can remain (see excludedBy). */
async function viewerSides(db: DbOrTx, me: number, ids: number[]): Promise<Map<number, FriendStatus>> {
  if (ids.length === 0) return new Map();
  const rows = await db.execute<{ friend_id: string; status_code: FriendStatus }>(sql`
    select friend_id, status_code from friendships
    where account_id = ${me} and friend_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
  return new Map(rows.map((r) => [Number(r.friend_id), r.status_code]));
}

async function mutualCounts(db: DbOrTx, me: number, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.execute<{ id: string; mutual: string }>(mutualCountsQuery(me, ids));
  return new Map(rows.map((r) => [Number(r.id), Number(r.mutual)]));
}

/**
 * GET friends/recommendations — people the viewer may know, ranked by mutual friends, then same city,
 * then recent activity. Never the viewer, a deleted or banned account, a friend, anyone with a pending
 * request either way, anyone blocked either way, or anyone who chose not to be found (docs/adr/0125);
 * people with no friend in common only when they take requests from anyone. At most RECOMMENDATIONS_MAX, paged.
 */
export async function listRecommendations({ ctx, input }: { ctx: ServiceCtx; input: RecommendationsQuery }): Promise<Page<FriendRecommendation>> {
  const viewer = requireViewer(ctx);
  // A deleted account sees only its own page until it is restored.
  if (viewer.isDeleted) throw new ForbiddenError("accountErrors.accountDeleted");
  const q = recommendationsQuery.parse(input);
  const db = ctx.tx ?? ctx.db;
  const [me] = await db.execute<{ city_id: number | null; city: string | null }>(sql`select city_id, city from accounts where id = ${viewer.id}`);
  const city: MyCity = { cityId: me?.city_id ?? null, city: me?.city ?? null };

  // Up to SHORTLIST friends of friends, all ranked by their exact mutual count below.
  const candidates = [...(await db.execute<CandidateRow>(friendsOfFriendsQuery(viewer.id, city)))];
  if (candidates.length < RECOMMENDATIONS_MAX) {
    const seen = candidates.map((c) => Number(c.summary_id));
    candidates.push(...(await db.execute<CandidateRow>(nearbyAndActiveQuery(viewer.id, city, seen, RECOMMENDATIONS_MAX - candidates.length))));
  }
  const mutual = await mutualCounts(db, viewer.id, candidates.map((c) => Number(c.summary_id)));

  const now = new Date();
  const ranked = candidates
    .map((c) => ({ item: { ...toFriendSummary(c, now, ctx.locale), mutualFriends: mutual.get(Number(c.summary_id)) ?? 0 }, sameCity: c.same_city }))
    .sort(
      (x, y) =>
        y.item.mutualFriends - x.item.mutualFriends ||
        Number(y.sameCity) - Number(x.sameCity) ||
        (Date.parse(y.item.lastOnlineTime ?? "") || 0) - (Date.parse(x.item.lastOnlineTime ?? "") || 0) ||
        x.item.id - y.item.id,
    )
    .slice(0, RECOMMENDATIONS_MAX)
    .map((r) => r.item);
  const shown = ranked.slice(q.page * q.size, (q.page + 1) * q.size);
  // Only the page's rows: a subscription either way is shown so the card offers the action that fits.
  const sides = await viewerSides(db, viewer.id, shown.map((r) => r.id));
  const content: FriendRecommendation[] = shown.map((r) => ({ ...r, statusCode: sides.get(r.id) ?? null }));
  return pageOf(content, ranked.length, q.page, q.size);
}
