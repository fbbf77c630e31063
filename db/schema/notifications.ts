import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { posts } from "./posts";
import { NOTIFICATION_TYPES } from "../../lib/validation/notifications-shared";

/** The 13 notification types of spec section 3. */
export const notificationTypeEnum = pgEnum("notification_type", NOTIFICATION_TYPES);

/**
 * One notification of one receiver (issue 12, ADR 0070). Written by lib/server/services/notifications/
 * produce.ts in the same transaction as its cause. Unread notifications with the same group_key (likes
 * on one post, comments on one post, messages of one dialog) are one row: a new one bumps the row
 * (newest author, count, time) instead of adding another, so the bell says "Анна и ещё 4 оценили вашу
 * запись" and page 0 stays a plain index range scan.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    // No foreign keys on this table (ADR 0095): a fan-out would pay their checks once per row (five
    // trigger calls each), while the producer takes every id from the live rows it joins in the same
    // statement and the app never hard-deletes accounts, posts, comments or dialogs. Their deletes
    // still cascade here, set-based: statement triggers of migration 0021 (notifications_forget_*).
    receiverId: bigint({ mode: "number" }).notNull(),
    /** The newest person behind it; null for system notifications (SEND_EMAIL_MESSAGE) or an author gone for good. */
    authorId: bigint({ mode: "number" }),
    notificationType: notificationTypeEnum().notNull(),
    postId: bigint({ mode: "number" }),
    commentId: bigint({ mode: "number" }),
    dialogId: bigint({ mode: "number" }),
    /** Issue 42: the community a COMMUNITY_* entry is about. */
    communityId: bigint({ mode: "number" }),
    /** A short plain-text excerpt (post title, comment or message start, mail kind); never HTML. */
    content: text().notNull().default(""),
    /**
     * What a moderation notice is about (issue 40, docs/adr/0164): REPORT_RESOLVED's item (type and a short
     * quote) and CONTENT_BLOCKED's item and reason; null for every other type.
     */
    details: jsonb().$type<Record<string, unknown>>(),
    /** Unread entries with the same key collapse into this row; null: never grouped. */
    groupKey: text(),
    /** How many distinct people the entry stands for (1 unless grouped). */
    groupCount: integer().notNull().default(1),
    /** The people of a grouped entry, newest first (at most 50 kept; the first three are shown). */
    actorIds: bigint({ mode: "number" }).array().notNull().default(sql`'{}'::bigint[]`),
    sentTime: timestamp({ withTimezone: true }).notNull().defaultNow(),
    isRead: boolean().notNull().default(false),
  },
  (t) => [
    // Page 0 of the bell and /push: one receiver's notifications newest first (id breaks ties); the ORDER BY
    // of the list is exactly this key (asc reads it backwards), so page 0 is a short range scan at any size.
    index("notifications_receiver_time_idx").on(t.receiverId, t.sentTime.desc(), t.id.desc()),
    // The badge (count of unread) and "mark all read": only unread rows are in it, so both touch just them.
    index("notifications_receiver_unread_idx").on(t.receiverId).where(sql`not ${t.isRead}`),
    // At most one unread entry per group: the producers' INSERT … ON CONFLICT bumps it.
    uniqueIndex("notifications_unread_group_key")
      .on(t.receiverId, t.groupKey)
      .where(sql`not ${t.isRead} and ${t.groupKey} is not null`),
    // A hard delete of a comment or a dialog cascades here (the statement triggers); these partial
    // indexes keep it from scanning the table and cost a fan-out nothing (its rows have neither). The
    // author and the post have none (ADR 0095): a POST fan-out would add 5,000 entries to each, while
    // only a hard delete, which the app never does, looks rows up by them (one scan per statement).
    index("notifications_comment_idx").on(t.commentId).where(sql`${t.commentId} is not null`),
    index("notifications_dialog_idx").on(t.dialogId).where(sql`${t.dialogId} is not null`),
    check("notifications_group_count_positive", sql`${t.groupCount} >= 1`),
  ],
);

/**
 * Scheduled posts already announced (POST notifications and the feeds' POST_PUBLISHED event): the
 * publishing job (lib/server/jobs) announces each due post exactly once, whatever the ticks overlap.
 */
export const postAnnouncements = pgTable("post_announcements", {
  postId: bigint({ mode: "number" })
    .primaryKey()
    .references(() => posts.id, { onDelete: "cascade" }),
  announcedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Days a daily job (birthdays) already ran: the run row and its notifications commit together, so a day runs once. */
export const notificationJobRuns = pgTable("notification_job_runs", {
  job: text().notNull(),
  day: text().notNull(),
  ranAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex("notification_job_runs_key").on(t.job, t.day)]);

/**
 * Birthdays already announced, one row per account and (UTC) day: the birthday job runs every few
 * minutes and announces each birthday of the day once, a birth date set to today later in the day
 * included (issue 24 item 22). The job drops rows of earlier days.
 */
export const birthdayNotices = pgTable(
  "birthday_notices",
  {
    accountId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    day: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day] })],
);

/**
 * The e-mail digest (enableSendEmailMessage): when each account was last mailed and up to which
 * notification, so a person without an open socket gets at most one mail per 15 minutes, only about
 * notifications newer than the last mail.
 */
export const notificationDigests = pgTable("notification_digests", {
  accountId: bigint({ mode: "number" })
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  lastSentAt: timestamp({ withTimezone: true }).notNull(),
  lastNotificationId: bigint({ mode: "number" }).notNull(),
});
