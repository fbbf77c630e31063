// The reference of post/*, comments, tag, storage (issue 29, docs/adr/0138). Requests: lib/validation/post.ts,
// comment.ts, post-reactors.ts, storage.ts; answers: strict objects shaped like PostDto, CommentDto ….
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { id, isoTime, pageOf, personCard, registerOperation, orNull } from "./api-common";
import { commentIdSchema, commentListQuery, createCommentInput, editCommentInput, replyInput } from "./comment";
import { createPostInput, editPostInput, postIdSchema, postListQuery, reactionInput, repostInput, feedQuery, tagSearchQuery } from "./post";
import { reactorsQuery } from "./post-reactors";
import { REACTION_TYPES } from "./reactions";
import { uploadQuery } from "./storage";

export const reactionType = z.enum(REACTION_TYPES).meta({ id: "ReactionType", description: "One of the 69 reaction ids (images at /post-reactions/{id}.svg).", example: "heart" });
const reactionCount = z.strictObject({ reactionType, count: z.number().int() }).meta({ id: "ReactionCount", example: { reactionType: "heart", count: 3 } });
const tag = z.strictObject({ id, name: z.string() }).meta({ id: "Tag", example: { id: 7, name: "горы" } });

const postFields = {
  id,
  authorId: id,
  author: personCard,
  title: z.string(),
  postText: z.string().meta({ description: "Sanitised HTML." }),
  imagePath: z.string().nullable(),
  tags: z.array(tag),
  publishDate: isoTime,
  type: z.enum(["POSTED", "QUEUED"]).meta({ description: "QUEUED while publishDate is in the future (only its author sees it)." }),
  time: isoTime,
  timeChanged: isoTime.nullable(),
  isDeleted: z.boolean(),
  isBlocked: z.boolean().meta({ description: "Blocked by a moderator: only its author and staff receive it." }),
  commentsCount: z.number().int(),
  likeAmount: z.number().int().meta({ description: "Reactions of every type." }),
  myLike: z.boolean(),
  myReaction: orNull(reactionType),
  reactionType: z.array(reactionCount).meta({ description: "Counts per type above 0, most used first." }),
  reactions: z.array(reactionCount).meta({ description: "The same list under the name the specification's clients read (issue 29 §3)." }),
  communityId: id.nullable().meta({ description: "A post on a community's wall: the community's id; null on a person's own wall." }),
  community: z
    .strictObject({ id, name: z.string(), photo: z.string().nullable(), type: z.enum(["OPEN", "CLOSED", "PRIVATE"]) })
    .nullable()
    .meta({ id: "PostCommunity", description: "The community the post stands in (its card's name and photo)." }),
  asCommunity: z.boolean().meta({ description: "Signed by the community (an admin's post): show the community, not the author." }),
};
const postExample = {
  id: 101, authorId: 42, author: { id: 42, firstName: "Анна", lastName: "Смирнова", photo: null }, title: "Поход на Эльбрус",
  postText: "<p>Вернулась с горы — делюсь фотографиями и маршрутом.</p>", imagePath: "/api/v1/storage/files/d4e5f6.webp",
  tags: [{ id: 7, name: "горы" }], publishDate: "2026-11-27T08:00:00.000Z", type: "POSTED", time: "2026-11-27T08:00:00.000Z", timeChanged: null,
  isDeleted: false, isBlocked: false, commentsCount: 2, likeAmount: 3, myLike: true, myReaction: "heart",
  reactionType: [{ reactionType: "heart", count: 2 }, { reactionType: "fire", count: 1 }], reactions: [{ reactionType: "heart", count: 2 }, { reactionType: "fire", count: 1 }], repostOf: null,
  communityId: null, community: null, asCommunity: false,
};
const repostGone = z.strictObject({ id, gone: z.enum(["DELETED", "HIDDEN"]) }).meta({ id: "RepostGone", description: "The original is deleted (DELETED) or the viewer may not read it (HIDDEN)." });
const original = z.strictObject({ ...postFields, repostOf: z.null() }).meta({ id: "RepostOriginal" });
export const postDto = z
  .strictObject({ ...postFields, repostOf: z.union([original, repostGone]).nullable().meta({ description: "A repost's original, or a marker; null for an ordinary post." }) })
  .meta({ id: "Post", example: postExample });
