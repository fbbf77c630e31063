import "server-only";
import { sql, type Placeholder, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx, Tx } from "@/db/client";
import { statementsBy } from "@/db/statement";
import type { Viewer } from "@/lib/server/auth/viewer";
import { ForbiddenError, ValidationError, zodIssues } from "@/lib/server/http/errors";
import { getBlobStore } from "@/lib/server/storage/blob-store";
import { renderPostHtml, sanitizePostHtml } from "@/lib/validation/post-html";
import { authorCard, charCount, POST_ERRORS, POST_TEXT_MIN, tagKey, visibleText, type PostCommunity, type PostDto, type PostTag, type ReactionCount, type RepostOf } from "@/lib/validation/post";
import { REACTION_TYPES, isReactionType, type ReactionType } from "@/lib/validation/reactions";
import { storedKeyOf } from "@/lib/validation/storage";
import { closedTo, profileOpenSql } from "../privacy/rules";

/**
 * Parses with a shared schema; a refusal is a 422 whose message is the first issue's (the spec's
 * texts, e.g. 'Тема должна быть более трех символов…', reach a client that shows only the message).
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = zodIssues(result.error);
  throw new ValidationError(issues[0]?.message ?? "Invalid input", issues);
}

/** A deleted (restorable) account may read but neither post nor react. */
export function assertCanWrite(viewer: Viewer) {
  if (viewer.isDeleted) throw new ForbiddenError(POST_ERRORS.viewerDeleted);
}

/** Sanitises post HTML for storage; the minimum length counts what is left visible. */
export function cleanPostText(html: string): string {
  const clean = sanitizePostHtml(html);
  if (charCount(visibleText(clean)) < POST_TEXT_MIN) {
    throw new ValidationError(POST_ERRORS.titleText, [{ path: "postText", message: POST_ERRORS.titleText }]);
  }
  return clean;
}

/** An image path must be one this server issued and still holds. */
export async function assertStoredImage(path: string | null | undefined) {
  if (!path) return;
  const key = storedKeyOf(path);
  if (!key || !(await getBlobStore().exists(key))) {
    throw new ValidationError(POST_ERRORS.imagePathInvalid, [{ path: "imagePath", message: POST_ERRORS.imagePathInvalid }]);
  }
}

/** A list of ids or names as ONE parameter (names are normalised tag names: no commas in them). */
export const bigintArray = (ids: readonly number[]) => sql`string_to_array(${ids.join(",")}, ',')::bigint[]`;
export const textArray = (values: readonly string[]) => sql`string_to_array(${values.join(",")}, ',')::text[]`;

// ---- Visibility -------------------------------------------------------------------------------

/** The viewer's id in a statement: a value, or the placeholder of a statement built once (db/statement.ts). */
export type ViewerId = number | Placeholder;

/** A block in either direction between the viewer and the author (the viewer's side says both). */
export const notBlocked = (viewerId: ViewerId, authorId: SQL) => sql`not exists (
  select 1 from friendships b
  where b.account_id = ${viewerId} and b.friend_id = ${authorId} and b.status_code in ('BLOCKED', 'REJECTING'))`;

/** The author is live: neither deleted nor blocked by the administration (issue 13: a blocked account's content disappears). */
export const authorNotDeleted = (authorId: SQL) =>
  sql`not exists (select 1 from accounts d where d.id = ${authorId} and (d.is_deleted or d.is_blocked))`;

/** The viewer is an administrator or moderator: asked once per statement (uncorrelated), never per row. */
export const viewerIsStaff = (viewerId: ViewerId) => sql`exists (select 1 from accounts s where s.id = ${viewerId} and s.role <> 'USER')`;

/**
 * Content blocked by a moderator (issue 13) is seen only by its author (marked) and staff; `alias` is the
 * posts or comments row.
 */
export const notBlockedContent = (viewerId: ViewerId, alias: "p" | "c") =>
  sql`(not ${sql.raw(alias)}.is_blocked or ${sql.raw(alias)}.author_id = ${viewerId} or ${viewerIsStaff(viewerId)})`;

/**
 * What the viewer may read of post `p`: not deleted, by a live author, no block between them, and
 * published — except the viewer's own scheduled posts; not blocked by a moderator unless the viewer
 * is its author or staff; by an author whose page is open to the viewer (docs/adr/0125).
 */
export function visibleTo(viewerId: ViewerId, opts: { ownQueued: boolean } = { ownQueued: true }): SQL {
  const published = opts.ownQueued ? sql`(p.publish_date <= now() or p.author_id = ${viewerId})` : sql`p.publish_date <= now()`;
  return sql`not p.is_deleted and ${published} and ${authorNotDeleted(sql`p.author_id`)} and ${notBlocked(viewerId, sql`p.author_id`)}
    and ${notBlockedContent(viewerId, "p")} and ${placeOpenSql(viewerId)}`;
}

