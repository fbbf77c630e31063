import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { statementsBy } from "@/db/statement";
import { pageOf, type Page } from "@/lib/server/http/response";
import { feedQuery, postListQuery, type FeedQueryValues, type PostDto } from "@/lib/validation/post";
import { requireViewer, type ServiceCtx } from "../context";
import { assertProfileOpen } from "../privacy/access";
import { profileOpenSql } from "../privacy/rules";
import { requestTimeline, timelinePlan, timelineSize, timelineState } from "./home-timeline";
import { communityColumns, toCommunityDto, visible as communityVisible, visibleCommunity, type CommunityRow } from "../communities/access";
import { NotFoundError } from "@/lib/server/http/errors";
import { ForbiddenError } from "@/lib/server/http/errors";
import { COMMUNITY_ERRORS } from "@/lib/validation/communities";
import { authorNotDeleted, bigintArray, dtosInOrder, notBlocked, notBlockedContent, parseInput, viewerIsStaff, postDtoColumns, postDtoJoins, readOriginals, readPostDtos, visibleInCommunities, visibleInFeed, type PostRowRaw } from "./shared";

// Lists of posts (docs/adr/0020-post-feeds.md). Every list is ordered newest first by publish time,
// (DESC NULLS LAST, exactly as drizzle builds the indexes: plain DESC means NULLS FIRST and would not match),
// id breaking ties, so pages never repeat or skip a post; with a search text the order is the rank
// first. Each page is one statement for the ids (an index scan that stops after offset + size), then
// one for the DTOs of those ids (docs/adr/0104); beside them the total, counted up to a cap (docs/adr/0094).

/** Wall totals are exact up to this many posts and reported as this many beyond (one author's index range). */
export const COUNT_CAP = 10_000;

/**
 * The reach of a news feed: the client scrolls at most 200 pages of 5. Feed totals are exact up to
 * this many posts and reported as this many beyond, so a count reads at most this many index entries
 * whatever the number of posts; a text search ranks the newest this many matches.
 */
export const FEED_WINDOW = 1_000;

/** Relations whose posts are in the viewer's feed: friends, accounts the viewer follows, and those the viewer asked (a request follows, ADR 0011). */
const FOLLOWING = sql`('FRIEND', 'SUBSCRIBED', 'REQUEST_TO')`;

/** The friends feed of an account following at least this many authors (and DENSE_SHARE of all accounts) scans posts_feed_idx. */
export const DENSE_AUTHORS_MIN = 1_000;
/** …and at least this share of all accounts: with posts spread evenly, that share of the posts is theirs. */
const DENSE_SHARE = 0.02;

type Filters = Pick<FeedQueryValues, "text" | "author" | "tags" | "dateFrom" | "dateTo">;

const tsQuery = (text: string) => sql`(websearch_to_tsquery('russian', ${text}) || websearch_to_tsquery('english', ${text}))`;

/** A tag's words, as tags_search_idx indexes them (the configurations of posts.search). */
const tagVector = sql`(to_tsvector('russian'::regconfig, t.name) || to_tsvector('english'::regconfig, t.name))`;

function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/\s+/g, " ").replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The search filters on `p`, combined with AND. */
function filterSql(f: Filters): SQL[] {
  const out: SQL[] = [];
  if (f.text) {
    // The words match the title, the text, or a tag (issue 40 item 17: «велосипед» finds a post tagged
    // #велосипед). The tagged posts come as one array (an InitPlan): with the GIN index on posts.search
    // a BitmapOr of two index scans; the newest FEED_WINDOW posts of the matching tags, as a text search
    // ranks only the newest FEED_WINDOW matches.
    const q = tsQuery(f.text);
    out.push(sql`(p.search @@ ${q} or p.id = any(array(
      select pt.post_id from post_tags pt where pt.tag_id in (select t.id from tags t where ${tagVector} @@ ${q})
      order by pt.post_id desc limit ${FEED_WINDOW})))`);
  }
  if (f.author) {
    // First name, last name or "First Last": a part of the full name, through the trigram index.
    out.push(sql`p.author_id in (select n.id from accounts n where lower(n.first_name || ' ' || n.last_name) like ${likePattern(f.author)})`);
  }
  for (const tag of f.tags ?? []) {
    out.push(sql`exists (select 1 from post_tags pt join tags t on t.id = pt.tag_id where pt.post_id = p.id and lower(t.name) = ${tag.toLowerCase()})`);
  }
  if (f.dateFrom) out.push(sql`p.publish_date >= ${f.dateFrom.toISOString()}::timestamptz`);
  if (f.dateTo) out.push(sql`p.publish_date <= ${f.dateTo.toISOString()}::timestamptz`);
  return out;
}