const postPage = pageOf(postDto, "PostPage");

export const commentDto = z
  .strictObject({
    id,
    postId: id,
    parentId: z.number().int().nullable(),
    authorId: id,
    author: personCard,
    commentText: z.string().meta({ description: "\"\" when deleted and the viewer is not the one who may restore it." }),
    time: isoTime,
    timeChanged: isoTime.nullable(),
    likeAmount: z.number().int(),
    myLike: z.boolean(),
    isDeleted: z.boolean(),
    is_deleted: z.boolean().meta({ description: "The spec's other spelling of isDeleted." }),
    isBlocked: z.boolean(),
    commentsCount: z.number().int(),
    canRecover: z.boolean(),
  })
  .meta({
    id: "Comment",
    example: { id: 501, postId: 101, parentId: null, authorId: 43, author: { id: 43, firstName: "Игорь", lastName: "Петров", photo: null }, commentText: "Какие виды! Завидую.", time: "2026-11-27T09:00:00.000Z", timeChanged: null, likeAmount: 1, myLike: false, isDeleted: false, is_deleted: false, isBlocked: false, commentsCount: 0, canRecover: false },
  });
const commentPage = pageOf(commentDto, "CommentPage");

const reactionResult = z
  .strictObject({ id, likeAmount: z.number().int(), myLike: z.boolean(), myReaction: orNull(reactionType), reactionType: z.array(reactionCount), reactions: z.array(reactionCount) })
  .meta({ id: "ReactionResult" });
const reactor = z
  .strictObject({ account: personCard, reactionType, createdAt: isoTime, isFriend: z.boolean() })
  .meta({ id: "Reactor" });
const uploaded = z
  .strictObject({ data: z.string(), fileName: z.string() })
  .meta({ id: "Uploaded", description: "The stored image's URL path (fileName repeats it for the specification's clients).", example: { data: "/api/v1/storage/files/d4e5f6.webp", fileName: "/api/v1/storage/files/d4e5f6.webp" } });

const postParams = z.object({ id: postIdSchema });
const commentParams = z.object({ id: postIdSchema, commentId: commentIdSchema });
const BLOCK = "A block between the viewer and the author, a closed page or a moderator's block hides the post (404).";