/**
 * Where post `p` stands is open to the viewer: a person's own post, when their page is (docs/adr/0125); a
 * post on a community's wall is the community's (issue 42), when the community is live and open or the
 * viewer is its member — a closed community's posts never leave its members.
 */
export const placeOpenSql = (viewerId: ViewerId) => sql`(case when p.community_id is null then ${profileOpenSql(viewerId, sql`p.author_id`)}
  else exists (select 1 from communities cm where cm.id = p.community_id and not cm.is_deleted and not cm.is_blocked
    and (cm.type = 'OPEN' or exists (select 1 from community_members mm where mm.community_id = cm.id and mm.account_id = ${viewerId} and mm.status = 'MEMBER'))) end)`;

/**
 * `visibleTo` without the viewer's own scheduled posts, for statements that test many posts (the
 * global feed, news search): the hidden accounts (deleted or blocked by the administration, a small
 * set read through accounts_hidden_idx) and the accounts blocked either way with the viewer are each
 * read once per statement and hashed (NOT IN over a subquery), and every post's author is tested
 * against the two sets in memory instead of two index probes per post; so are the pages closed to the
 * viewer (docs/adr/0125).
 */
export function visibleInFeed(viewerId: number): SQL {
  return sql`not p.is_deleted and p.community_id is null and p.publish_date <= now()
    and p.author_id not in (select h.id from accounts h where h.is_deleted or h.is_blocked)
    and p.author_id not in (
      select b.friend_id from friendships b where b.account_id = ${viewerId} and b.status_code in ('BLOCKED', 'REJECTING'))
    and p.author_id not in ${closedTo(viewerId)}
    and ${notBlockedContent(viewerId, "p")}`;
}

/**
 * `visibleInFeed` for the posts on communities' walls (issue 42), for searches of every post (a text, an
 * author, a tag, dates): a live open community's posts, and those of the viewer's own communities — a closed
 * community's posts never leave its members. Their authors are tested as the feed's are (hidden, blocked
 * either way, hashed once); a post on a community's wall is the community's, so its author's closed page does
 * not hide it.
 */
export function visibleInCommunities(viewerId: number): SQL {
  return sql`not p.is_deleted and p.community_id is not null and p.publish_date <= now()
    and p.author_id not in (select h.id from accounts h where h.is_deleted or h.is_blocked)
    and p.author_id not in (
      select b.friend_id from friendships b where b.account_id = ${viewerId} and b.status_code in ('BLOCKED', 'REJECTING'))
    and ${notBlockedContent(viewerId, "p")} and ${placeOpenSql(viewerId)}`;
}

// ---- Reading posts as DTOs (one query per page, authors and tags embedded) --------------------

const isoTime = (column: SQL) => sql`to_json(${column}) #>> '{}'`;

export type PostRowRaw = {
  id: string;
  author_id: string;
  title: string;
  post_text: string;
  image_path: string | null;
  publish_date: string;
  time: string;
  time_changed: string | null;
  is_deleted: boolean;
  is_blocked: boolean;
  comments_count: number;
  like_amount: number;
  reaction_counts: Record<string, number> | string;
  queued: boolean;
  first_name: string;
  last_name: string;
  photo: string | null;
  author_address: string | null;
  my_reaction: string | null;
  tags: PostTag[] | string;
  repost_of_id: string | null;
  community_id: string | null;
  as_community: boolean;
  community: PostCommunity | string | null;
  /** Only in the originals' statement: whether the viewer may read it. */
  visible?: boolean;
};

/**
 * The full DTOs of the posts of `page` (a statement yielding the page's `id`s in the list's order), with
 * the author, tags and the viewer's reaction, in that order. Two statements, one after the other: the ids
 * (the list's own, whose plan depends on the viewer and the filters), then the DTOs of those ids
 * (postDtosQuery). Read as one statement, the DTO part was planned again on every call (docs/adr/0104).
 * Inside a transaction both see the same snapshot; outside one, a post deleted between the two is left out.
 */
export async function readPostDtos(db: DbOrTx, viewerId: number, page: SQL): Promise<PostDto[]> {
  const ids = (await db.execute<{ id: string }>(page)).map((r) => Number(r.id));
  if (ids.length === 0) return [];
  const rows = await runDtos(db, viewerId, ids, false);
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return dtosInOrder(ids.flatMap((id) => byId.get(id) ?? []), await readOriginals(db, viewerId, rows));
}

/**
 * Reposts (issue 27): the originals of a page's `rows` in one more statement (only when the page has
 * reposts), never one per card; each as the viewer may read it, or the marker of its absence.
 */
