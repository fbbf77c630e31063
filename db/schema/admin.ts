import { sql } from "drizzle-orm";
import { bigint, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/**
 * The audit log of staff actions (issue 13): who did what to which target, when and why. Append-only:
 * the app only inserts and reads it (docs/adr/0082); no route, service or page updates or deletes a row.
 * Ids are handed out in insertion order, so "newest first" is id order.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** The staff member; kept (null) if their account row is ever removed, so the record survives. */
    actorId: bigint({ mode: "number" }).references(() => accounts.id, { onDelete: "set null" }),
    /** USER_BLOCKED, USER_UNBLOCKED, ROLE_CHANGED, POST_BLOCKED, POST_UNBLOCKED, COMMENT_BLOCKED, COMMENT_UNBLOCKED. */
    action: text().notNull(),
    /** ACCOUNT, POST or COMMENT. */
    targetType: text().notNull(),
    targetId: bigint({ mode: "number" }).notNull(),
    /** The account the target belongs to (the account itself, or the author of the post or comment): a user's card lists these. */
    targetAccountId: bigint({ mode: "number" }),
    reason: text(),
    /** Action details, e.g. a role change's {from, to}. */
    details: jsonb().$type<Record<string, unknown>>(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A user's card: the actions on that account and its content, newest first.
    index("audit_log_target_account_idx").on(t.targetAccountId, t.id.desc()).where(sql`${t.targetAccountId} is not null`),
  ],
);

export type AuditRow = typeof auditLog.$inferSelect;
