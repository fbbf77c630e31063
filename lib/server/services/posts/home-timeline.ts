import "server-only";
import { sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "@/db/client";
import { getBoss, inTransaction, QUEUES } from "@/lib/server/jobs/boss";
import { log } from "@/lib/server/log";

// The home timeline: the friends feed by fan-out on write (issue 28 section 2, docs/adr/0137).
//
// home_timeline holds, per reader who has one (home_timeline_state), the posts of their friends feed
// newer than the reader's horizon — a superset of it at any moment, exactly it once the sync job has run.
// A page reads one backwards range of the reader's rows and checks each row it returns against the
// current rules (primary-key probes of posts, friendships and accounts: a post deleted, moderated or
// rescheduled, a relation ended, an author deleted, blocked or closed never shows, whatever the job has
// done yet), adds the posts still waiting for their fan-out (home_timeline_pending: a few rows, so a post
// is in every feed the moment it commits; beyond PENDING_MAX today's query answers, docs/adr/0159), and
// stops after the page. Pages the timeline cannot answer
// (beyond its horizon, a reader without a built timeline, staff, a search) are today's query.
//
// Who writes what:
//  - a post's change (new, deleted, recovered, moderated, rescheduled) — a trigger on posts puts it into
//    home_timeline_pending in the same transaction; the job (queue home-timeline, sent by the writer in
//    that transaction) fans it out to the followers with a timeline and removes it from pending;
//  - a relation's change — syncPair, in the friend action's transaction (at most HOME_TIMELINE_N rows);
//  - an account deleted, restored, blocked, unblocked, its page opened or closed — a trigger on accounts
//    notes it (home_timeline_authors); the job re-syncs that author in each follower's timeline;
//  - a reader without a timeline — the visit notes it (home_timeline_state, built = false) and today's
//    query serves them; the job builds it. Timelines of readers away 30 days are dropped (hourly).

/** A positive integer setting `name` (tests override it), else `fallback`: read at the first call and kept. */
function keptSetting(name: string, fallback: number): () => number {
  let kept: number | undefined;
  return () => {
    if (kept === undefined) {
      const n = Number(process.env[name]);
      kept = Number.isInteger(n) && n > 0 ? n : fallback;
    }
    return kept;
  };
}

/**
 * Rows a timeline keeps (pages beyond them are today's query). HOME_TIMELINE_N overrides it (tests); it is
 * read at the first call and kept (every feed page asks, and an environment read is not free).
 */
export const timelineSize = keptSetting("HOME_TIMELINE_N", 800);

/**
 * A timeline is cut back to timelineSize() rows once it has grown a quarter past it: cutting at every
 * post would trim every follower of an author on each of their posts (one row each, thousands of
 * transactions for the hub's).
 */
const trimAbove = () => timelineSize() + Math.ceil(timelineSize() / 4);

/**
 * A community with at most this many members is fanned out into its members' timelines as people's posts
 * are; past it, once, its posts are read at request time for good (communities.read_at_request, ADR 0188).
 * COMMUNITY_FANOUT_MAX overrides it (tests).
 */
export const communityFanoutMax = keptSetting("COMMUNITY_FANOUT_MAX", 10_000);

/** Community `c`'s posts are in its members' timelines: live, and not read at request time. */
const fanned = (c: string) => sql.raw(`(not ${c}.is_deleted and not ${c}.is_blocked and not ${c}.read_at_request)`);

/** The timeline's advisory lock of a community is this plus its id: a post's fan-out takes it exclusively, a member's sync shared. */
const COMMUNITY_LOCK_BASE = 7138 * 2 ** 40;

/** The timeline's advisory lock of an author is this plus the author's id: the fan-out takes it exclusively, a pair sync shared. */
const LOCK_BASE = 7137 * 2 ** 40;

/** The reader's side of relations whose author is in the feed (ADR 0011: a pending request follows). */
const FOLLOWING = sql`('FRIEND', 'SUBSCRIBED', 'REQUEST_TO')`;
/** The same relations from the author's side: who follows the author. */
const FOLLOWERS = sql`('FRIEND', 'WATCHING', 'REQUEST_FROM')`;

/**
 * Whether timeline row `r` (post_id, publish_date, author_id) is in the viewer's friends feed now: the
 * rules of today's query (list-posts.ts friendsPlan) for a non-staff viewer, asked of one row by primary
 * keys. The publish time must be the post's current one: a rescheduled post's old row never shows.
 */
function rowVisible(viewerId: number | Placeholder, r: string): SQL {
  const a = sql.raw(r);
  // Scalar subqueries with LIMIT 1, not EXISTS: the planner may turn an EXISTS into one hashed set of all
  // the viewer's relations (for the hub, a hash join over every account: 19 ms a page), where a page
  // needs a primary-key probe for each of its few rows.
  // A person's post (posts_feed_idx holds only those), else a post of a community the viewer reads in the
  // feed, fanned out (ADR 0188), by the rules of communityPosts below; OR stops at the first true.
  return sql`((coalesce((select true from posts p where p.id = ${a}.post_id and not p.is_deleted and p.community_id is null and p.publish_date = ${a}.publish_date
        and (not p.is_blocked or p.author_id = ${viewerId}) limit 1), false)
    and (${a}.author_id = ${viewerId} or coalesce((
      select true from friendships f join accounts w on w.id = f.friend_id
      where f.account_id = ${viewerId} and f.friend_id = ${a}.author_id and f.status_code in ${FOLLOWING}
        and not w.is_deleted and not w.is_blocked and (f.status_code = 'FRIEND' or w.profile_visibility = 'ALL') limit 1), false)))
    or coalesce((
      select true from posts p
      where p.id = ${a}.post_id and not p.is_deleted and p.community_id is not null and p.publish_date = ${a}.publish_date
        and (not p.is_blocked or p.author_id = ${viewerId})
        and coalesce((select true from community_members m
                      where m.community_id = p.community_id and m.account_id = ${viewerId} and m.status = 'MEMBER' and not m.feed_off), false)
        and coalesce((select ${fanned("c")} from communities c where c.id = p.community_id), false)
        and coalesce((select not w.is_deleted and not w.is_blocked from accounts w where w.id = p.author_id), false)
        and p.author_id not in (
          select b.friend_id from friendships b where b.account_id = ${viewerId} and b.status_code in ('BLOCKED', 'REJECTING'))
      limit 1), false))`;
}

/**
 * The communities whose posts the viewer reads in the feed at request time (issue 42, docs/adr/0171): a
 * member's, live, not switched out, and too big to be fanned out (ADR 0188: the others' posts are rows of
 * the timeline).
 */
// The community's row probed for each of the viewer's (a join let the planner walk communities_pkey in
// order past every community to find the few read at request time: 12 ms).
const memberOf = (viewerId: number | Placeholder) => sql`
  select mc.community_id from community_members mc
  where mc.account_id = ${viewerId} and mc.status = 'MEMBER' and not mc.feed_off
    and coalesce((select not cm.is_deleted and not cm.is_blocked and cm.read_at_request from communities cm where cm.id = mc.community_id), false)`;

/**
 * The newest `limit` posts of community `mc.community_id` in the viewer's feed, above the timeline's horizon
 * `hz` (below it today's query serves the page, as for the people's posts) and not older than `tb.bd` (when
 * set): one range of posts_community_idx;
 * the authors tested against the viewer's blocks (read once per statement and hashed) and the hidden
 * accounts: for the first pages (up to PROBE_HIDDEN_UP_TO posts a community) each author is probed, deeper
 * ones hash the hidden accounts once (with the small communities fanned out a first page reads a few posts
 * of a big one, and hashing a thousand hidden accounts cost more than their probes; ADR 0188). The rules of
 * today's query (list-posts.ts friendsPlan) for a non-staff viewer.
 */
const communityPosts = (viewerId: number | Placeholder, limit: number) => sql`
  select p.id, p.publish_date from posts p
  where p.community_id = mc.community_id and not p.is_deleted and p.publish_date <= now()
    and (not p.is_blocked or p.author_id = ${viewerId})
    and (hz.hd is null or (p.publish_date, p.id) > (hz.hd, hz.hi))
    and (tb.bd is null or p.publish_date >= tb.bd)
    and ${limit <= PROBE_HIDDEN_UP_TO
      ? sql`coalesce((select not h.is_deleted and not h.is_blocked from accounts h where h.id = p.author_id), false)`
      : sql`p.author_id not in (select h.id from accounts h where h.is_deleted or h.is_blocked)`}
    and p.author_id not in (
      select b.friend_id from friendships b where b.account_id = ${viewerId} and b.status_code in ('BLOCKED', 'REJECTING'))
  order by p.publish_date desc nulls last, p.id desc nulls last
  limit ${sql.raw(String(Math.trunc(limit)))}`;

/** See communityPosts. */
const PROBE_HIDDEN_UP_TO = 20;

/** Row `r` is newer than the horizon `h` (hd, hi) of its reader. */
const aboveHorizon = (r: string, h: string) =>
  sql.raw(`(${h}.hd is null or (${r}.publish_date, ${r}.post_id) > (${h}.hd, ${h}.hi))`);

/** `rows`: the timeline's rows up to its window, counted only while it holds the whole feed (else null). */
export type TimelineState = { usable: boolean; complete: boolean; count: number; rows: number | null };

/**
 * A page checks every post waiting for its fan-out (5–8 µs of Postgres CPU each): a few normally, but
 * thousands when the job is behind (the worker restarting, a burst), which would cost every reader's page
 * more than today's query (2–5 ms). Beyond this many the timelines answer nothing and today's query serves
 * every page until the job has caught up (docs/adr/0159).
 */
export const PENDING_MAX = 400;

/**
 * The pending set is short enough for a page to check, as Postgres's own statistics count its live rows
 * (a shared-memory read, up to a second behind; counting the rows instead cost a page 0.2 ms, more while
 * a drained burst's dead rows wait for autovacuum). Once per statement (an InitPlan). Either answer is
 * right: the timeline's page checks every pending post, today's query reads the posts themselves.
 */
const pendingShort = sql.raw(`(select pg_stat_get_live_tuples('home_timeline_pending'::regclass) <= ${PENDING_MAX})`);

/**
 * The parts of page `page` of `size` of the viewer's friends feed from their timeline: `ids` (the page's
 * post ids and publish times, in order; nothing without a timeline) and `state` (whether the timeline can
 * answer — built, the viewer not staff —, whether it holds the whole feed, and, only then, its count up to
 * `window`: a cut timeline's page reports the window as its total, and counting its ~N rows was a third
 * of the page's Postgres CPU (docs/adr/0157); whether it has grown past its trim is asked now and then
 * instead (timelineState).
 * The feed runs them as one statement with the page's DTOs (list-posts.ts, docs/adr/0153); the viewer is
 * a value or the placeholder of that statement.
 */
export function timelinePlan(viewerId: number | Placeholder, page: number, size: number, window: number): { ids: SQL; state: SQL } {
  // Limits as literals: with them as parameters Postgres planned the statement again on every call (its
  // generic plan's LIMIT estimate never beat the custom plans), 0.4 ms of the page's Postgres CPU. They are
  // validated integers; a text per page and size, each on one generic plan per connection.
  const int = (v: number) => sql.raw(String(Math.trunc(v)));
  const take = int((page + 1) * size);
  // Only a built timeline has a horizon row: one asked for but not built yet answers nothing (the feed's
  // query does), so its page neither reads its rows nor checks every pending post.
  const hz = sql`hz as (select s.horizon_date as hd, s.horizon_id as hi from home_timeline_state s where s.account_id = ${viewerId} and s.built)`;
  return {
    ids: sql`
      with ${hz},
      tl as materialized (
        select t.post_id as id, t.publish_date from home_timeline t cross join hz
        where t.account_id = ${viewerId} and t.publish_date <= now() and ${aboveHorizon("t", "hz")} and ${rowVisible(viewerId, "t")}
        order by t.publish_date desc, t.post_id desc
        limit ${take}),
      -- With a full set of the timeline's rows in hand, no community post older than the last of them can be in
      -- the page: each community's scan starts at the newest and stops there (ties included), usually at once.
      tb as (select case when count(*) = ${take} then min(tl.publish_date) end as bd from tl)
      select x.id, x.publish_date from (
        (select tl.id, tl.publish_date from tl)
        union
        (select q.post_id, q.publish_date from home_timeline_pending q cross join hz
         where ${pendingShort} and q.publish_date <= now() and ${aboveHorizon("q", "hz")} and ${rowVisible(viewerId, "q")})
        union all
        (select l.id, l.publish_date from (${memberOf(viewerId)}) mc cross join hz cross join tb
         cross join lateral (${communityPosts(viewerId, (page + 1) * size)}) l)
      ) x
      order by x.publish_date desc, x.id desc
      limit ${int(size)} offset ${int(page * size)}`,
    state: sql`
      with ${hz}
      select s.built and me.role = 'USER' and ${pendingShort} as usable, s.horizon_date is null as complete,
        -- A whole timeline's total counts its communities' posts too (up to the window, as today's query).
        case when s.horizon_date is null then (select count(*) from (
           select 1 from (${memberOf(viewerId)}) mc cross join hz cross join (select null::timestamptz as bd) tb
           cross join lateral (${communityPosts(viewerId, window + 1)}) l limit ${int(window + 1)}) c) else 0 end as community_rows,
        case when s.horizon_date is null then (select count(*) from (
           select 1 from home_timeline t
           where t.account_id = ${viewerId} and t.publish_date <= now() limit ${int(Math.max(window, trimAbove()) + 1)}) c) end as rows,
        -- The posts waiting for their sync: each counts as it is now, less the rows it still has.
        (select coalesce(sum((q.publish_date <= now() and ${aboveHorizon("q", "hz")} and ${rowVisible(viewerId, "q")})::int
           - (select count(*) from home_timeline t cross join hz
              where t.post_id = q.post_id and t.account_id = ${viewerId} and t.publish_date <= now() and ${aboveHorizon("t", "hz")})), 0)
         from home_timeline_pending q cross join hz where ${pendingShort}) as pending
      from home_timeline_state s join accounts me on me.id = s.account_id
      where s.account_id = ${viewerId}`,
  };
}

/** When this process last asked whether a cut timeline has grown past its trim, by reader (bounded). */
const trimAsked = new Map<number, number>();
const TRIM_ASK_MS = 60_000;

/**
 * Reads the `state` statement's row (none: the viewer has no timeline), and asks for a trim when it has
 * grown past its size and the slack (the next sync cuts it back: one write per ~N/4 new posts). A whole
 * timeline's rows come counted with the page; a cut one's are counted here at most once a minute per
 * reader and process: it grows by the posts of the people the reader follows, so a minute's delay of
 * its trim keeps a few rows more for a minute, and its pages stay right either way.
 */
export async function timelineState(
  db: DbOrTx,
  viewerId: number,
  row: { usable: boolean; complete: boolean; rows: string | null; pending: string; community_rows: string } | undefined,
): Promise<TimelineState> {
  if (!row) return { usable: false, complete: false, count: 0, rows: 0 };
  const rows = row.rows === null ? null : Number(row.rows);
  if (row.usable && rows !== null && rows > trimAbove()) {
    await db.execute(sql`update home_timeline_state set needs_trim = true where account_id = ${viewerId} and not needs_trim`);
  } else if (row.usable && rows === null && trimDue(viewerId)) {
    await db.execute(sql`
      update home_timeline_state s set needs_trim = true
      where s.account_id = ${viewerId} and not s.needs_trim and (select count(*) from (
        select 1 from home_timeline t where t.account_id = ${viewerId} and t.publish_date <= now()
          and (t.publish_date, t.post_id) > (s.horizon_date, s.horizon_id) limit ${trimAbove() + 1}) c) > ${trimAbove()}`);
  }
  return { usable: row.usable, complete: row.complete, count: Math.max(0, (rows ?? 0) + Number(row.pending)) + Number(row.community_rows), rows };
}

/** As if a minute had passed for every reader (tests). */
export function forgetTrimAsks(): void {
  trimAsked.clear();
}

function trimDue(viewerId: number): boolean {
  const now = performance.now();
  const last = trimAsked.get(viewerId);
  if (last !== undefined && now - last < TRIM_ASK_MS) return false;
  if (trimAsked.size >= 20_000) trimAsked.clear();
  trimAsked.set(viewerId, now);
  return true;
}

/** A visit that found no built timeline: ask for one (the job builds it), or note the visit of one asked for earlier. */
export async function requestTimeline(db: DbOrTx, viewerId: number): Promise<void> {
  await db.execute(sql`
    insert into home_timeline_state (account_id) values (${viewerId})
    on conflict (account_id) do update set visited_at = now() where home_timeline_state.visited_at < now() - interval '1 day'`);
}

/**
 * After a change to post `postId` in `tx` (the trigger has put it into home_timeline_pending when any
 * timeline exists), queues the sync job in the same transaction: it commits exactly with the change.
 */
export async function queueTimelineSync(tx: Tx, postId: number): Promise<void> {
  const [row] = await tx.execute<{ pending: boolean }>(sql`select exists (select 1 from home_timeline_pending where post_id = ${postId}) as pending`);
  if (row?.pending) await (await getBoss()).send(QUEUES.timeline, {}, { db: inTransaction(tx) });
}

// ---- Maintenance --------------------------------------------------------------------------------

/**
 * The newest `n` posts (any publish time: scheduled ones wait in the timeline for their time) of the
 * authors of `readerId`'s friends feed, from `authors` (a statement yielding their ids) — per author
 * through posts_author_feed_idx, or for a reader following very many one scan of posts_feed_idx (as
 * today's query chooses, docs/adr/0094).
 */
function newestOf(readerId: number, authors: SQL, n: number, after: SQL = sql`true`): SQL {
  const cond = sql`not p.is_deleted and p.community_id is null and (not p.is_blocked or p.author_id = ${readerId}) and ${after}`;
  const dense = sql`((select count(*) from au) >= 1000)`;
  return sql`
    with au as materialized (${authors})
    select x.id, x.publish_date, x.author_id from (
      (select l.id, l.publish_date, l.author_id from au cross join lateral (
         select p.id, p.publish_date, p.author_id from posts p where p.author_id = au.id and ${cond}
         order by p.publish_date desc nulls last, p.id desc nulls last limit ${n}) l
       where not ${dense})
      union all
      (select p.id, p.publish_date, p.author_id from posts p
       where coalesce(p.author_id in (select au.id from au), false) and ${cond} and ${dense}
       order by p.publish_date desc nulls last, p.id desc nulls last limit ${n})
    ) x order by x.publish_date desc nulls last, x.id desc nulls last limit ${n}`;
}

/** The authors of a reader's friends feed (today's query's, list-posts.ts). */
const authorsOf = (readerId: number) => sql`
  select ${readerId}::bigint as id
  union all
  select f.friend_id from friendships f join accounts w on w.id = f.friend_id
  where f.account_id = ${readerId} and f.status_code in ${FOLLOWING} and not w.is_deleted and not w.is_blocked
    and (f.status_code = 'FRIEND' or w.profile_visibility = 'ALL')`;

/**
 * Up to `n` of the newest posts (any publish time, as newestOf) of the fanned-out communities `readerId`
 * reads in the feed that `where` keeps (one community, one author, after the horizon; alias p), by the rules
 * of the feed for a community's post (rowVisible): theirs to read, its author live, no block from the reader.
 */
function communityCandidates(readerId: number, where: SQL, n: number): SQL {
  return sql`
    select p.id, p.publish_date, p.author_id from posts p
    join community_members m on m.community_id = p.community_id and m.account_id = ${readerId} and m.status = 'MEMBER' and not m.feed_off
    join communities c on c.id = p.community_id
    where p.community_id is not null and not p.is_deleted and (not p.is_blocked or p.author_id = ${readerId}) and ${fanned("c")} and ${where}
      and exists (select 1 from accounts w where w.id = p.author_id and not w.is_deleted and not w.is_blocked)
      and not exists (select 1 from friendships b where b.account_id = ${readerId} and b.friend_id = p.author_id and b.status_code in ('BLOCKED', 'REJECTING'))
    order by p.publish_date desc nulls last, p.id desc nulls last limit ${n}`;
}

/** The newest `n` of two candidate statements (each yields id, publish_date, author_id). */
const newestOfBoth = (a: SQL, b: SQL, n: number) => sql`
  select x.id, x.publish_date, x.author_id from ((${a}) union all (${b})) x
  order by x.publish_date desc nulls last, x.id desc nulls last limit ${n}`;

/**
 * Inserts the first `n` of `candidates` (up to n + 1 posts, newest first) into the reader's timeline.
 * When there were more than `n`, returns the first one left out: the horizon, since everything newer is in.
 */
async function fill(tx: Tx, readerId: number, candidates: SQL, n: number): Promise<{ hd: string; hi: string } | null> {
  const [r] = await tx.execute<{ hd: string | null; hi: string | null }>(sql`
    with c as materialized (${candidates}),
    ins as (
      insert into home_timeline (account_id, publish_date, post_id, author_id)
      select ${readerId}, c.publish_date, c.id, c.author_id from (select * from c order by publish_date desc nulls last, id desc nulls last limit ${n}) c
      on conflict do nothing)
    select to_json(x.publish_date) #>> '{}' as hd, x.id as hi
    from (select * from c order by publish_date desc nulls last, id desc nulls last offset ${n} limit 1) x`);
  return r?.hd && r.hi ? { hd: r.hd, hi: r.hi } : null;
}

/** Fills a reader's timeline from scratch (a visit asked for it, or a staff account's is dropped). */
export async function rebuildTimeline(db: Db, readerId: number): Promise<boolean> {
  const n = timelineSize();
  return db.transaction(async (tx) => {
    // Another drain building it holds the row: leave it to that one.
    const [state] = await tx.execute<{ role: string | null }>(sql`
      select (select a.role from accounts a where a.id = s.account_id) as role
      from home_timeline_state s where s.account_id = ${readerId} and not s.built for update skip locked`);
    if (!state) return false;
    if (state.role !== "USER") {
      // Staff read today's query (they see moderated posts); an account gone has no feed to keep.
      await tx.execute(sql`delete from home_timeline_state where account_id = ${readerId}`);
      await tx.execute(sql`delete from home_timeline where account_id = ${readerId}`);
      return true;
    }
    await tx.execute(sql`delete from home_timeline where account_id = ${readerId}`);
    // The people's newest and each fanned-out community's newest (ADR 0188), the newest n + 1 of them.
    const communities = sql`
      select l.id, l.publish_date, l.author_id from community_members mc
      cross join lateral (${communityCandidates(readerId, sql`p.community_id = mc.community_id`, n + 1)}) l
      where mc.account_id = ${readerId} and mc.status = 'MEMBER' and not mc.feed_off`;
    const cut = await fill(tx, readerId, newestOfBoth(newestOf(readerId, authorsOf(readerId), n + 1), communities, n + 1), n);
    await tx.execute(sql`
      update home_timeline_state set built = true, needs_trim = false, visited_at = now(),
        horizon_date = ${cut?.hd ?? null}::timestamptz, horizon_id = ${cut?.hi ?? null}::bigint
      where account_id = ${readerId}`);
    return true;
  });
}

/**
 * Makes reader `readerId`'s rows of author `authorId` right, in the caller's transaction: removes them,
 * and when the author is in the reader's feed puts back the author's newest posts above the horizon (at
 * most HOME_TIMELINE_N; when that cuts the author's posts, the horizon moves up to the cut). Nothing for
 * a reader without a timeline. The shared lock on the author orders it with that author's fan-outs: a
 * post committed just before is read here, one committed after is fanned out to this relation.
 */
export async function syncPair(tx: Tx, readerId: number, authorId: number): Promise<void> {
  if (readerId === authorId) return;
  const [state] = await tx.execute<{ hd: string | null; hi: string | null }>(sql`
    select pg_advisory_xact_lock_shared(${LOCK_BASE + authorId}::bigint), to_json(horizon_date) #>> '{}' as hd, horizon_id as hi
    from home_timeline_state where account_id = ${readerId} for update`);
  if (!state) return;
  const n = timelineSize();
  await tx.execute(sql`delete from home_timeline where account_id = ${readerId} and author_id = ${authorId}`);
  const after = state.hd === null ? sql`true` : sql`(p.publish_date, p.id) > (${state.hd}::timestamptz, ${state.hi}::bigint)`;
  const follows = sql`select f.friend_id as id from friendships f join accounts w on w.id = f.friend_id
    where f.account_id = ${readerId} and f.friend_id = ${authorId} and f.status_code in ${FOLLOWING}
      and not w.is_deleted and not w.is_blocked and (f.status_code = 'FRIEND' or w.profile_visibility = 'ALL')`;
  // The author's posts in the reader's fanned-out communities too (ADR 0188): a block between them, the
  // author hidden or back, changes those as well.
  const inCommunities = communityCandidates(readerId, sql`p.author_id = ${authorId} and ${after}`, n + 1);
  const cut = await fill(tx, readerId, newestOfBoth(newestOf(readerId, follows, n + 1, after), inCommunities, n + 1), n);
  if (cut) await tx.execute(sql`update home_timeline_state set horizon_date = ${cut.hd}::timestamptz, horizon_id = ${cut.hi}::bigint where account_id = ${readerId}`);
}

/**
 * Makes reader `readerId`'s rows of community `communityId` right, in the caller's transaction (a join,
 * an acceptance, a leave, a removal, a ban, the feed switched; ADR 0188): removes them, and when the reader
 * reads the community in the feed and it is fanned out puts back its newest posts above the horizon (at
 * most HOME_TIMELINE_N; a cut moves the horizon up, as syncPair). Nothing for a reader without a timeline.
 * The shared lock on the community orders it with the fan-outs of the community's posts.
 */
export async function syncCommunityMember(tx: Tx, communityId: number, readerId: number): Promise<void> {
  const [state] = await tx.execute<{ hd: string | null; hi: string | null; fanned: boolean }>(sql`
    select pg_advisory_xact_lock_shared(${COMMUNITY_LOCK_BASE + communityId}::bigint), to_json(horizon_date) #>> '{}' as hd, horizon_id as hi,
      coalesce((select ${fanned("c")} from communities c where c.id = ${communityId}), false) as fanned
    from home_timeline_state where account_id = ${readerId} for update`);
  // A community read at request time (or deleted, or blocked) has no rows in any timeline once the job has
  // synced its change, and nothing writes new ones: a join of a big community reads no timeline.
  if (!state?.fanned) return;
  const n = timelineSize();
  await tx.execute(sql`
    delete from home_timeline t using posts p
    where t.account_id = ${readerId} and p.id = t.post_id and p.community_id = ${communityId}`);
  const after = state.hd === null ? sql`true` : sql`(p.publish_date, p.id) > (${state.hd}::timestamptz, ${state.hi}::bigint)`;
  const cut = await fill(tx, readerId, communityCandidates(readerId, sql`p.community_id = ${communityId} and ${after}`, n + 1), n);
  if (cut) await tx.execute(sql`update home_timeline_state set horizon_date = ${cut.hd}::timestamptz, horizon_id = ${cut.hi}::bigint where account_id = ${readerId}`);
}

/**
 * Re-syncs community `communityId` in its members' timelines (deleted, restored, blocked, unblocked, read
 * at request time from now on): one statement takes its posts out of every timeline when they are no
 * longer fanned out, else each member's rows are synced as a join would.
 */
async function syncCommunity(db: Db, communityId: number): Promise<void> {
  const [c] = await db.execute<{ fanned: boolean }>(sql`select ${fanned("c")} as fanned from communities c where c.id = ${communityId}`);
  if (!c?.fanned) {
    await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${COMMUNITY_LOCK_BASE + communityId}::bigint)`);
      await tx.execute(sql`delete from home_timeline t using posts p where p.community_id = ${communityId} and not p.is_deleted and t.post_id = p.id`);
    });
    return;
  }
  const members = await db.execute<{ id: string }>(sql`
    select m.account_id as id from community_members m join home_timeline_state s on s.account_id = m.account_id
    where m.community_id = ${communityId} and m.status = 'MEMBER'`);
  for (const m of members) await db.transaction((tx) => syncCommunityMember(tx, communityId, Number(m.id)));
}

/**
 * Fans post `postId` out, or takes it back: afterwards exactly the readers with a timeline whose feed has
 * it (above their horizon) have its row, at its current publish time. Idempotent; one statement. Takes
 * the post's pending row first, so a change committed meanwhile is pending again after this.
 */
async function syncPost(db: Db, postId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [pending] = await tx.execute<{ author_id: string; community_id: string | null }>(sql`
      select q.author_id, (select p.community_id from posts p where p.id = q.post_id) as community_id
      from home_timeline_pending q where q.post_id = ${postId} for update skip locked`);
    if (!pending) return false;
    // A community's post: its community's lock too, ordered with its members' syncs (ADR 0188).
    const community = pending.community_id === null ? sql`` : sql`, pg_advisory_xact_lock(${COMMUNITY_LOCK_BASE + Number(pending.community_id)}::bigint)`;
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_BASE + Number(pending.author_id)}::bigint)${community}`);
    await tx.execute(sql`
      with p as (select id, author_id, publish_date, is_deleted, is_blocked, community_id from posts where id = ${postId}),
      w as (select a.id, a.is_deleted or a.is_blocked as hidden, a.profile_visibility from accounts a where a.id = (select author_id from p)),
      target as (
        select s.account_id, s.horizon_date, s.horizon_id from home_timeline_state s join p on s.account_id = p.author_id
        where not p.is_deleted and p.community_id is null
        union all
        select s.account_id, s.horizon_date, s.horizon_id
        from p cross join w
        join friendships f on f.account_id = p.author_id and f.status_code in ${FOLLOWERS}
        join home_timeline_state s on s.account_id = f.friend_id
        where not p.is_deleted and p.community_id is null and not p.is_blocked and not w.hidden and (f.status_code = 'FRIEND' or w.profile_visibility = 'ALL')
        union all
        -- A community's post: the members who read it in the feed, of a community fanned out (ADR 0188).
        select s.account_id, s.horizon_date, s.horizon_id
        from p cross join w
        join communities c on c.id = p.community_id
        join community_members m on m.community_id = c.id and m.status = 'MEMBER' and not m.feed_off
        join home_timeline_state s on s.account_id = m.account_id
        where not p.is_deleted and (not p.is_blocked or m.account_id = p.author_id) and not w.hidden and ${fanned("c")}
          and not exists (select 1 from friendships b where b.account_id = m.account_id and b.friend_id = p.author_id and b.status_code in ('BLOCKED', 'REJECTING'))
      ),
      tgt as (select target.account_id from target cross join p
              where target.horizon_date is null or (p.publish_date, p.id) > (target.horizon_date, target.horizon_id)),
      del as (delete from home_timeline t using p
              where t.post_id = p.id and (t.publish_date <> p.publish_date or t.account_id not in (select account_id from tgt))),
      ins as (insert into home_timeline (account_id, publish_date, post_id, author_id)
              select tgt.account_id, p.publish_date, p.id, p.author_id from tgt cross join p
              on conflict do nothing)
      select 1`);
    await tx.execute(sql`delete from home_timeline_pending where post_id = ${postId}`);
    return true;
  });
}

