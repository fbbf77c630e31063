import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/**
 * Reports (issue 26 section 1, docs/adr/0126). One group per reported target while it is open: every report
 * of that target joins it (the queue shows one row per target, with its reporters and categories); once a
 * moderator resolves the group, a later report of the same target opens a new one. The snapshot of what
 * was reported lives on each report (`reports.snapshot`), so an edit or a delete afterwards hides nothing.
 */
export const reportGroups = pgTable(
  "report_groups",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** POST, COMMENT, MESSAGE or ACCOUNT. */
    targetType: text().notNull(),
    targetId: bigint({ mode: "number" }).notNull(),
    /** The author of the post, comment or message, or the account itself. */
    targetAccountId: bigint({ mode: "number" }).references(() => accounts.id, { onDelete: "set null" }),
    /** OPEN or RESOLVED. */
    status: text().notNull().default("OPEN"),
    reportsCount: integer().notNull().default(0),
    firstReportedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastReportedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** DISMISS, BLOCK_CONTENT or BLOCK_AUTHOR; the moderator, reason and time of the resolution. */
    action: text(),
    reason: text(),
    resolvedBy: bigint({ mode: "number" }).references(() => accounts.id, { onDelete: "set null" }),
    resolvedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    // At most one open group per target: a second report joins it (INSERT … ON CONFLICT).
    uniqueIndex("report_groups_open_target_key").on(t.targetType, t.targetId).where(sql`${t.status} = 'OPEN'`),
    // The queue: open groups newest first, and most-reported first — each ORDER BY is exactly its key.
    index("report_groups_open_newest_idx").on(t.lastReportedAt.desc(), t.id.desc()).where(sql`${t.status} = 'OPEN'`),
    index("report_groups_open_most_idx").on(t.reportsCount.desc(), t.lastReportedAt.desc(), t.id.desc()).where(sql`${t.status} = 'OPEN'`),
    // Resolved groups newest resolution first (status=RESOLVED).
    index("report_groups_resolved_idx").on(t.resolvedAt.desc(), t.id.desc()).where(sql`${t.status} = 'RESOLVED'`),
    // The author's history on a queue row: earlier groups against the same account.
    index("report_groups_target_account_idx").on(t.targetAccountId, t.id.desc()).where(sql`${t.targetAccountId} is not null`),
    check("report_groups_status", sql`${t.status} in ('OPEN', 'RESOLVED')`),
  ],
);

export const reports = pgTable(
  "reports",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    groupId: bigint({ mode: "number" })
      .notNull()
      .references(() => reportGroups.id, { onDelete: "cascade" }),
    reporterId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** SPAM, INSULT, VIOLENCE, ADULT, FRAUD or OTHER. */
    category: text().notNull(),
    comment: text(),
    /** The target as this reporter saw it (lib/server/services/reports/snapshot.ts). */
    snapshot: jsonb().$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One report per reporter in a group (the open target): a second one is a 409.
    uniqueIndex("reports_group_reporter_key").on(t.groupId, t.reporterId),
    // A deleted account's cascade.
    index("reports_reporter_idx").on(t.reporterId),
  ],
);

export type ReportGroupRow = typeof reportGroups.$inferSelect;
export type ReportRow = typeof reports.$inferSelect;
