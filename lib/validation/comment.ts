import { z } from "zod";
import { clientIdField } from "./client-id";
import { postIdSchema, type PostAuthor } from "./post";
import type { Paged } from "./friends";
import { COMMENT_PAGE_SIZE, COMMENT_TEXT_MAX } from "./comment-shared";
import { textString } from "./text";

// Shared by the comment routes, the services (which parse), the comment UI and its SWR hooks.
// Messages are keys of messages/*.json (namespace commentErrors); the API translates them.

export * from "./comment-shared";
export const COMMENT_PAGE_SIZE_MAX = 50;

export const COMMENT_ERRORS = {
  textRequired: "commentErrors.textRequired",
  textTooLong: "commentErrors.textTooLong",
  badId: "commentErrors.badId",
  badQuery: "commentErrors.badQuery",
  notFound: "commentErrors.notFound",
  postNotFound: "commentErrors.postNotFound",
  notAuthor: "commentErrors.notAuthor",
  parentInvalid: "commentErrors.parentInvalid",
  notDeleted: "commentErrors.notDeleted",
  viewerDeleted: "commentErrors.viewerDeleted",
} as const;

/** Plain text (links are made clickable on render, nothing else means anything): ends trimmed, never cut. */
export const commentTextSchema = textString(COMMENT_ERRORS.textRequired)
  .transform((v) => v.replace(/\r\n?/g, "\n").trim())
  .refine((v) => v.length > 0, COMMENT_ERRORS.textRequired)
  .refine((v) => Array.from(v).length <= COMMENT_TEXT_MAX, COMMENT_ERRORS.textTooLong);

export const commentIdSchema = z.union(
  [
    z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    z
      .string()
      .regex(/^[1-9]\d{0,15}$/)
      .transform(Number)
      .refine(Number.isSafeInteger),
  ],
  { error: COMMENT_ERRORS.badId },
);

/** Path parameters: post/{postId}/comment/{id}. */
export const commentPathParams = z.object({ postId: postIdSchema, id: commentIdSchema });
export const postPathParams = z.object({ postId: postIdSchema });

/** POST post/{postId}/comment {parentId?, commentText}: a comment, or a reply when parentId is given. */
export const createCommentInput = z.object({
  parentId: z.union([z.null(), commentIdSchema]).optional(),
  commentText: commentTextSchema,
  /** Optional: a retry with the same id answers the comment already made (docs/adr/0144). */
  clientId: clientIdField.optional(),
});
export type CreateCommentInput = z.input<typeof createCommentInput>;

/** PUT post/{postId}/comment/{parentId} {commentText}: a reply. */
export const replyInput = z.object({ commentText: commentTextSchema, clientId: clientIdField.optional() });

/** PUT post/{postId}/comment {id, commentText}: an edit by the author. */
export const editCommentInput = z.object({ id: commentIdSchema, commentText: commentTextSchema });
export type EditCommentInput = z.input<typeof editCommentInput>;

/** GET post/{postId}/comment and …/subcomment: page (below 0 is 0), size; sort and isDeleted accepted, fixed. */
export const commentListQuery = z.preprocess(
  (raw) => (raw && typeof raw === "object" ? Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== "" && v != null)) : raw),
  z.object({
    page: z.coerce.number({ error: COMMENT_ERRORS.badQuery }).int(COMMENT_ERRORS.badQuery).max(100_000, COMMENT_ERRORS.badQuery).transform((n) => Math.max(0, n)).default(0),
    size: z.coerce.number({ error: COMMENT_ERRORS.badQuery }).int(COMMENT_ERRORS.badQuery).min(1, COMMENT_ERRORS.badQuery).max(COMMENT_PAGE_SIZE_MAX, COMMENT_ERRORS.badQuery).default(COMMENT_PAGE_SIZE),
    sort: z.string().max(40).optional(),
    isDeleted: z.string().max(10).optional(),
  }),
);
export type CommentListQuery = z.input<typeof commentListQuery>;

/** The Comment DTO (spec section 3): every key always present. */
export type CommentDto = {
  id: number;
  postId: number;
  /** The top-level comment a reply belongs to; null for a top-level comment. */
  parentId: number | null;
  authorId: number;
  author: PostAuthor;
  /** "" when deleted and the viewer is not its author (the placeholder). */
  commentText: string;
  time: string;
  timeChanged: string | null;
  likeAmount: number;
  myLike: boolean;
  isDeleted: boolean;
  /** The spec's other spelling of isDeleted. */
  is_deleted: boolean;
  /** Blocked by a moderator (issue 13): only its author (who sees it marked) and staff receive it. */
  isBlocked: boolean;
  /** Replies (non-deleted) of a top-level comment; 0 for a reply. */
  commentsCount: number;
  /**
   * Issue 27: the viewer may restore it — it is deleted and the viewer deleted it (its author, or the post's
   * author, who may delete others' comments on their own post).
   */
  canRecover: boolean;
};

export type CommentPage = Paged<CommentDto>;
export type CommentLikeResult = Pick<CommentDto, "id" | "likeAmount" | "myLike">;