const and = (parts: SQL[]) => (parts.length ? sql.join(parts, sql` and `) : sql`true`);

const BY_TIME = sql`p.publish_date desc nulls last, p.id desc nulls last`;

export type Plan = { ids: SQL; count: SQL };

/**
 * The ids of one page and the total (exact up to `cap`). Without a text the order is the index order
 * (posts_feed_idx / posts_author_feed_idx). With a text, the newest FEED_WINDOW matches (the GIN
 * index for rare words, the time index for common ones — the planner's choice) are ranked, title words
 * above text words, newest first among equals: ranking every match of a common word in a million posts
 * would cost a sort of hundreds of thousands of rows per page.
 */
function plan(where: SQL, filters: Filters, page: number, size: number, cap: number): Plan {
  if (filters.text) {
    const q = tsQuery(filters.text);
    return {
      ids: sql`
        select s.id, s.publish_date, ts_rank(s.search, ${q}) as rank from (
          select p.id, p.publish_date, p.search from posts p where ${where}
          order by ${BY_TIME} limit ${FEED_WINDOW}
        ) s
        order by rank desc, s.publish_date desc nulls last, s.id desc nulls last
        limit ${size} offset ${page * size}`,
      count: sql`select count(*) as count from (select 1 from posts p where ${where} limit ${FEED_WINDOW}) c`,
    };
  }
  return {
    ids: sql`select p.id, p.publish_date from posts p where ${where} order by ${BY_TIME} limit ${size} offset ${page * size}`,
    count: sql`select count(*) as count from (select 1 from posts p where ${where} limit ${cap}) c`,
  };
}

/**
 * The friends feed: own posts, friends' and followed accounts' posts. Rather than sorting every
 * post of ~150 authors, each author's newest offset+size posts are read through
 * posts_author_feed_idx (LATERAL, each scan stops early) and only those few are merged. An account
 * following very many (at least DENSE_AUTHORS_MIN, and DENSE_SHARE of all accounts) reads instead
 * posts_feed_idx backwards with its authors as one hashed set: their posts are then dense enough that
 * the first offset+size come after a few index pages, where one descent per author would cost thousands
 * (docs/adr/0094). The total is always per author: it stops after FEED_WINDOW rows, a few authors in.
 */
