import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { posts } from "./posts";

/**
 * Comments (issue 10), two levels as in VK: a top-level comment (parent_id null) and its replies
 * (parent_id = the top-level comment; a reply to a reply is stored under the same top-level comment).
 * like_amount and comments_count (replies) change in the same transaction as what they count.
 */
export const comments = pgTable(
  "comments",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    postId: bigint({ mode: "number" })
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    parentId: bigint({ mode: "number" }).references((): AnyPgColumn => comments.id, { onDelete: "cascade" }),
    authorId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    commentText: text().notNull(),
    time: timestamp({ withTimezone: true }).notNull().defaultNow(),
    timeChanged: timestamp({ withTimezone: true }),
    isDeleted: boolean().notNull().default(false),
    /**
     * Issue 27: who deleted it while it is deleted — its author, or the post's author (who may delete others'
     * comments on their own post). Only that person may restore it; null for comments deleted before.
     */
    deletedBy: bigint({ mode: "number" }),
    /** Blocked by a moderator (issue 13): hidden from everyone but its author (who sees it marked) and staff. */
    isBlocked: boolean().notNull().default(false),
    likeAmount: integer().notNull().default(0),
    commentsCount: integer().notNull().default(0),
    /** The author client's id for this comment (optional, a UUID): a retry answers the comment already made (docs/adr/0144). */
    clientId: uuid(),
  },
  (t) => [
    // A post's top-level comments, newest first, id breaking ties: the ORDER BY of GET post/{id}/comment.
    index("comments_post_top_idx").on(t.postId, t.time.desc(), t.id.desc()).where(sql`${t.parentId} is null`),
    // A comment's replies, oldest first (a conversation reads downwards).
    index("comments_parent_idx").on(t.parentId, t.time, t.id).where(sql`${t.parentId} is not null`),
    // Statistics and the admin list (issue 13): comments by creation time, newest first.
    index("comments_time_idx").on(t.time.desc(), t.id.desc()),
    // A user's comments newest first (the admin user card); also serves the account-deletion cascade.
    index("comments_author_idx").on(t.authorId, t.time.desc(), t.id.desc()),
    // Idempotent commenting: (author, clientId) is unique where a clientId was sent (docs/adr/0144).
    uniqueIndex("comments_author_client_key").on(t.authorId, t.clientId).where(sql`${t.clientId} is not null`),
    check("comments_counts_not_negative", sql`${t.likeAmount} >= 0 and ${t.commentsCount} >= 0`),
  ],
);

/** One like per person per comment: the primary key is the pair. */
export const commentLikes = pgTable(
  "comment_likes",
  {
    commentId: bigint({ mode: "number" })
      .notNull()
      .references(() => comments.id, { onDelete: "cascade" }),
    accountId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  // Deleting an account cascades through its likes.
  (t) => [primaryKey({ columns: [t.commentId, t.accountId] }), index("comment_likes_account_idx").on(t.accountId)],
);
