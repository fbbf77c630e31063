import "server-only";
import { queueFediverseComment } from "@/lib/server/federation/outbox";
import { authorCard } from "@/lib/validation/post";
import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { notifyCommentChange } from "@/lib/server/events/comment-live";
import { appendEvent } from "@/lib/server/events/outbox";
import { notifyComment, notifyLike } from "@/lib/server/services/notifications/producers";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "@/lib/server/http/errors";
import { consumeAccountLimits } from "@/lib/server/http/rate-limit";
import { pageOf, type Page } from "@/lib/server/http/response";
import {
  COMMENT_ERRORS,
  commentListQuery,
  commentPathParams,
  createCommentInput,
  editCommentInput,
  postPathParams,
  replyInput,
  type CommentDto,
  type CommentLikeResult,
} from "@/lib/validation/comment";
import type { CommentChange } from "@/lib/validation/comment-live";
import { CLIENT_ID_ERRORS } from "@/lib/validation/client-id";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { authorNotDeleted, notBlocked, notBlockedContent, parseInput, visibleTo } from "../posts/shared";

// Comments of issue 10 (two levels, as VK). Every write locks the post row (its comments_count
// changes) or the comment row (its like_amount), so counts stay exact under concurrency.

function assertCanWrite(viewer: { isDeleted: boolean }) {
  if (viewer.isDeleted) throw new ForbiddenError(COMMENT_ERRORS.viewerDeleted);
}

/**
 * Comment `c` is not kept off its post by a block between the post's author and the comment's author
 * (either way): such a comment leaves the post for every reader and leaves its counts (docs/adr/0116).
 */
export const keptOnPost = (c: SQL) => sql`not exists (
  select 1 from posts pa join friendships pb on pb.account_id = pa.author_id and pb.friend_id = ${c}.author_id
  where pa.id = ${c}.post_id and pb.status_code in ('BLOCKED', 'REJECTING'))`;

/**
 * Comments the viewer sees: by a live author with no block between them, nor between them and the
 * post's author; a deleted one only as a placeholder, and only to its author, to whoever deleted it (the
 * post's author, issue 27), or when replies hang under it.
 */
function listable(viewerId: number): SQL {
  return sql`${authorNotDeleted(sql`c.author_id`)} and ${notBlocked(viewerId, sql`c.author_id`)} and ${keptOnPost(sql`c`)}
    and (not c.is_deleted or c.author_id = ${viewerId} or c.deleted_by = ${viewerId} or c.comments_count > 0) and ${notBlockedContent(viewerId, "c")}`;
}

const isoTime = (column: SQL) => sql`to_json(${column}) #>> '{}'`;

type Row = {
  id: string;
  post_id: string;
  parent_id: string | null;
  author_id: string;
  first_name: string;
  last_name: string;
  photo: string | null;
  author_address: string | null;
  comment_text: string;
  time: string;
  time_changed: string | null;
  like_amount: number;
  my_like: boolean;
  is_deleted: boolean;
  is_blocked: boolean;
  comments_count: number;
  can_recover: boolean;
};