function friendsPlan(viewerId: number, filters: Filters, page: number, size: number): Plan {
  const authors = sql`
    select ${viewerId}::bigint as id
    union all
    select f.friend_id from friendships f
    where f.account_id = ${viewerId} and f.status_code in ${FOLLOWING} and ${authorNotDeleted(sql`f.friend_id`)}
      and (f.status_code = 'FRIEND' or ${profileOpenSql(viewerId, sql`f.friend_id`)})`;
  const where = and([sql`not p.is_deleted`, sql`p.community_id is null`, sql`p.publish_date <= now()`, notBlockedContent(viewerId, "p"), ...filterSql(filters)]);
  const take = (page + 1) * size;
  // The posts of the viewer's communities (issue 42), read at request time: the newest offset+size of each
  // community whose posts the member keeps in their feed, through posts_community_idx, merged with the rest.
  const inCommunity = and([
    sql`not p.is_deleted`,
    sql`p.publish_date <= now()`,
    notBlockedContent(viewerId, "p"),
    authorNotDeleted(sql`p.author_id`),
    notBlocked(viewerId, sql`p.author_id`),
    ...filterSql(filters),
  ]);
  const mine = sql`community_members mc join communities cm on cm.id = mc.community_id
    where mc.account_id = ${viewerId} and mc.status = 'MEMBER' and not mc.feed_off and not cm.is_deleted and not cm.is_blocked`;
  // The total: per author and per community, each stopped at FEED_WINDOW, as a page can never reach further.
  // With a text, the communities' matches are one scan (the communities' own search index, ADR 0189): a
  // scan per community tested every post of each against the text, 20,000 for a member of 20 busy ones.
  const inMine = filters.text
    ? sql`select 1 from posts p where p.community_id in (select mc.community_id from ${mine}) and ${inCommunity} limit ${FEED_WINDOW}`
    : sql`select 1 from (select mc.community_id from ${mine}) mc
      cross join lateral (select 1 from posts p where p.community_id = mc.community_id and ${inCommunity} limit ${FEED_WINDOW}) l
      limit ${FEED_WINDOW}`;
  const count = sql`
    select least(${FEED_WINDOW}, (select count(*) from (
      select 1 from (${authors}) au
      cross join lateral (select 1 from posts p where p.author_id = au.id and ${where} limit ${FEED_WINDOW}) l
      limit ${FEED_WINDOW}) c) + (select count(*) from (${inMine}) k)) as count`;
  if (filters.text) {
    // A text search ranks the newest FEED_WINDOW matches of these authors and of the viewer's communities
    // (issue 42: a member finds a community's post in their feed's search as they read it there). Each source
    // is its own scan, stopped at FEED_WINDOW: `author_id in (…)` is a semi-join on posts_author_feed_idx (or
    // the GIN index for a rare word), `community_id in (…)` one on posts_community_idx. As one OR beneath the
    // shared conditions they were neither: Postgres filtered every post of a common word, 306 ms against 5.9
    // at a million posts (docs/adr/0183). The total is per author and per community, as the plain feed's.
    const q = tsQuery(filters.text);
    return {
      ids: sql`
        select s.id, s.publish_date, ts_rank(s.search, ${q}) as rank from (
          select x.id, x.publish_date, x.search from (
            (select p.id, p.publish_date, p.search from posts p
             where p.author_id in (${authors}) and ${where}
             order by ${BY_TIME} limit ${FEED_WINDOW})
            union all
            (select p.id, p.publish_date, p.search from posts p
             where p.community_id in (select mc.community_id from ${mine}) and ${inCommunity}
             order by ${BY_TIME} limit ${FEED_WINDOW})
          ) x
          order by x.publish_date desc nulls last, x.id desc nulls last limit ${FEED_WINDOW}
        ) s
        order by rank desc, s.publish_date desc nulls last, s.id desc nulls last
        limit ${size} offset ${page * size}`,
      count,
    };
  }
  // Exactly one branch runs (each is gated by a one-time filter on the number of authors).
  const dense = sql`((select count(*) from au) >= greatest(${sql.raw(String(DENSE_AUTHORS_MIN))},
    (select ${sql.raw(String(DENSE_SHARE))} * c.reltuples from pg_class c where c.oid = 'accounts'::regclass)))`;
  return {
    ids: sql`
      with au as materialized (${authors})
      select x.id, x.publish_date from (
        (select l.id, l.publish_date from au
         cross join lateral (
           select p.id, p.publish_date from posts p
           where p.author_id = au.id and ${where}
           order by ${BY_TIME}
           limit ${take}
         ) l
         where not ${dense})
        union all
        (select p.id, p.publish_date from posts p
         where coalesce(p.author_id in (select au.id from au), false) and ${where} and ${dense}
         order by ${BY_TIME}
         limit ${take})
        union all
        (select l.id, l.publish_date from (select mc.community_id from ${mine}) mc
         cross join lateral (
           select p.id, p.publish_date from posts p
           where p.community_id = mc.community_id and ${inCommunity}
           order by ${BY_TIME}
           limit ${take}
         ) l)
      ) x
      order by x.publish_date desc nulls last, x.id desc nulls last
      limit ${size} offset ${page * size}`,
    count,
  };
}

