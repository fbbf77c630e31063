import { bigint, boolean, index, pgTable, primaryKey, timestamp } from "drizzle-orm/pg-core";

// The home timeline (issue 28 section 2, docs/adr/0137): fan-out on write. No foreign keys, as on
// notifications (docs/adr/0095): a fan-out of 5,000 rows would pay a trigger call and a parent probe per
// row; every id written comes from rows read in the same statement, and the app never hard-deletes
// accounts or posts (a hard delete by hand leaves rows the read-time check never shows).

/**
 * One row per (reader, post) for the posts of the reader's friends feed, newest first, kept to about
 * HOME_TIMELINE_N rows per reader. Scheduled posts are in it with their future time and appear when it
 * comes (the read asks publish_date <= now()). The key carries author_id so a page's read-time check
 * of the relation needs no heap visit.
 */
export const homeTimeline = pgTable(
  "home_timeline",
  {
    accountId: bigint({ mode: "number" }).notNull(),
    publishDate: timestamp({ withTimezone: true }).notNull(),
    postId: bigint({ mode: "number" }).notNull(),
    authorId: bigint({ mode: "number" }).notNull(),
  },
  (t) => [
    // A page: one reader's range read backwards (publish_date desc, post_id desc), stopped after the page.
    primaryKey({ columns: [t.accountId, t.publishDate, t.postId, t.authorId] }),
    // A post's rows (deleted, moderated, rescheduled: the post's sync removes or moves them), and whether one reader
    // has it (the page's count of posts waiting for their sync).
    index("home_timeline_post_idx").on(t.postId, t.accountId),
  ],
);

/**
 * Readers who have a timeline. `built` false: asked for (a visit found none) and not yet filled; the
 * fan-out already writes to it. Everything of the reader's feed newer than the horizon
 * (horizon_date, horizon_id) is in the timeline; null: everything is (the whole feed fits).
 */
export const homeTimelineState = pgTable("home_timeline_state", {
  accountId: bigint({ mode: "number" }).primaryKey(),
  built: boolean().notNull().default(false),
  horizonDate: timestamp({ withTimezone: true }),
  horizonId: bigint({ mode: "number" }),
  /** A read counted more than HOME_TIMELINE_N rows: the next sync cuts it back. */
  needsTrim: boolean().notNull().default(false),
  /** The last visit that found no built timeline, or the last rebuild. */
  visitedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Posts whose timelines are not yet right: written by a trigger on posts (new, deleted, recovered,
 * moderated, rescheduled) in the same transaction, removed by the sync job when it has fanned the post
 * out. Reads add these (a handful) to the page, so a post is in its readers' feeds the moment it commits.
 */
export const homeTimelinePending = pgTable("home_timeline_pending", {
  postId: bigint({ mode: "number" }).primaryKey(),
  authorId: bigint({ mode: "number" }).notNull(),
  publishDate: timestamp({ withTimezone: true }).notNull(),
});

/** Accounts deleted, restored, blocked, unblocked or whose page opened or closed: their followers' timelines are synced. */
export const homeTimelineAuthors = pgTable("home_timeline_authors", {
  authorId: bigint({ mode: "number" }).primaryKey(),
  changedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Communities deleted, restored, blocked, unblocked or passed to reading at request time (a trigger on
 * communities, ADR 0188): the job re-syncs their posts in their members' timelines.
 */
export const homeTimelineCommunities = pgTable("home_timeline_communities", {
  communityId: bigint({ mode: "number" }).primaryKey(),
  changedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