export async function readOriginals(db: DbOrTx, viewerId: number, rows: readonly PostRowRaw[]): Promise<Map<number, RepostOf>> {
  const originals = new Map<number, RepostOf>();
  let originalIds: number[] | undefined;
  for (const r of rows) if (r.repost_of_id) (originalIds ??= []).push(Number(r.repost_of_id));
  if (!originalIds) return originals;
  for (const o of await runDtos(db, viewerId, [...new Set(originalIds)], true)) {
    const id = Number(o.id);
    originals.set(id, o.visible ? toPostDto(o, null) : { id, gone: o.is_deleted ? "DELETED" : "HIDDEN" });
  }
  return originals;
}

/** The DTOs of `rows` (already in the list's order) with their reposts' originals. */
export function dtosInOrder(rows: readonly PostRowRaw[], originals: Map<number, RepostOf>): PostDto[] {
  return rows.map((row) => {
    const of = row.repost_of_id ? Number(row.repost_of_id) : null;
    return toPostDto(row, of === null ? null : (originals.get(of) ?? { id: of, gone: "DELETED" as const }));
  });
}

/**
 * How many ids one DTO statement takes: a page's ids are padded with nulls up to the next of these, so
 * there are six statement texts in all, each with as many parameters as it reads posts. The planner then
 * estimates the same rows for every call and keeps one generic plan per connection instead of planning
 * again each time, as it does for `id = any($1)` (it guesses ten elements for an array parameter, twice a
 * feed page, so a plan made for the actual five always looked cheaper).
 */
const ID_SLOTS = [1, 3, 5, 10, 20, 50] as const;

/**
 * The columns of a post's DTO row, of `posts p`, `accounts a` (its author) and `post_reactions r` (the
 * viewer's reaction) as postDtoFrom joins them; `visible` says whether the viewer may read it.
 */
export function postDtoColumns(visible: SQL): SQL {
  return sql`p.id, p.author_id, p.title, p.post_text, p.image_path,
           ${isoTime(sql`p.publish_date`)} as publish_date, ${isoTime(sql`p.time`)} as time,
           ${isoTime(sql`p.time_changed`)} as time_changed, p.is_deleted, p.is_blocked, p.comments_count, p.like_amount,
           p.reaction_counts, p.publish_date > now() as queued, p.repost_of_id, p.community_id, p.as_community,
           case when p.community_id is not null then (select json_build_object('id', cm.id, 'name', cm.name, 'photo', cm.photo, 'type', cm.type)
             from communities cm where cm.id = p.community_id) end as community,
           ${visible} as visible,
           a.first_name, a.last_name, a.photo, r.reaction_type as my_reaction,
           case when a.remote then (select ra.handle from remote_actors ra where ra.account_id = a.id) end as author_address,
           coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name) order by t.name)
                     from post_tags pt join tags t on t.id = pt.tag_id where pt.post_id = p.id), '[]'::json) as tags`;
}

/** The joins of postDtoColumns after `posts p`. */
export const postDtoJoins = (viewerId: ViewerId) =>
  sql`join accounts a on a.id = p.author_id
    left join post_reactions r on r.post_id = p.id and r.account_id = ${viewerId}`;

/** The statement of readPostDtos for `ids` (exported for the benchmark's query plans). */
export function postDtosQuery(viewerId: ViewerId, ids: readonly (number | Placeholder | null)[], opts: { originals?: boolean } = {}): SQL {
  // Past the largest slot (no list serves more than POST_PAGE_SIZE_MAX) the statement takes the ids as they are.
  const slots = ID_SLOTS.find((n) => n >= ids.length) ?? ids.length;
  const params = Array.from({ length: slots }, (_, i) => sql`${i < ids.length ? ids[i] : null}::bigint`);
  return sql`
    select ${postDtoColumns(opts.originals ? sql`(${visibleTo(viewerId, { ownQueued: false })})` : sql`true`)}
    from posts p
    ${postDtoJoins(viewerId)}
    where p.id = any(array[${sql.join(params, sql`, `)}]) ${opts.originals ? sql`` : sql`and not p.is_deleted`}`;
}

/** postDtosQuery's texts, built once each (db/statement.ts): by number of id slots, and whether for originals. */
const dtoStatement = statementsBy<`${number}:${boolean}`, PostRowRaw, Record<string, unknown>>((key) => {
  const [slots, originals] = [Number(key.split(":")[0]), key.endsWith("true")];
  const ids = Array.from({ length: slots }, (_, i) => sql.placeholder(`id${i}`));
  return postDtosQuery(sql.placeholder("viewerId"), ids, { originals });
});