/** The DTOs of the comments selected by `where` (on `c`), in `order`: one statement, authors embedded. */
async function readComments(db: DbOrTx, viewerId: number, where: SQL, order: SQL, limit?: { size: number; offset: number }): Promise<CommentDto[]> {
  const rows = await db.execute<Row>(sql`
    select c.id, c.post_id, c.parent_id, c.author_id, a.first_name, a.last_name, a.photo,
           case when a.remote then (select ra.handle from remote_actors ra where ra.account_id = a.id) end as author_address,
           case when c.is_deleted and c.author_id <> ${viewerId} then '' else c.comment_text end as comment_text,
           ${isoTime(sql`c.time`)} as time, ${isoTime(sql`c.time_changed`)} as time_changed,
           c.like_amount, c.is_deleted, c.is_blocked, c.comments_count,
           c.is_deleted and coalesce(c.deleted_by, c.author_id) = ${viewerId} as can_recover,
           exists (select 1 from comment_likes l where l.comment_id = c.id and l.account_id = ${viewerId}) as my_like
    from (select c.* from comments c where ${where} order by ${order} ${limit ? sql`limit ${limit.size} offset ${limit.offset}` : sql``}) c
    join accounts a on a.id = c.author_id
    order by ${order}`);
  return rows.map((r) => ({
    id: Number(r.id),
    postId: Number(r.post_id),
    parentId: r.parent_id === null ? null : Number(r.parent_id),
    authorId: Number(r.author_id),
    author: authorCard(r),
    commentText: r.comment_text,
    time: new Date(r.time).toISOString(),
    timeChanged: r.time_changed ? new Date(r.time_changed).toISOString() : null,
    likeAmount: Number(r.like_amount),
    myLike: r.my_like,
    isDeleted: r.is_deleted,
    is_deleted: r.is_deleted,
    isBlocked: r.is_blocked,
    commentsCount: Number(r.comments_count),
    canRecover: r.can_recover,
  }));
}

async function readOne(db: DbOrTx, viewerId: number, id: number): Promise<CommentDto> {
  const [dto] = await readComments(db, viewerId, sql`c.id = ${id}`, sql`c.id`);
  return dto;
}

/**
 * The post, if the viewer may read and comment on it (published, visible); locked when `lock`. Row locks
 * here are FOR NO KEY UPDATE: they serialise the writers of the same post or comment, but let the
 * foreign-key checks of concurrent inserts (a notification naming the post, a reply naming its comment)
 * through — FOR UPDATE blocks those and deadlocked a like against a reply and a delete on one thread.
 */
async function openPost(db: DbOrTx, viewerId: number, postId: number, lock: boolean): Promise<{ authorId: number }> {
  const [row] = await db.execute<{ author_id: string }>(sql`
    select p.author_id from posts p where p.id = ${postId} and ${visibleTo(viewerId, { ownQueued: false })}
    ${lock ? sql`for no key update of p` : sql``}`);
  if (!row) throw new NotFoundError(COMMENT_ERRORS.postNotFound);
  return { authorId: Number(row.author_id) };
}

async function page(ctx: ServiceCtx, viewerId: number, where: SQL, order: SQL, query: unknown): Promise<Page<CommentDto>> {
  const q = parseInput(commentListQuery, query);
  const db = ctx.tx ?? ctx.db;
  const [content, [total]] = await Promise.all([
    readComments(db, viewerId, where, order, { size: q.size, offset: q.page * q.size }),
    db.execute<{ count: string }>(sql`select count(*) as count from comments c where ${where}`),
  ]);
  return pageOf(content, Number(total.count), q.page, q.size);
}

const NEWEST = sql`c.time desc nulls last, c.id desc nulls last`;
const OLDEST = sql`c.time, c.id`;

/** GET post/{postId}/comment — top-level comments, newest first. */
export async function listComments({ ctx, input }: { ctx: ServiceCtx; input: { postId: unknown; query: unknown } }) {
  const viewer = requireViewer(ctx);
  const { postId } = parseInput(postPathParams, { postId: input.postId });
  await openPost(ctx.tx ?? ctx.db, viewer.id, postId, false);
  return page(ctx, viewer.id, sql`c.post_id = ${postId} and c.parent_id is null and ${listable(viewer.id)}`, NEWEST, input.query);
}

/** GET post/{postId}/comment/{id}/subcomment — a comment's replies, oldest first. */
export async function listSubcomments({ ctx, input }: { ctx: ServiceCtx; input: { postId: unknown; id: unknown; query: unknown } }) {
  const viewer = requireViewer(ctx);
  const { postId, id } = parseInput(commentPathParams, { postId: input.postId, id: input.id });
  await openPost(ctx.tx ?? ctx.db, viewer.id, postId, false);
  const [parent] = await (ctx.tx ?? ctx.db).execute(sql`select 1 from comments c where c.id = ${id} and c.post_id = ${postId} and c.parent_id is null`);
  if (!parent) throw new NotFoundError(COMMENT_ERRORS.notFound);
  return page(ctx, viewer.id, sql`c.parent_id = ${id} and ${listable(viewer.id)}`, OLDEST, input.query);
}

