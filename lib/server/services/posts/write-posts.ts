import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { CLIENT_ID_ERRORS } from "@/lib/validation/client-id";
import { appendRelationEvent } from "@/lib/server/events/outbox";
import { queueTimelineSync } from "./home-timeline";
import { queueFediversePost } from "@/lib/server/federation/outbox";
import { readCommunityRow, toCommunityDto, visible } from "../communities/access";
import { COMMUNITY_ERRORS } from "@/lib/validation/communities";
import { notifyCommunityPost, notifyPostPublished, notifyRepost } from "@/lib/server/services/notifications/producers";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "@/lib/server/http/errors";
import { consumeAccountLimits } from "@/lib/server/http/rate-limit";
import {
  createPostInput,
  editPostInput,
  postIdParams,
  POST_ERRORS,
  PUBLISH_DATE_GRACE_MS,
  charCount,
  repostInput,
  visibleText,
  type PostDto,
} from "@/lib/validation/post";
import type { ProfileVisibility } from "@/lib/validation/privacy";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { sanitizePostHtml } from "@/lib/validation/post-html";
import { postAudience } from "../privacy/rules";
import {
  assertCanWrite,
  assertStoredImage,
  bigintArray,
  attachTags,
  bumpTagCounts,
  cleanPostText,
  ensureTags,
  parseInput,
  readVisiblePost,
  visibleTo,
} from "./shared";

/** Outbox event telling followers' open feeds that a post appeared ("new posts" bar). */
export const POST_PUBLISHED_EVENT = "POST_PUBLISHED";

/** A post became visible: the feeds' POST_PUBLISHED event and the POST notifications (also run by the publishing job). */
export async function announce(tx: Tx, post: { id: number; authorId: number }) {
  const [author] = await tx.execute<{ profile_visibility: ProfileVisibility; community_id: string | null }>(sql`
    select a.profile_visibility, (select p.community_id from posts p where p.id = ${post.id}) as community_id
    from accounts a where a.id = ${post.authorId}`);
  // A community's post is the community's news, not its author's: their followers hear nothing of it; the
  // members who asked to hear of its posts do (issue 42), now or when a scheduled one reaches its time.
  if (author?.community_id) {
    await notifyCommunityPost(tx, { postId: post.id, communityId: Number(author.community_id), authorId: post.authorId });
    return;
  }
  const audience = postAudience(author?.profile_visibility ?? "ALL");
  await notifyPostPublished(tx, post, audience);
  // Its author's remote followers, when the author federates (issue 43).
  await queueFediversePost(tx, post.id, "create");
  // The audience (up to thousands of friends and subscribers) never leaves the database.
  await appendRelationEvent(tx, {
    type: POST_PUBLISHED_EVENT,
    accountId: post.authorId,
    relations: audience,
    data: { postId: post.id, authorId: post.authorId },
  });
}

/**
 * The viewer's post made under `clientId` (a retry): null when there is none; 409 when that id made a post
 * with another title; 404 when that post is gone since (deleted, or no longer visible to its author).
 */
async function replayPost(db: DbOrTx, viewerId: number, clientId: string, title: string): Promise<PostDto | null> {
  const [made] = await db.execute<{ id: string; title: string }>(sql`
    select id, title from posts where author_id = ${viewerId} and client_id = ${clientId}::uuid`);
  if (!made) return null;
  if (made.title !== title) throw new ConflictError(CLIENT_ID_ERRORS.reused);
  const post = await readVisiblePost(db, viewerId, Number(made.id));
  if (!post) throw new NotFoundError(POST_ERRORS.notFound);
  return post;
}

/**
 * A post on community `communityId`'s wall (issue 42): the community is there for the viewer (404), they
 * are its member and its wall takes their posts (a MEMBERS wall, or an admin's), and only its owner and
 * admins sign as the community (403). The community's row is read under a share lock, so a ban or a
 * removal committed first is seen.
 */
async function assertMayPostIn(tx: Tx, viewerId: number, communityId: number, asCommunity: boolean): Promise<void> {
  const row = await readCommunityRow(tx, viewerId, communityId, "share");
  if (!row || !visible(row, viewerId) || row.is_deleted) throw new NotFoundError(COMMUNITY_ERRORS.notFound);
  const dto = toCommunityDto(row);
  if (!dto.canPost) throw new ForbiddenError(COMMUNITY_ERRORS.notAllowed);
  if (asCommunity && dto.role !== "OWNER" && dto.role !== "ADMIN") throw new ForbiddenError(COMMUNITY_ERRORS.notAllowed);
}

