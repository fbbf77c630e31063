import { sql } from "drizzle-orm";
import { bigint, check, index, pgEnum, pgTable, primaryKey, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

export const friendStatusEnum = pgEnum("friend_status", [
  "FRIEND",
  "REQUEST_TO",
  "REQUEST_FROM",
  "SUBSCRIBED",
  "WATCHING",
  "BLOCKED",
  "REJECTING",
]);

/**
 * One relation between two accounts, stored as two rows — each account's side of it
 * (A→B REQUEST_TO with B→A REQUEST_FROM, …). Both rows change in one transaction; a side with no
 * relation has no row. Keeping each side as its own row makes "my friends", "my requests" etc. one
 * index range scan.
 */
export const friendships = pgTable(
  "friendships",
  {
    // The relation row's own id (the "id" of the API's friend items). No index: nothing looks rows up by
    // it; the pair key below is the row's identity for every query.
    id: bigint({ mode: "number" }).notNull().generatedAlwaysAsIdentity(),
    accountId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    friendId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    statusCode: friendStatusEnum().notNull(),
    previousStatusCode: friendStatusEnum(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.friendId] }),
    // Tabs of /friends: one account's relations of one status, newest first, friend_id breaking ties so
    // page N is stable; the ORDER BY of the list queries is exactly this key. Carrying friend_id also
    // makes "my friends" / "friends of a friend" (recommendations) index-only scans and covers the
    // per-status counts.
    index("friendships_account_status_idx").on(t.accountId, t.statusCode, t.updatedAt.desc(), t.friendId.desc()),
    check("friendships_not_self", sql`${t.accountId} <> ${t.friendId}`),
  ],
);