/**
 * The viewer's comment made under `clientId` (a retry): null when there is none; 409 when that id made
 * another comment (other post, parent or text); the comment as it is now otherwise (ADR 0144).
 */
async function replayComment(db: DbOrTx, viewerId: number, clientId: string, at: { postId: number; parentId: number | null; text: string }): Promise<CommentDto | null> {
  const [made] = await db.execute<{ id: string; post_id: string; parent_id: string | null; comment_text: string }>(sql`
    select id, post_id, parent_id, comment_text from comments where author_id = ${viewerId} and client_id = ${clientId}::uuid`);
  if (!made) return null;
  if (Number(made.post_id) !== at.postId || made.comment_text !== at.text) throw new ConflictError(CLIENT_ID_ERRORS.reused);
  const comment = await readOne(db, viewerId, Number(made.id));
  if (!comment) throw new NotFoundError(COMMENT_ERRORS.notFound);
  return comment;
}

async function addComment(ctx: ServiceCtx, postId: number, parentId: number | null | undefined, text: string, clientId: string | null = null): Promise<CommentDto> {
  const viewer = requireViewer(ctx);
  assertCanWrite(viewer);
  const again = clientId ? await replayComment(ctx.tx ?? ctx.db, viewer.id, clientId, { postId, parentId: parentId ?? null, text }) : null;
  if (again) return again;
  await consumeAccountLimits(["comment"], viewer.id); // RATE_LIMIT_COMMENT, replies included (ADR 0109)
  return withTransaction(ctx, async (tx) => {
    const post = await openPost(tx, viewer.id, postId, true);
    let top: number | null = null;
    let repliedTo: number | null = null;
    let topAuthor: number | null = null;
    if (parentId) {
      const [parent] = await tx.execute<{ id: string; parent_id: string | null; author_id: string; top_author_id: string }>(sql`
        select c.id, c.parent_id, c.author_id,
               coalesce((select t.author_id from comments t where t.id = c.parent_id), c.author_id) as top_author_id
        from comments c
        where c.id = ${parentId} and c.post_id = ${postId} and not c.is_deleted
          and ${authorNotDeleted(sql`c.author_id`)} and ${notBlocked(viewer.id, sql`c.author_id`)} and ${keptOnPost(sql`c`)}
          and ${notBlockedContent(viewer.id, "c")}`);
      if (!parent) throw new ValidationError(COMMENT_ERRORS.parentInvalid, [{ path: "parentId", message: COMMENT_ERRORS.parentInvalid }]);
      top = Number(parent.parent_id ?? parent.id);
      repliedTo = Number(parent.author_id);
      topAuthor = Number(parent.top_author_id);
    }
    const [row] = await tx.execute<{ id: string }>(sql`
      insert into comments (post_id, parent_id, author_id, comment_text, client_id) values (${postId}, ${top}, ${viewer.id}, ${text}, ${clientId}::uuid)
      on conflict (author_id, client_id) where client_id is not null do nothing
      returning id`);
    // The same clientId committed by a concurrent attempt (this insert waited for it): that comment.
    if (!row) return (await replayComment(tx, viewer.id, clientId!, { postId, parentId: parentId ?? null, text }))!;
    const id = Number(row.id);
    if (top) await tx.execute(sql`update comments set comments_count = comments_count + 1 where id = ${top}`);
    await tx.execute(sql`update posts set comments_count = comments_count + 1 where id = ${postId}`);
    await notifyCommentChange(tx, { postId, commentId: id, parentId: top, change: "added", authorId: viewer.id, parentAuthorId: topAuthor });
    const data = { postId, commentId: id, parentId: top, authorId: viewer.id };
    if (post.authorId !== viewer.id) await appendEvent(tx, { type: "POST_COMMENT", recipients: [post.authorId], data: { ...data, receiverId: post.authorId } });
    if (repliedTo && repliedTo !== viewer.id && repliedTo !== post.authorId) {
      await appendEvent(tx, { type: "COMMENT_COMMENT", recipients: [repliedTo], data: { ...data, receiverId: repliedTo } });
    }
    await notifyComment(tx, { actorId: viewer.id, postId, postAuthorId: post.authorId, commentId: id, repliedTo: repliedTo && parentId ? { commentId: parentId, authorId: repliedTo } : null, text });
    // A reply under a post from the fediverse goes to its author there (issue 43).
    await queueFediverseComment(tx, id, "comment");
    return readOne(tx, viewer.id, id);
  });
}