function runDtos(db: DbOrTx, viewerId: number, ids: readonly number[], originals: boolean): Promise<PostRowRaw[]> {
  const slots = ID_SLOTS.find((n) => n >= ids.length) ?? ids.length;
  const values: Record<string, unknown> = { viewerId };
  for (let i = 0; i < slots; i++) values[`id${i}`] = i < ids.length ? ids[i] : null;
  return dtoStatement(`${slots}:${originals}`).run(db, values);
}

const REACTION_ORDER = new Map(REACTION_TYPES.map((t, i) => [t, i]));

/** Non-zero counts, most used first, then in picker order. */
export function reactionList(counts: Record<string, number>): ReactionCount[] {
  return Object.entries(counts)
    .filter((e): e is [ReactionType, number] => isReactionType(e[0]) && e[1] > 0)
    .sort((x, y) => y[1] - x[1] || REACTION_ORDER.get(x[0])! - REACTION_ORDER.get(y[0])!)
    .map(([reactionType, count]) => ({ reactionType, count }));
}

function json<T>(v: T | string): T {
  return typeof v === "string" ? (JSON.parse(v) as T) : v;
}

function toPostDto(r: PostRowRaw, repostOf: RepostOf | null): PostDto {
  const myReaction = isReactionType(r.my_reaction) ? r.my_reaction : null;
  const reactions = reactionList(json<Record<string, number>>(r.reaction_counts));
  return {
    id: Number(r.id),
    authorId: Number(r.author_id),
    author: authorCard(r),
    title: r.title,
    // The one sanitiser again on render (ADR 107), on the server: every reader — our pages and other
    // clients of the API — gets the HTML as rendered, and the browser carries no sanitiser (ADR 0124).
    postText: renderPostHtml({ id: Number(r.id), postText: r.post_text, timeChanged: r.time_changed }),
    imagePath: r.image_path,
    tags: json<PostTag[]>(r.tags).map((t) => ({ id: Number(t.id), name: t.name })),
    publishDate: new Date(r.publish_date).toISOString(),
    type: r.queued ? "QUEUED" : "POSTED",
    time: new Date(r.time).toISOString(),
    timeChanged: r.time_changed ? new Date(r.time_changed).toISOString() : null,
    isDeleted: r.is_deleted,
    isBlocked: r.is_blocked,
    commentsCount: Number(r.comments_count),
    likeAmount: Number(r.like_amount),
    myLike: myReaction !== null,
    myReaction,
    reactionType: reactions,
    reactions,
    repostOf,
    communityId: r.community_id === null ? null : Number(r.community_id),
    community: r.community === null ? null : ((c) => ({ id: Number(c.id), name: c.name, photo: c.photo, type: c.type }))(json<PostCommunity>(r.community)),
    asCommunity: r.as_community,
  };
}

/** One post as the viewer sees it, or null when it is not visible to them. */
export async function readVisiblePost(db: DbOrTx, viewerId: number, postId: number): Promise<PostDto | null> {
  const [dto] = await readPostDtos(db, viewerId, sql`select p.id from posts p where p.id = ${postId} and ${visibleTo(viewerId)}`);
  return dto ?? null;
}

// ---- Tags ---------------------------------------------------------------------------------------

/**
 * The global tags of `names` (created when new; the first spelling wins), in the order given.
 * Concurrent creators of one name meet on the unique index and both get the same row.
 */
/** A new post's tags (normalised names): made where new, linked, and counted once more each. */
export async function attachTags(tx: Tx, postId: number, names: string[]): Promise<void> {
  const tagIds = await ensureTags(tx, names);
  if (tagIds.length === 0) return;
  await tx.execute(sql`insert into post_tags (post_id, tag_id) select ${postId}, unnest(${bigintArray(tagIds)})`);
  await bumpTagCounts(tx, tagIds, 1);
}

export async function ensureTags(tx: Tx, names: string[]): Promise<number[]> {
  if (names.length === 0) return [];
  await tx.execute(sql`
    insert into tags (name) select unnest(${textArray(names)})
    on conflict ((lower(name)) text_pattern_ops) do nothing`);
  const rows = await tx.execute<{ id: string; name: string }>(sql`
    select id, name from tags where lower(name) = any(${textArray(names.map(tagKey))})`);
  const byKey = new Map(rows.map((r) => [tagKey(r.name), Number(r.id)]));
  return names.map((n) => byKey.get(tagKey(n))!);
}

/** Adds `delta` to the use count of the tags (locked in id order, so two posts never deadlock). */
export async function bumpTagCounts(tx: Tx, tagIds: number[], delta: 1 | -1) {
  if (tagIds.length === 0) return;
  await tx.execute(sql`
    update tags set posts_count = greatest(0, tags.posts_count + ${delta})
    from (select id from tags where id = any(${bigintArray(tagIds)}) order by id for no key update) s
    where tags.id = s.id`);
}