/**
 * Re-syncs author `authorId` in every follower's timeline (deleted, restored, blocked, unblocked, page opened
 * or closed), and in the timelines of the members of the fanned-out communities the author posted in (ADR
 * 0188; a big community's posts are in no timeline, so its 100,000 members are not its business).
 */
async function syncAuthor(db: Db, authorId: number): Promise<void> {
  const followers = await db.execute<{ id: string }>(sql`
    select f.friend_id as id from friendships f join home_timeline_state s on s.account_id = f.friend_id
    where f.account_id = ${authorId} and f.status_code in ${FOLLOWERS}
    union
    select m.account_id from community_members m join home_timeline_state s on s.account_id = m.account_id
    where m.status = 'MEMBER' and m.community_id in (
      select p.community_id from posts p join communities c on c.id = p.community_id
      where p.author_id = ${authorId} and p.community_id is not null and not p.is_deleted and ${fanned("c")})`);
  for (const f of followers) await db.transaction((tx) => syncPair(tx, Number(f.id), authorId));
}

/** Cuts a timeline back to HOME_TIMELINE_N rows; the horizon moves up to the first row cut. */
async function trimTimeline(db: Db, readerId: number): Promise<void> {
  const n = timelineSize();
  await db.transaction(async (tx) => {
    const [st] = await tx.execute<{ hd: string | null; hi: string | null }>(sql`
      select to_json(t.publish_date) #>> '{}' as hd, t.post_id as hi from home_timeline_state s
      cross join lateral (select publish_date, post_id from home_timeline where account_id = s.account_id
                          order by publish_date desc, post_id desc offset ${n} limit 1) t
      where s.account_id = ${readerId} for update of s`);
    await tx.execute(sql`update home_timeline_state set needs_trim = false where account_id = ${readerId}`);
    if (!st) return;
    await tx.execute(sql`
      delete from home_timeline where account_id = ${readerId}
        and (publish_date, post_id) <= (${st.hd}::timestamptz, ${st.hi}::bigint)`);
    await tx.execute(sql`
      update home_timeline_state set horizon_date = ${st.hd}::timestamptz, horizon_id = ${st.hi}::bigint
      where account_id = ${readerId} and (horizon_date is null or (horizon_date, horizon_id) < (${st.hd}::timestamptz, ${st.hi}::bigint))`);
  });
}