async function run(ctx: ServiceCtx, viewerId: number, p: Plan, page: number, size: number): Promise<Page<PostDto>> {
  const db = ctx.tx ?? ctx.db;
  const [content, [total]] = await Promise.all([
    readPostDtos(db, viewerId, p.ids),
    db.execute<{ count: string }>(p.count),
  ]);
  return pageOf(content, Number(total.count), page, size);
}

/** The statements of a feed page (GET post/newsPosts, GET post without accountIds); exported for the query-plan tests. */
export function feedPlan(viewerId: number, q: FeedQueryValues): Plan {
  if (q.withFriends) return friendsPlan(viewerId, q, q.page, q.size);
  const filters = filterSql(q);
  const where = and([visibleInFeed(viewerId), ...filters]);
  if (!filters.length) return plan(where, q, q.page, q.size, FEED_WINDOW);
  // A search of every post finds what communities' walls hold too (issue 42): the open communities' posts and
  // the viewer's own communities', a second branch on posts_community_time_idx merged with the people's.
  return unionPlan([where, and([visibleInCommunities(viewerId), ...filters])], q, q.page, q.size, FEED_WINDOW);
}

/**
 * `plan` over several disjoint sets of posts (each `where` read through its own index, newest first): each
 * branch stops where a single one would, the merge keeps the newest of them, and the total is capped as one.
 */
function unionPlan(wheres: SQL[], filters: Filters, page: number, size: number, cap: number): Plan {
  const take = filters.text ? FEED_WINDOW : (page + 1) * size;
  const branches = sql.join(
    wheres.map((w) => sql`(select p.id, p.publish_date, p.search from posts p where ${w} order by ${BY_TIME} limit ${take})`),
    sql` union all `,
  );
  const newest = sql`select u.id, u.publish_date, u.search from (${branches}) u order by u.publish_date desc nulls last, u.id desc nulls last`;
  const counted = sql.join(
    wheres.map((w) => sql`(select 1 from posts p where ${w} limit ${cap})`),
    sql` union all `,
  );
  const count = sql`select least(${cap}, count(*)) as count from (${counted}) c`;
  if (filters.text) {
    const q = tsQuery(filters.text);
    return {
      ids: sql`
        select s.id, s.publish_date, ts_rank(s.search, ${q}) as rank from (${newest} limit ${FEED_WINDOW}) s
        order by rank desc, s.publish_date desc nulls last, s.id desc nulls last
        limit ${size} offset ${page * size}`,
      count,
    };
  }
  return { ids: sql`select s.id, s.publish_date from (${newest} limit ${size} offset ${page * size}) s`, count };
}

/**
 * The statements of a wall page (GET post with accountIds/accountId). Whether the author is live and
 * unblocked is asked once per author (uncorrelated, a one-time filter), never per post, so the page is
 * one range of posts_author_feed_idx read in order.
 */
