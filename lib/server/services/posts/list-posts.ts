import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { pageOf, type Page } from "@/lib/server/http/response";
import { feedQuery, postListQuery, type FeedQueryValues, type PostDto } from "@/lib/validation/post";
import { requireViewer, type ServiceCtx } from "../context";
import { authorNotDeleted, bigintArray, parseInput, readPostDtos, visibleTo } from "./shared";

// Lists of posts (docs/adr/0020-post-feeds.md). Every list is ordered newest first by publish time,
// id breaking ties, so pages never repeat or skip a post; with a search text the order is the rank
// first. Each page is one statement for the ids (an index scan that stops after offset + size) and
// one for the DTOs of those ids; totals are counted up to COUNT_CAP.

/** Totals are exact up to this many posts and reported as this many beyond (a count of a million rows per page is not worth it). */
export const COUNT_CAP = 10_000;

/** Relations whose posts are in the viewer's feed: friends, accounts the viewer follows, and those the viewer asked (a request follows, ADR 0011). */
const FOLLOWING = sql`('FRIEND', 'SUBSCRIBED', 'REQUEST_TO')`;

type Filters = Pick<FeedQueryValues, "text" | "author" | "tags" | "dateFrom" | "dateTo">;

const tsQuery = (text: string) => sql`(websearch_to_tsquery('russian', ${text}) || websearch_to_tsquery('english', ${text}))`;

function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/\s+/g, " ").replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The search filters on `p`, combined with AND. */
function filterSql(f: Filters): SQL[] {
  const out: SQL[] = [];
  if (f.text) out.push(sql`p.search @@ ${tsQuery(f.text)}`);
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

const BY_TIME = sql`p.publish_date desc, p.id desc`;
const byRank = (text: string) => sql`ts_rank(p.search, ${tsQuery(text)}) desc, p.publish_date desc, p.id desc`;

type Plan = { ids: SQL; count: SQL; order: SQL };

/**
 * The ids of one page and the total. Without a text the order is the index order
 * (posts_feed_idx / posts_author_feed_idx); with a text the matches come from the GIN index and are
 * ranked (title words weigh more than text words), newest first among equals.
 */
function plan(where: SQL, filters: Filters, page: number, size: number): Plan {
  const order = filters.text ? byRank(filters.text) : BY_TIME;
  const rank = filters.text ? sql`, ts_rank(p.search, ${tsQuery(filters.text)}) as rank` : sql``;
  const outer = filters.text ? sql`k.rank desc, k.publish_date desc, k.id desc` : sql`k.publish_date desc, k.id desc`;
  return {
    ids: sql`select p.id, p.publish_date${rank} from posts p where ${where} order by ${order} limit ${size} offset ${page * size}`,
    count: sql`select count(*) as count from (select 1 from posts p where ${where} limit ${COUNT_CAP}) c`,
    order: outer,
  };
}

/**
 * The friends feed: own posts, friends' and followed accounts' posts. Rather than sorting every
 * post of ~150 authors, each author's newest offset+size posts are read through
 * posts_author_feed_idx (LATERAL, each scan stops early) and only those few are merged.
 */
function friendsPlan(viewerId: number, filters: Filters, page: number, size: number): Plan {
  const authors = sql`
    select ${viewerId}::bigint as id
    union all
    select f.friend_id from friendships f
    where f.account_id = ${viewerId} and f.status_code in ${FOLLOWING} and ${authorNotDeleted(sql`f.friend_id`)}`;
  const where = and([sql`not p.is_deleted`, sql`p.publish_date <= now()`, ...filterSql(filters)]);
  if (filters.text) {
    // A text search ranks every match of these authors; the GIN index bounds the matches.
    return plan(and([sql`p.author_id in (${authors})`, where]), filters, page, size);
  }
  const take = (page + 1) * size;
  return {
    ids: sql`
      select l.id, l.publish_date from (${authors}) au
      cross join lateral (
        select p.id, p.publish_date from posts p
        where p.author_id = au.id and ${where}
        order by p.publish_date desc, p.id desc
        limit ${take}
      ) l
      order by l.publish_date desc, l.id desc
      limit ${size} offset ${page * size}`,
    count: sql`
      select count(*) as count from (
        select 1 from (${authors}) au
        cross join lateral (select 1 from posts p where p.author_id = au.id and ${where} limit ${COUNT_CAP}) l
        limit ${COUNT_CAP}) c`,
    order: sql`k.publish_date desc, k.id desc`,
  };
}

async function run(ctx: ServiceCtx, viewerId: number, p: Plan, page: number, size: number): Promise<Page<PostDto>> {
  const db = ctx.tx ?? ctx.db;
  const [content, [total]] = await Promise.all([
    readPostDtos(db, viewerId, p.ids, p.order),
    db.execute<{ count: string }>(p.count),
  ]);
  return pageOf(content, Number(total.count), page, size);
}

/** The feed query of GET post/newsPosts and GET post without accountIds. */
async function feed(ctx: ServiceCtx, viewerId: number, q: Omit<FeedQueryValues, "withFriends"> & { withFriends: boolean }) {
  if (q.withFriends) return run(ctx, viewerId, friendsPlan(viewerId, q, q.page, q.size), q.page, q.size);
  const where = and([visibleTo(viewerId, { ownQueued: false }), ...filterSql(q)]);
  return run(ctx, viewerId, plan(where, q, q.page, q.size), q.page, q.size);
}

/**
 * GET post/newsPosts — `withFriends=true`: the viewer's own posts and those of friends and followed
 * accounts; otherwise every visible post. Filters: text, author, tags, dateFrom/dateTo.
 */
export async function listNewsPosts({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<Page<PostDto>> {
  const viewer = requireViewer(ctx);
  const q = parseInput(feedQuery, input);
  return feed(ctx, viewer.id, q);
}

/**
 * GET post — with accountIds/accountId the wall of those accounts (their author sees their own
 * scheduled posts there, first, as QUEUED); without them the same as listNewsPosts. A deleted
 * account's wall is empty; a blocked one's too.
 */
export async function listPosts({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<Page<PostDto>> {
  const viewer = requireViewer(ctx);
  const q = parseInput(postListQuery, input);
  if (q.kind === "feed") return feed(ctx, viewer.id, q);
  const where = and([
    q.accountIds.length === 1 ? sql`p.author_id = ${q.accountIds[0]}` : sql`p.author_id = any(${bigintArray(q.accountIds)})`,
    visibleTo(viewer.id),
    ...filterSql(q),
  ]);
  return run(ctx, viewer.id, plan(where, q, q.page, q.size), q.page, q.size);
}