/** Fans out every pending post (those another drain holds are left to it). */
async function drainPending(db: Db): Promise<number> {
  let done = 0;
  for (;;) {
    const batch = await db.execute<{ post_id: string }>(sql`select post_id from home_timeline_pending order by post_id limit 100`);
    let mine = 0;
    for (const r of batch) if (await syncPost(db, Number(r.post_id))) mine++;
    done += mine;
    if (batch.length < 100 || mine === 0) return done;
  }
}

/**
 * Syncs each note of `table` (an author's or a community's change) and removes it, oldest first. A note
 * goes only after its sync (a crash in between leaves it for the next drain), and only if no newer change
 * came meanwhile (that one is synced next). Returns how many it synced.
 */
async function drainNotes(db: Db, table: "home_timeline_authors" | "home_timeline_communities", key: "author_id" | "community_id", sync: (id: number) => Promise<void>): Promise<number> {
  const [t, k] = [sql.raw(table), sql.raw(key)];
  const seen = new Set<string>();
  let done = 0;
  for (;;) {
    const [n] = await db.execute<{ id: string; changed_at: string }>(sql`
      select ${k} as id, to_json(changed_at) #>> '{}' as changed_at from ${t}
      where not (${k} = any(${`{${[...seen].map((x) => x.split("@")[0]).join(",")}}`}::bigint[]))
      order by changed_at limit 1`);
    if (!n) return done;
    seen.add(`${n.id}@${n.changed_at}`);
    await sync(Number(n.id));
    await db.execute(sql`delete from ${t} where ${k} = ${Number(n.id)} and changed_at = ${n.changed_at}::timestamptz`);
    done++;
  }
}