export function wallPlan(viewerId: number, q: Filters & { accountIds: number[]; page: number; size: number }): Plan {
  const readable = sql`select w.id from accounts w
    where w.id = any(${bigintArray(q.accountIds)}) and not w.is_deleted and not w.is_blocked and ${notBlocked(viewerId, sql`w.id`)}
      and ${profileOpenSql(viewerId, sql`w.id`)}`;
  const single = q.accountIds.length === 1 ? q.accountIds[0] : null;
  const where = and([
    single !== null ? sql`p.author_id = ${single} and exists (${readable})` : sql`p.author_id = any(array(${readable}))`,
    sql`not p.is_deleted`,
    // A person's wall is their own posts; those on communities' walls are the communities' (issue 42).
    sql`p.community_id is null`,
    notBlockedContent(viewerId, "p"),
    // The author sees their own scheduled posts on their wall (first: their publish time is ahead).
    single === viewerId ? sql`true` : single !== null ? sql`p.publish_date <= now()` : sql`(p.publish_date <= now() or p.author_id = ${viewerId})`,
    ...filterSql(q),
  ]);
  return plan(where, q, q.page, q.size, COUNT_CAP);
}

/**
 * The statements of a community's wall page (GET post?communityId=, issue 42): one range of
 * posts_community_idx read in order; each post's author is checked as on any list (live, no block with the
 * viewer), its author sees their own scheduled posts. Whether the viewer may read the wall is asked first.
 */
export function communityWallPlan(viewerId: number, q: Filters & { communityId: number; page: number; size: number }): Plan {
  const inWall = [sql`p.community_id = ${q.communityId}`, sql`not p.is_deleted`, notBlockedContent(viewerId, "p"), sql`(p.publish_date <= now() or p.author_id = ${viewerId})`, ...filterSql(q)];
  const page = plan(and([...inWall, authorNotDeleted(sql`p.author_id`), notBlocked(viewerId, sql`p.author_id`)]), q, q.page, q.size, COUNT_CAP);
  // The total from the index alone (posts_community_idx carries the author and the moderators' block): the
  // authors' checks are a probe per post, 5,000 of them for a big community's wall (5.9 ms of Postgres CPU
  // a page); a deleted, blocked or blocking author's posts still count in it, never show in the page.
  return { ids: page.ids, count: q.text ? page.count : sql`select count(*) as count from (select 1 from posts p where ${and(inWall)} limit ${FEED_WINDOW}) c` };
}

/** A row of a community wall's page statement: the community as the viewer sees it, the total, one post's DTO columns. */
type WallPageRow = PostRowRaw & { community_row: CommunityRow | null; total: string };

/**
 * Page `page` of `size` of a community's wall without search filters as ONE statement (as the timeline's
 * page, docs/adr/0153): the community's row with the viewer's membership, the total, and the page's DTOs.
 * The posts are read only when the viewer may read the wall (live; open, or theirs); whether it is a 404 or
 * a 403 is decided from the community's row. Four statements before, two of them planned on every call (their
 * LIMIT a parameter); here the limits are literals, one text per page and size (docs/adr/0171).
 */
const communityWallPage = statementsBy<string, WallPageRow, { viewerId: number; communityId: number }>((key) => {
  const [page, size] = key.split(":").map(Number);
  const viewer = sql.placeholder("viewerId");
  const community = sql.placeholder("communityId");
  const lit = (v: number) => sql.raw(String(Math.trunc(v)));
  const inWall = sql`exists (select 1 from ok) and p.community_id = ${community}::bigint and not p.is_deleted
    and ${notBlockedContent(viewer, "p")} and (p.publish_date <= now() or p.author_id = ${viewer})`;
  return sql`
    with cm as (
      select ${communityColumns}, c.posts_count from communities c
      left join community_members m on m.community_id = c.id and m.account_id = ${viewer}
      where c.id = ${community}::bigint),
    ok as (select 1 from cm where not cm.is_blocked and not cm.is_deleted and (cm.type = 'OPEN' or cm.my_status = 'MEMBER')),
    pg as (
      select p.id, p.publish_date from posts p
      where ${inWall} and ${authorNotDeleted(sql`p.author_id`)} and ${notBlocked(viewer, sql`p.author_id`)}
      order by ${BY_TIME} limit ${lit(size)} offset ${lit(page * size)}),
    -- The total from the community's own count (ADR 0187) less what this reader may not see: others' scheduled
    -- posts (posts_community_idx after now(): a few) and, to all but staff, others' moderated ones (their own
    -- index); exactly the count of the page's rule, as the filtered wall counts (capped as it is). Counting up
    -- to FEED_WINDOW rows of a big community's wall was two thirds of the page's Postgres CPU.
    cnt as (select coalesce((select least(greatest(cm.posts_count
        - (select count(*) from posts p where p.community_id = ${community}::bigint and not p.is_deleted
             and p.publish_date > now() and p.author_id <> ${viewer})
        - (select count(*) from posts p where p.community_id = ${community}::bigint and p.is_blocked and not p.is_deleted
             and p.publish_date <= now() and p.author_id <> ${viewer} and not ${viewerIsStaff(viewer)}), 0), ${lit(FEED_WINDOW)})
      from cm where exists (select 1 from ok)), 0) as total)
    select (select row_to_json(cm) from cm) as community_row, cnt.total, d.*
    from cnt left join (
      select ${postDtoColumns(sql`true`)}, pg.publish_date as page_at
      from pg join posts p on p.id = pg.id
      ${postDtoJoins(viewer)}
      where not p.is_deleted
    ) d on true
    order by d.page_at desc, d.id desc`;
}, 512);