/** POST post/{postId}/comment {parentId?, commentText} — a comment, or a reply when parentId is given. */
export async function createComment({ ctx, input }: { ctx: ServiceCtx; input: { postId: unknown; body: unknown } }) {
  requireViewer(ctx);
  const { postId } = parseInput(postPathParams, { postId: input.postId });
  const body = parseInput(createCommentInput, input.body);
  return addComment(ctx, postId, body.parentId, body.commentText, body.clientId ?? null);
}

/** PUT post/{postId}/comment/{parentId} {commentText} — a reply (the other spelling of the same thing). */
export async function replyToComment({ ctx, input }: { ctx: ServiceCtx; input: { postId: unknown; parentId: unknown; body: unknown } }) {
  requireViewer(ctx);
  const { postId, id } = parseInput(commentPathParams, { postId: input.postId, id: input.parentId });
  const body = parseInput(replyInput, input.body);
  return addComment(ctx, postId, id, body.commentText, body.clientId ?? null);
}

type Locked = { id: string; parent_id: string | null; author_id: string; is_deleted: boolean; is_blocked: boolean; deleted_by?: string | null };

/** The viewer's own comment on a post they can see, locked; 404 when not visible, 403 when not theirs. */
async function lockOwnComment(tx: Tx, viewerId: number, postId: number, id: number): Promise<Locked> {
  await openPost(tx, viewerId, postId, true);
  const [row] = await tx.execute<Locked>(sql`
    select c.id, c.parent_id, c.author_id, c.is_deleted, c.is_blocked from comments c
    where c.id = ${id} and c.post_id = ${postId} and ${notBlocked(viewerId, sql`c.author_id`)} for no key update of c`);
  if (!row) throw new NotFoundError(COMMENT_ERRORS.notFound);
  if (Number(row.author_id) !== viewerId) throw new ForbiddenError(COMMENT_ERRORS.notAuthor);
  return row;
}

/** The live notice (ADR 0026) of a change to the comment `row` (the viewer's own, or a like of it). */
async function noticeChange(tx: Tx, postId: number, row: Locked, change: CommentChange): Promise<void> {
  let parentAuthorId: number | null = null;
  if (row.parent_id) {
    const [parent] = await tx.execute<{ author_id: string }>(sql`select author_id from comments where id = ${row.parent_id}`);
    parentAuthorId = parent ? Number(parent.author_id) : null;
  }
  const parentId = row.parent_id === null ? null : Number(row.parent_id);
  await notifyCommentChange(tx, { postId, commentId: Number(row.id), parentId, change, authorId: Number(row.author_id), parentAuthorId });
}

/** PUT post/{postId}/comment {id, commentText} — the author edits a comment. */
export async function editComment({ ctx, input }: { ctx: ServiceCtx; input: { postId: unknown; body: unknown } }) {
  const viewer = requireViewer(ctx);
  assertCanWrite(viewer);
  const { postId } = parseInput(postPathParams, { postId: input.postId });
  const body = parseInput(editCommentInput, input.body);
  await consumeAccountLimits(["contentChange"], viewer.id); // RATE_LIMIT_CONTENT_CHANGE: edits, deletions, restorations
  return withTransaction(ctx, async (tx) => {
    const row = await lockOwnComment(tx, viewer.id, postId, body.id);
    if (row.is_deleted) throw new NotFoundError(COMMENT_ERRORS.notFound);
    await tx.execute(sql`update comments set comment_text = ${body.commentText}, time_changed = now() where id = ${body.id}`);
    await noticeChange(tx, postId, row, "edited");
    return readOne(tx, viewer.id, body.id);
  });
}