/**
 * The job: fans out the pending posts, builds the timelines asked for (a few at a time, the pending posts
 * again between them, so a wave of first visits does not hold up fan-outs), re-syncs the changed authors
 * and trims the long timelines. Several may run at once (rows are taken with SKIP LOCKED). Returns how
 * many units it did.
 */
export async function drainTimelines(db: Db): Promise<number> {
  let done = 0;
  for (;;) {
    done += await drainPending(db);
    const asked = await db.execute<{ account_id: string }>(sql`
      select account_id from home_timeline_state where not built order by visited_at limit 20`);
    let built = 0;
    for (const r of asked) if (await rebuildTimeline(db, Number(r.account_id))) built++;
    done += built;
    if (built === 0) break;
  }
  // The authors' notes, then the communities' (ADR 0188).
  done += await drainNotes(db, "home_timeline_authors", "author_id", (id) => syncAuthor(db, id));
  done += await drainNotes(db, "home_timeline_communities", "community_id", (id) => syncCommunity(db, id));
  for (const [i, r] of (await db.execute<{ account_id: string }>(sql`select account_id from home_timeline_state where needs_trim`)).entries()) {
    await trimTimeline(db, Number(r.account_id));
    done++;
    // A post's fan-out grows thousands of timelines at once, so trims come in waves: fan-outs go first.
    if (i % 20 === 19) done += await drainPending(db);
  }
  return done;
}

/** Drops the timelines of readers away for 30 days (their next visit asks for a new one). */
export async function dropIdleTimelines(db: Db, now: Date): Promise<number> {
  const gone = await db.execute<{ account_id: string }>(sql`
    delete from home_timeline_state s using accounts a
    where a.id = s.account_id and s.visited_at < ${now.toISOString()}::timestamptz - interval '30 days'
      and coalesce(a.last_online_time, 'epoch') < ${now.toISOString()}::timestamptz - interval '30 days'
    returning s.account_id`);
  for (const g of gone) await db.execute(sql`delete from home_timeline where account_id = ${Number(g.account_id)}`);
  if (gone.length) log.info({ count: gone.length }, "home timelines of idle readers dropped");
  return gone.length;
}