/** A community's wall page without filters: one statement (communityWallPage); 404 or 403 as visibleCommunity and canRead decide. */
async function communityWall(ctx: ServiceCtx, viewerId: number, q: { communityId: number; page: number; size: number }): Promise<Page<PostDto>> {
  const db = ctx.tx ?? ctx.db;
  const rows = await communityWallPage(`${q.page}:${q.size}`).run(db, { viewerId, communityId: q.communityId });
  const row = rows[0]?.community_row ?? null;
  if (!row || !communityVisible(row, viewerId)) throw new NotFoundError(COMMUNITY_ERRORS.notFound);
  if (!toCommunityDto(row).canRead) throw new ForbiddenError(COMMUNITY_ERRORS.notAllowed);
  const posts = rows[0].id === null ? [] : rows;
  return pageOf(dtosInOrder(posts, await readOriginals(db, viewerId, posts)), Number(rows[0].total), q.page, q.size);
}

/** A row of the timeline's page statement: the timeline's state, and one post's DTO columns (all null on an empty page). */
type TimelinePageRow = PostRowRaw & { usable: boolean; complete: boolean; rows: string | null; pending: string; community_rows: string };

/**
 * Page `page` of `size` of the friends feed from the timeline as ONE statement, its text built once per
 * page, size and timeline size (db/statement.ts): the state row joined with the page's DTO rows, in the
 * page's order. It was three statements (the ids and the state side by side, then the DTOs), each built
 * by drizzle on every call; one statement is one round trip, one snapshot, and no per-request SQL
 * building (docs/adr/0153). The text's limits stay literals: Postgres keeps one generic plan per connection.
 */
const timelinePage = statementsBy<string, TimelinePageRow, { viewerId: number }>((key) => {
  const [page, size] = key.split(":").map(Number);
  const viewer = sql.placeholder("viewerId");
  const plan = timelinePlan(viewer, page, size, FEED_WINDOW);
  return sql`
    with st as (${plan.state}), pg as (${plan.ids})
    select st.usable, st.complete, st.rows, st.pending, st.community_rows, d.*
    from st left join (
      select ${postDtoColumns(sql`true`)}, pg.publish_date as page_at
      from pg join posts p on p.id = pg.id
      ${postDtoJoins(viewer)}
      where not p.is_deleted
    ) d on true
    order by d.page_at desc, d.id desc`;
}, 512);

/**
 * The friends feed without filters from the viewer's home timeline (docs/adr/0137), or null when the
 * timeline cannot answer this page: none built yet (the visit asks for one), a staff viewer, a page
 * beyond the timeline's size or its horizon. Its total is exact while the timeline holds the whole
 * feed (capped at FEED_WINDOW, as today's); once the timeline has been cut, FEED_WINDOW, an estimate.
 */