/** A comment leaves (-1) or rejoins (+1) the counts of its post and of its parent comment (the caller holds the post's lock). */
export async function shiftCommentCounts(tx: Tx, at: { postId: number | string; parentId: number | string | null }, delta: number): Promise<void> {
  if (at.parentId) await tx.execute(sql`update comments set comments_count = greatest(0, comments_count + ${delta}) where id = ${at.parentId}`);
  await tx.execute(sql`update posts set comments_count = greatest(0, comments_count + ${delta}) where id = ${at.postId}`);
}

/**
 * A block between `a` and `b` starts (-1) or ends (+1): the counted comments (neither deleted nor
 * blocked by a moderator) of each on the other's posts leave or rejoin their post's and parent's counts,
 * in the block's own transaction, the posts' rows locked first as every comment write does (docs/adr/0116).
 */
export async function shiftPairComments(tx: Tx, a: number, b: number, delta: 1 | -1): Promise<void> {
  const hit = sql`select c.post_id, c.parent_id from comments c join posts p on p.id = c.post_id
    where ((c.author_id = ${a} and p.author_id = ${b}) or (c.author_id = ${b} and p.author_id = ${a}))
      and not c.is_deleted and not c.is_blocked`;
  const posts = await tx.execute<{ id: string }>(sql`
    select p.id from posts p where p.id in (select h.post_id from (${hit}) h) order by p.id for no key update`);
  if (posts.length === 0) return;
  await tx.execute(sql`
    update posts p set comments_count = greatest(0, p.comments_count + ${delta} * h.n)
    from (select h.post_id, count(*)::int as n from (${hit}) h group by h.post_id) h where p.id = h.post_id`);
  await tx.execute(sql`
    update comments t set comments_count = greatest(0, t.comments_count + ${delta} * h.n)
    from (select h.parent_id, count(*)::int as n from (${hit}) h where h.parent_id is not null group by h.parent_id) h
    where t.id = h.parent_id`);
}

/**
 * A comment to delete or restore, locked (the post first, as every comment write): its author may delete
 * it, and so may the post's author (issue 27: others' comments on their own post); only whoever deleted
 * it may restore it (a comment deleted before deleted_by existed: its author). 404 when the viewer cannot
 * see it, 403 when it is not theirs to change.
 */
async function lockForDeletion(tx: Tx, viewerId: number, postId: number, id: number, deleting: boolean): Promise<Locked> {
  const post = await openPost(tx, viewerId, postId, true);
  const [row] = await tx.execute<Locked>(sql`
    select c.id, c.parent_id, c.author_id, c.is_deleted, c.is_blocked, c.deleted_by from comments c
    where c.id = ${id} and c.post_id = ${postId} and ${notBlocked(viewerId, sql`c.author_id`)}
    for no key update of c`);
  if (!row) throw new NotFoundError(COMMENT_ERRORS.notFound);
  const mine = Number(row.author_id) === viewerId;
  const allowed = deleting
    ? mine || post.authorId === viewerId
    : !row.is_deleted
      ? mine || post.authorId === viewerId
      : Number(row.deleted_by ?? row.author_id) === viewerId;
  if (!allowed) throw new ForbiddenError(COMMENT_ERRORS.notAuthor);
  return row;
}