export function registerPostsApi(r: OpenAPIRegistry): void {
  const t = "Записи";
  registerOperation(r, {
    method: "get", path: "/api/v1/post", tag: t, access: "user", query: postListQuery, errors: [404],
    summary: "A wall, or the feed",
    description: "With accountId or accountIds: those accounts' walls, newest first, size 3 by default. Without them: the same as GET post/newsPosts. sort and isDeleted are accepted and ignored (the order is fixed, deleted posts are never listed).\n\nWith communityId (issue 42): that community's wall, newest first — an open community's for anyone, a closed one's for its members (others → 403), a private one → 404. A person's wall never lists their posts on communities' walls.",
    ok: { 200: { description: "A page of posts.", schema: postPage } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/post/newsPosts", tag: t, access: "user", query: feedQuery,
    summary: "The feed and post search",
    description: "withFriends=true: own, friends' and followed accounts' posts; otherwise every post the viewer may read. Filters: text, author, tags, dateFrom ≤ dateTo; size 5 by default. Blocked accounts' posts never appear.",
    ok: { 200: { description: "A page of posts.", schema: postPage } },
  });
  registerOperation(r, {
    method: "post", path: "/api/v1/post", tag: t, access: "user", body: createPostInput, rateLimited: true, errors: [404, 409],
    bodyExample: { title: "Поход на Эльбрус", postText: "<p>Вернулась с горы — делюсь фотографиями и маршрутом.</p>", tags: [{ name: "горы" }], imagePath: "/api/v1/storage/files/d4e5f6.webp", publishDate: null },
    summary: "Write a post",
    description: "Title longer than 3 characters (at most 200), HTML text longer than 7 (sanitised: only the editor's tags), at most 10 tags of at most 10 characters, an image stored here, publishDate in the future queues it (QUEUED). Server-owned fields are ignored. clientId (UUID) makes a retry answer the stored post; the same clientId for different content → 409. RATE_LIMIT_POST per account (reposts count too).\n\ncommunityId (issue 42): the post stands on that community's wall — its members post on a MEMBERS wall, its owner and admins on an ADMINS one (others → 403; a community the caller may not see → 404); asCommunity: true signs it as the community (owner and admins). Such a post is the community's: it is not on the author's wall and their followers are not notified.",
    ok: { 201: { description: "The new post.", schema: postDto } },
  });
  registerOperation(r, {
    method: "put", path: "/api/v1/post", tag: t, access: "user", body: editPostInput, errors: [404, 409], rateLimited: true,
    bodyExample: { id: 101, title: "Поход на Эльбрус (дополнено)", postText: "<p>Добавила карту маршрута.</p>" },
    summary: "Edit a post",
    description: "Only its author (others → 403). The same rules as writing one; absent tags or imagePath stay as they are. Edits, deletions and restorations of posts and comments share RATE_LIMIT_CONTENT_CHANGE per account.",
    ok: { 200: { description: "The post after the change.", schema: postDto } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/post/{id}", tag: t, access: "user", params: postParams,
    summary: "A post", description: `Deleted, unknown or not visible → 404. ${BLOCK}`,
    ok: { 200: { description: "The post.", schema: postDto } },
  });
  registerOperation(r, {
    method: "delete", path: "/api/v1/post/{id}", tag: t, access: "user", params: postParams, rateLimited: true,
    summary: "Delete a post", description: "Only its author (others → 403); restorable with PUT post/{id}/recover.",
    ok: { 200: { description: "Deleted.", schema: z.strictObject({ id, isDeleted: z.literal(true) }).meta({ id: "PostDeleted" }) } },
  });
  registerOperation(r, {
    method: "put", path: "/api/v1/post/{id}/recover", tag: t, access: "user", params: postParams, errors: [409], rateLimited: true,
    summary: "Restore a deleted post", description: "Only its author.",
    ok: { 200: { description: "The post again.", schema: postDto } },
  });
  registerOperation(r, {
    method: "post", path: "/api/v1/post/{id}/repost", tag: t, access: "user", params: postParams, body: repostInput, bodyRequired: false, rateLimited: true, errors: [409],
    bodyExample: { comment: "<p>Смотрите, какая красота!</p>" },
    summary: "Share a post on my wall",
    description: `An optional comment (post HTML rules). A repost of a repost points to the original. ${BLOCK} RATE_LIMIT_POST per account.`,
    ok: { 201: { description: "The new post (repostOf holds the original).", schema: postDto } },
  });
  registerOperation(r, {
    method: "post", path: "/api/v1/post/{id}/like", tag: t, access: "user", params: postParams, body: reactionInput, bodyRequired: false, rateLimited: true,
    bodyExample: { type: "POST", reactionType: "heart" },
    summary: "React to a post",
    description: `Sets or replaces the viewer's one reaction (no body: thumbs-up). ${BLOCK} RATE_LIMIT_REACTION per account.`,
    ok: { 200: { description: "The post's counts after the change.", schema: reactionResult } },
  });
  registerOperation(r, {
    method: "delete", path: "/api/v1/post/{id}/like", tag: t, access: "user", params: postParams, rateLimited: true,
    summary: "Take my reaction back", description: "Idempotent.",
    ok: { 200: { description: "The post's counts after the change.", schema: reactionResult } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/post/{id}/reactions", tag: t, access: "user", params: postParams, query: reactorsQuery,
    summary: "Who reacted", description: "People who reacted (one type or all), the viewer's friends first, then newest; page ≤ 5000, size ≤ 50; an unknown parameter → 400.",
    ok: { 200: { description: "A page of people.", schema: pageOf(reactor, "ReactorPage") } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/tag", tag: t, access: "user", query: tagSearchQuery,
    summary: "Tag suggestions", description: "At most 5 tags starting with the typed name, most used first (a plain array).",
    ok: { 200: { description: "Tags.", schema: z.array(tag) } },
  });
  registerOperation(r, {
    method: "post", path: "/api/v1/post/storagePostPhoto", tag: t, access: "user", query: uploadQuery, rateLimited: true, errors: [413, 415],
    summary: "Upload a post image", description: "multipart/form-data with the field file: JPEG, PNG, WebP or GIF up to the size limit; stored re-encoded. Per-account upload limit.",
    ok: { 200: { description: "The stored path.", schema: uploaded } },
  });

  const c = "Комментарии";
  registerOperation(r, {
    method: "get", path: "/api/v1/post/{id}/comment", tag: c, access: "user", params: postParams, query: commentListQuery,
    summary: "Comments of a post", description: `Top-level comments, newest first, size 5 by default. ${BLOCK} A blocked person's comments are left out.`,
    ok: { 200: { description: "A page of comments.", schema: commentPage } },
  });
  registerOperation(r, {
    method: "post", path: "/api/v1/post/{id}/comment", tag: c, access: "user", params: postParams, body: createCommentInput, rateLimited: true, errors: [409],
    bodyExample: { commentText: "Какие виды! Завидую.", parentId: null },
    summary: "Comment (or reply)", description: `parentId makes it a reply. Text 1–… characters, plain text. ${BLOCK} RATE_LIMIT_COMMENT per account.`,
    ok: { 201: { description: "The new comment.", schema: commentDto } },
  });
  registerOperation(r, {
    method: "put", path: "/api/v1/post/{id}/comment", tag: c, access: "user", params: postParams, body: editCommentInput, rateLimited: true,
    bodyExample: { id: 501, commentText: "Какие виды! Очень завидую." },
    summary: "Edit a comment", description: "Only its author.",
    ok: { 200: { description: "The comment after the change.", schema: commentDto } },
  });
  registerOperation(r, {
    method: "put", path: "/api/v1/post/{id}/comment/{commentId}", tag: c, access: "user", params: commentParams, body: replyInput, rateLimited: true, errors: [409],
    bodyExample: { commentText: "Спасибо!" },
    summary: "Reply to a comment", description: "The spec's reply call (commentId is the parent). RATE_LIMIT_COMMENT per account.",
    ok: { 201: { description: "The reply.", schema: commentDto } },
  });
  registerOperation(r, {
    method: "delete", path: "/api/v1/post/{id}/comment/{commentId}", tag: c, access: "user", params: commentParams, rateLimited: true,
    summary: "Delete a comment", description: "Its author, or the post's author; only whoever deleted it may restore it.",
    ok: { 200: { description: "The comment, deleted.", schema: commentDto } },
  });
  registerOperation(r, {
    method: "put", path: "/api/v1/post/{id}/comment/{commentId}/recover", tag: c, access: "user", params: commentParams, errors: [409], rateLimited: true,
    summary: "Restore a comment", description: "Only whoever deleted it; one that is not deleted → 409.",
    ok: { 200: { description: "The comment again.", schema: commentDto } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/post/{id}/comment/{commentId}/subcomment", tag: c, access: "user", params: commentParams, query: commentListQuery,
    summary: "Replies of a comment", description: "Oldest first, size 5 by default.",
    ok: { 200: { description: "A page of replies.", schema: commentPage } },
  });
  for (const method of ["post", "delete"] as const) {
    registerOperation(r, {
      method, path: "/api/v1/post/{id}/comment/{commentId}/like", tag: c, access: "user", params: commentParams, rateLimited: true,
      summary: method === "post" ? "Like a comment" : "Take a comment like back", description: "Toggles the viewer's like. RATE_LIMIT_REACTION per account.",
      ok: { 200: { description: "The comment's count after the change.", schema: z.strictObject({ id, likeAmount: z.number().int(), myLike: z.boolean() }).meta({ id: "CommentLikeResult" }) } },
    });
  }

  const s = "Файлы";
  registerOperation(r, {
    method: "post", path: "/api/v1/storage", tag: s, access: "user", query: uploadQuery, rateLimited: true, errors: [413, 415],
    summary: "Upload an image (photo, cover)", description: "multipart/form-data with the field file (type=IMAGE); JPEG, PNG, WebP or GIF; stored re-encoded under a random key.",
    ok: { 200: { description: "The stored path.", schema: uploaded } },
  });
  registerOperation(r, {
    method: "get", path: "/api/v1/storage/files/{key}", tag: s, access: "public", params: z.object({ key: z.string().max(200) }),
    summary: "A stored file", description: "Public by its unguessable key, cacheable forever (keys are never reused).",
    ok: { 200: { description: "The file.", schema: z.string().meta({ format: "binary" }), contentType: "image/*" } },
  });
}