async function timelineFeed(ctx: ServiceCtx, viewer: { id: number; role: string }, q: FeedQueryValues): Promise<Page<PostDto> | null> {
  const size = timelineSize();
  if ((q.page + 1) * q.size > size) return null;
  const db = ctx.tx ?? ctx.db;
  const rows = await timelinePage(`${q.page}:${q.size}:${size}`).run(db, { viewerId: viewer.id });
  // No row: the viewer has no timeline (the state's row is missing).
  const state = await timelineState(db, viewer.id, rows[0]);
  if (!state.usable) {
    if (viewer.role === "USER") await requestTimeline(db, viewer.id);
    return null;
  }
  const posts = rows[0].id === null ? [] : rows;
  const content = dtosInOrder(posts, await readOriginals(db, viewer.id, posts));
  // A short page of a cut timeline may end at its horizon, not at the feed's end: today's query answers it.
  if (content.length < q.size && !state.complete) return null;
  return pageOf(content, state.complete ? Math.min(state.count, FEED_WINDOW) : FEED_WINDOW, q.page, q.size);
}

/** The friends feed without search filters: what the home timeline can serve. */
const plainFriendsFeed = (q: FeedQueryValues) => q.withFriends && !q.text && !q.author && !q.tags?.length && !q.dateFrom && !q.dateTo;

async function feed(ctx: ServiceCtx, viewer: { id: number; role: string }, q: FeedQueryValues) {
  if (plainFriendsFeed(q)) {
    const page = await timelineFeed(ctx, viewer, q);
    if (page) return page;
  }
  return run(ctx, viewer.id, feedPlan(viewer.id, q), q.page, q.size);
}

/** The friends feed as today's query reads it, never from the timeline (the property test's reference). */
export async function listNewsPostsByQuery(ctx: ServiceCtx, viewerId: number, input: unknown): Promise<Page<PostDto>> {
  const q = parseInput(feedQuery, input);
  return run(ctx, viewerId, feedPlan(viewerId, q), q.page, q.size);
}

/**
 * GET post/newsPosts — `withFriends=true`: the viewer's own posts and those of friends and followed
 * accounts; otherwise every visible post. Filters: text, author, tags, dateFrom/dateTo.
 */
export async function listNewsPosts({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<Page<PostDto>> {
  const viewer = requireViewer(ctx);
  const q = parseInput(feedQuery, input);
  return feed(ctx, viewer, q);
}

/**
 * GET post — with accountIds/accountId the wall of those accounts (their author sees their own
 * scheduled posts there, first, as QUEUED); without them the same as listNewsPosts. A deleted
 * account's wall is empty; a blocked one's too; one closed to the viewer is refused (403).
 */
export async function listPosts({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<Page<PostDto>> {
  const viewer = requireViewer(ctx);
  const q = parseInput(postListQuery, input);
  if (q.kind === "feed") return feed(ctx, viewer, q);
  if (q.kind === "community") {
    if (!q.text && !q.author && !q.tags?.length && !q.dateFrom && !q.dateTo) return communityWall(ctx, viewer.id, q);
    // Absent or private to the viewer: 404; a closed one's wall to a non-member: 403, as a closed page's.
    const community = toCommunityDto(await visibleCommunity(ctx.tx ?? ctx.db, viewer.id, q.communityId));
    if (!community.canRead) throw new ForbiddenError(COMMUNITY_ERRORS.notAllowed);
    return run(ctx, viewer.id, communityWallPlan(viewer.id, q), q.page, q.size);
  }
  // One closed wall asked for by itself is a 403 (docs/adr/0125); among several, a closed one adds nothing.
  if (q.accountIds.length === 1) await assertProfileOpen(ctx.tx ?? ctx.db, viewer.id, q.accountIds[0]);
  return run(ctx, viewer.id, wallPlan(viewer.id, q), q.page, q.size);
}