/**
 * POST post — a new post by the viewer: published now, or QUEUED until a future publishDate.
 * Title and tags are plain text; the HTML is sanitised before it is stored; the image must be one
 * this server stored. Server-owned fields in the body are ignored.
 */
export async function createPost({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<PostDto> {
  const viewer = requireViewer(ctx);
  assertCanWrite(viewer);
  const data = parseInput(createPostInput, input);
  const clientId = data.clientId ?? null;
  // A retry of a post already made (its clientId): the same post again, nothing new, no limit spent (ADR 0144).
  const again = clientId ? await replayPost(ctx.tx ?? ctx.db, viewer.id, clientId, data.title) : null;
  if (again) return again;
  // RATE_LIMIT_POST per account (ADR 0109), counted before the sanitiser's work.
  await consumeAccountLimits(["post"], viewer.id);
  const postText = cleanPostText(data.postText);
  await assertStoredImage(data.imagePath);
  return withTransaction(ctx, async (tx) => {
    const communityId = data.communityId ?? null;
    const asCommunity = data.asCommunity === true;
    if (communityId !== null) await assertMayPostIn(tx, viewer.id, communityId, asCommunity);
    else if (asCommunity) throw new ValidationError(POST_ERRORS.badQuery, [{ path: "asCommunity", message: POST_ERRORS.badQuery }]);
    // Whether the post waits is the database's word (its clock decides visibility and the publishing
    // job): a time this server still saw ahead may have come by the time the row is written, and such
    // a post, neither announced here nor later than its creation for the job, reached nobody (ADR 115).
    const [row] = await tx.execute<{ id: string; queued: boolean }>(sql`
      insert into posts (author_id, title, post_text, image_path, publish_date, client_id, community_id, as_community)
      values (${viewer.id}, ${data.title}, ${postText}, ${data.imagePath},
              coalesce(${data.publishDate?.toISOString() ?? null}::timestamptz, now()), ${clientId}::uuid, ${communityId}, ${asCommunity})
      on conflict (author_id, client_id) where client_id is not null do nothing
      returning id, publish_date > time as queued`);
    // The same clientId committed by a concurrent attempt (this insert waited for it): that post.
    if (!row) return (await replayPost(tx, viewer.id, clientId!, data.title))!;
    const id = Number(row.id);
    await attachTags(tx, id, data.tags);
    if (!row.queued) await announce(tx, { id, authorId: viewer.id });
    // Its readers' home timelines: the job, queued with the post (docs/adr/0137); a community's post reaches
    // its members' timelines the same way, unless the community is read at request time (ADR 0188).
    await queueTimelineSync(tx, id);
    return (await readVisiblePost(tx, viewer.id, id))!;
  });
}

/**
 * POST post/{id}/repost {comment?} (issue 27) — the viewer shares a post on their own wall, with words of
 * their own (sanitised as a post's text) or none. Only a post the viewer may read now (published, no
 * block either way, the author's page open to them, not blocked by a moderator) can be shared; sharing a
 * repost shares its original. A new post of the wall: RATE_LIMIT_POST counts it, followers' feeds hear of
 * it (POST_PUBLISHED), and the original's author gets REPOST; all in one transaction.
 */
export async function repostPost({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown; body: unknown } }): Promise<PostDto> {
  const viewer = requireViewer(ctx);
  assertCanWrite(viewer);
  const { id } = parseInput(postIdParams, { id: input.id });
  const { comment } = parseInput(repostInput, input.body);
  await consumeAccountLimits(["post"], viewer.id);
  const clean = comment ? sanitizePostHtml(comment) : "";
  const text = charCount(visibleText(clean)) > 0 ? clean : "";
  return withTransaction(ctx, async (tx) => {
    // A closed or private community's post never leaves its members: only an open community's is shared (issue 42).
    const shareable = sql`${visibleTo(viewer.id, { ownQueued: false })} and not p.is_blocked
      and (p.community_id is null or exists (select 1 from communities oc where oc.id = p.community_id and oc.type = 'OPEN'))`;
    const [target] = await tx.execute<{ repost_of_id: string | null }>(sql`select p.repost_of_id from posts p where p.id = ${id} and ${shareable}`);
    if (!target) throw new NotFoundError(POST_ERRORS.notFound);
    const originalId = target.repost_of_id ? Number(target.repost_of_id) : id;
    // The original, as readable as the post shared; FOR KEY SHARE keeps the row (a soft delete still may pass).
    const [original] = await tx.execute<{ author_id: string; title: string }>(sql`
      select p.author_id, p.title from posts p where p.id = ${originalId} and ${shareable} for key share of p`);
    if (!original) throw new NotFoundError(POST_ERRORS.notFound);
    const [row] = await tx.execute<{ id: string }>(sql`
      insert into posts (author_id, title, post_text, repost_of_id) values (${viewer.id}, '', ${text}, ${originalId}) returning id`);
    const repostId = Number(row.id);
    const [author] = await tx.execute<{ profile_visibility: ProfileVisibility }>(sql`select profile_visibility from accounts where id = ${viewer.id}`);
    await appendRelationEvent(tx, {
      type: POST_PUBLISHED_EVENT,
      accountId: viewer.id,
      relations: postAudience(author?.profile_visibility ?? "ALL"),
      data: { postId: repostId, authorId: viewer.id },
    });
    await notifyRepost(tx, { actorId: viewer.id, repostId, originalId, originalAuthorId: Number(original.author_id), originalTitle: original.title });
    // An Announce to the reposter's remote followers and a remote original's author (issue 43).
    await queueFediversePost(tx, repostId, "create");
    await queueTimelineSync(tx, repostId);
    return (await readVisiblePost(tx, viewer.id, repostId))!;
  });
}

type Locked = { id: string; author_id: string; is_deleted: boolean; queued: boolean; repost: boolean };

/**
 * The post to change, locked; 404 when the viewer cannot see it at all (unknown, deleted, blocked,
 * someone else's scheduled post), 403 when they can but it is not theirs.
 */
async function lockOwnPost(tx: Tx, viewerId: number, id: number, opts: { moderate?: boolean } = {}): Promise<Locked> {
  const [row] = await tx.execute<Locked & { moderator: boolean }>(sql`
    select id, author_id, is_deleted, publish_date > now() as queued, repost_of_id is not null as repost,
      exists (select 1 from community_members m where m.community_id = posts.community_id and m.account_id = ${viewerId}
              and m.status = 'MEMBER' and m.role in ('OWNER', 'ADMIN', 'MODERATOR')) as moderator
    from posts where id = ${id} for no key update`);
  if (!row || row.is_deleted) throw new NotFoundError(POST_ERRORS.notFound);
  // A community's owner, admins and moderators remove its posts with the author's own DELETE (issue 42).
  if (opts.moderate && row.moderator) return row;
  if (Number(row.author_id) !== viewerId) {
    if (await readVisiblePost(tx, viewerId, id)) throw new ForbiddenError(POST_ERRORS.notAuthor);
    throw new NotFoundError(POST_ERRORS.notFound);
  }
  return row;
}

/**
 * PUT post — the author edits title, text, tags (absent: unchanged), image (absent: unchanged,
 * null: removed) and, while the post is still queued, its publish time (a new future time, or
 * null/false to publish now). A published post keeps its publish time.
 */
export async function editPost({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<PostDto> {
  const viewer = requireViewer(ctx);
  assertCanWrite(viewer);
  const data = parseInput(editPostInput, input);
  // RATE_LIMIT_CONTENT_CHANGE per account, counted before the sanitiser's work.
  await consumeAccountLimits(["contentChange"], viewer.id);
  const postText = cleanPostText(data.postText);
  await assertStoredImage(data.imagePath);
  return withTransaction(ctx, async (tx) => {
    const current = await lockOwnPost(tx, viewer.id, data.id);
    // A repost has no title or tags of its own to edit (issue 27): it is deleted and shared again.
    if (current.repost) throw new ConflictError(POST_ERRORS.repostNotEditable);
    let publishDate: string | null | undefined; // undefined: unchanged; null: now
    if (current.queued && data.publishDate !== undefined) {
      if (data.publishDate === null) publishDate = null;
      else if (data.publishDate.getTime() < Date.now() - PUBLISH_DATE_GRACE_MS) {
        throw new ValidationError(POST_ERRORS.scheduledInPast, [{ path: "publishDate", message: POST_ERRORS.scheduledInPast }]);
      } else publishDate = data.publishDate.getTime() > Date.now() ? data.publishDate.toISOString() : null;
    }
    await tx.execute(sql`
      update posts set
        title = ${data.title},
        post_text = ${postText},
        image_path = ${data.imagePath === undefined ? sql`image_path` : sql`${data.imagePath}`},
        publish_date = ${publishDate === undefined ? sql`publish_date` : sql`coalesce(${publishDate}::timestamptz, now())`},
        time_changed = now()
      where id = ${data.id}`);
    if (data.tags) {
      const wanted = await ensureTags(tx, data.tags);
      const had = (await tx.execute<{ tag_id: string }>(sql`select tag_id from post_tags where post_id = ${data.id}`)).map((r) => Number(r.tag_id));
      const added = wanted.filter((t) => !had.includes(t));
      const removed = had.filter((t) => !wanted.includes(t));
      if (removed.length) {
        await tx.execute(sql`delete from post_tags where post_id = ${data.id} and tag_id = any(${bigintArray(removed)})`);
        await bumpTagCounts(tx, removed, -1);
      }
      if (added.length) {
        await tx.execute(sql`insert into post_tags (post_id, tag_id) select ${data.id}, unnest(${bigintArray(added)})`);
        await bumpTagCounts(tx, added, 1);
      }
    }
    if (current.queued && publishDate === null) await announce(tx, { id: data.id, authorId: viewer.id });
    else if (!current.queued) await queueFediversePost(tx, data.id, "update");
    if (publishDate !== undefined) await queueTimelineSync(tx, data.id);
    return (await readVisiblePost(tx, viewer.id, data.id))!;
  });
}

/**
 * DELETE post/{id} — the author deletes a post (soft: it disappears everywhere, its tags count one use
 * less). A deletion is no edit: the post restored (recoverPost) keeps its own edit time.
 */
export async function deletePost({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<{ id: number; isDeleted: true }> {
  const viewer = requireViewer(ctx);
  const { id } = parseInput(postIdParams, input);
  await consumeAccountLimits(["contentChange"], viewer.id);
  return withTransaction(ctx, async (tx) => {
    const locked = await lockOwnPost(tx, viewer.id, id, { moderate: true });
    await tx.execute(sql`update posts set is_deleted = true where id = ${id}`);
    if (!locked.queued) await queueFediversePost(tx, id, "delete");
    const tagIds = (await tx.execute<{ tag_id: string }>(sql`select tag_id from post_tags where post_id = ${id}`)).map((r) => Number(r.tag_id));
    await bumpTagCounts(tx, tagIds, -1);
    await queueTimelineSync(tx, id);
    return { id, isDeleted: true as const };
  });
}

/**
 * PUT post/{id}/recover (issue 27) — the author restores a deleted post, as comments' …/recover does:
 * no time bound, 404 for a post the viewer cannot know of, 403 for someone else's visible post, 409 when
 * it is not deleted. The tags count it again in the same transaction; the post comes back where it was
 * (its publish time is unchanged) and is not announced again.
 */
export async function recoverPost({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<PostDto> {
  const viewer = requireViewer(ctx);
  assertCanWrite(viewer);
  const { id } = parseInput(postIdParams, input);
  await consumeAccountLimits(["contentChange"], viewer.id);
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.execute<{ author_id: string; is_deleted: boolean; queued: boolean }>(sql`
      select author_id, is_deleted, publish_date > now() as queued from posts where id = ${id} for no key update`);
    if (!row) throw new NotFoundError(POST_ERRORS.notFound);
    if (Number(row.author_id) !== viewer.id) {
      if (!row.is_deleted && (await readVisiblePost(tx, viewer.id, id))) throw new ForbiddenError(POST_ERRORS.notAuthor);
      throw new NotFoundError(POST_ERRORS.notFound);
    }
    if (!row.is_deleted) throw new ConflictError(POST_ERRORS.notDeleted);
    await tx.execute(sql`update posts set is_deleted = false where id = ${id}`);
    const tagIds = (await tx.execute<{ tag_id: string }>(sql`select tag_id from post_tags where post_id = ${id}`)).map((r) => Number(r.tag_id));
    await bumpTagCounts(tx, tagIds, 1);
    if (!row.queued) await queueFediversePost(tx, id, "create");
    await queueTimelineSync(tx, id);
    const post = await readVisiblePost(tx, viewer.id, id);
    // Restored but still not readable by its author (a moderator's block is seen by them; nothing else hides it): never expected.
    if (!post) throw new NotFoundError(POST_ERRORS.notFound);
    return post;
  });
}

/** GET post/{id} — one post; 404 when deleted, unknown, or not visible to the viewer. */
export async function getPost({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<PostDto> {
  const viewer = requireViewer(ctx);
  const { id } = parseInput(postIdParams, input);
  const post = await readVisiblePost(ctx.tx ?? ctx.db, viewer.id, id);
  if (!post) throw new NotFoundError(POST_ERRORS.notFound);
  return post;
}