async function setDeleted(ctx: ServiceCtx, input: { postId: unknown; id: unknown }, deleted: boolean): Promise<CommentDto> {
  const viewer = requireViewer(ctx);
  assertCanWrite(viewer);
  const { postId, id } = parseInput(commentPathParams, input);
  await consumeAccountLimits(["contentChange"], viewer.id);
  return withTransaction(ctx, async (tx) => {
    const row = await lockForDeletion(tx, viewer.id, postId, id, deleted);
    if (deleted && row.is_deleted) throw new NotFoundError(COMMENT_ERRORS.notFound);
    if (!deleted && !row.is_deleted) throw new ConflictError(COMMENT_ERRORS.notDeleted);
    // A blocked comment is already out of the counts (docs/adr/0085): deleting or restoring it moves nothing.
    const delta = row.is_blocked ? 0 : deleted ? -1 : 1;
    await tx.execute(sql`update comments set is_deleted = ${deleted}, deleted_by = ${deleted ? viewer.id : null} where id = ${id}`);
    if (delta) await shiftCommentCounts(tx, { postId, parentId: row.parent_id }, delta);
    await noticeChange(tx, postId, row, deleted ? "deleted" : "recovered");
    // Under a post from the fediverse, the author's own reply is withdrawn or said again there (issue 43).
    if (Number(row.author_id) === viewer.id) await queueFediverseComment(tx, id, deleted ? "delete-comment" : "comment");
    return readOne(tx, viewer.id, id);
  });
}

/**
 * DELETE post/{postId}/comment/{id} — the author deletes (soft: a placeholder stays for them and under
 * replies); so may the post's author, any comment on their own post (issue 27).
 */
export function deleteComment({ ctx, input }: { ctx: ServiceCtx; input: { postId: unknown; id: unknown } }) {
  return setDeleted(ctx, input, true);
}

/** PUT post/{postId}/comment/{id}/recover — whoever deleted the comment (its author, or the post's author) restores it. */
export function recoverComment({ ctx, input }: { ctx: ServiceCtx; input: { postId: unknown; id: unknown } }) {
  return setDeleted(ctx, input, false);
}

async function toggleLike(ctx: ServiceCtx, input: { postId: unknown; id: unknown }, like: boolean): Promise<CommentLikeResult> {
  const viewer = requireViewer(ctx);
  assertCanWrite(viewer);
  const { postId, id } = parseInput(commentPathParams, input);
  await consumeAccountLimits(["reaction"], viewer.id); // RATE_LIMIT_REACTION: likes of posts and comments, set or taken back
  return withTransaction(ctx, async (tx) => {
    await openPost(tx, viewer.id, postId, false);
    const [row] = await tx.execute<Locked>(sql`
      select c.id, c.parent_id, c.author_id, c.is_deleted, c.is_blocked from comments c
      where c.id = ${id} and c.post_id = ${postId} and not c.is_deleted
        and ${authorNotDeleted(sql`c.author_id`)} and ${notBlocked(viewer.id, sql`c.author_id`)} and ${notBlockedContent(viewer.id, "c")}
      for no key update of c`);
    if (!row) throw new NotFoundError(COMMENT_ERRORS.notFound);
    const changed = like
      ? await tx.execute(sql`insert into comment_likes (comment_id, account_id) values (${id}, ${viewer.id}) on conflict do nothing returning comment_id`)
      : await tx.execute(sql`delete from comment_likes where comment_id = ${id} and account_id = ${viewer.id} returning comment_id`);
    if (changed.length) await tx.execute(sql`update comments set like_amount = like_amount + ${like ? 1 : -1} where id = ${id}`);
    if (changed.length) await noticeChange(tx, postId, row, like ? "liked" : "unliked");
    if (changed.length && like) await notifyLike(tx, { actorId: viewer.id, postId, commentId: id });
    const [after] = await tx.execute<{ like_amount: number }>(sql`select like_amount from comments where id = ${id}`);
    return { id, likeAmount: Number(after.like_amount), myLike: like };
  });
}

/** POST post/{postId}/comment/{id}/like — the viewer likes a comment (again: no change). */
export function likeComment({ ctx, input }: { ctx: ServiceCtx; input: { postId: unknown; id: unknown } }) {
  return toggleLike(ctx, input, true);
}

/** DELETE post/{postId}/comment/{id}/like — the viewer takes the like back. */
export function unlikeComment({ ctx, input }: { ctx: ServiceCtx; input: { postId: unknown; id: unknown } }) {
  return toggleLike(ctx, input, false);
}
