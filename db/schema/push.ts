import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { sessions } from "./sessions";

/**
 * One browser subscribed to Web Push (issue 25 section 2, ADR 0121): the push service's endpoint and
 * the keys the payload is encrypted to (RFC 8291). An endpoint belongs to one account at a time: a
 * browser signed in to another account moves its row there. A 404/410 from the push service deletes it.
 * It lives as long as the session that subscribed it (issue 40 item 3): a revoked session
 * deletes it (lib/server/services/auth/sessions.ts), a purged or erased one cascades here.
 */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** The sign-in that subscribed it: the device goes when that session ends. */
    sessionId: uuid()
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    endpoint: text().notNull(),
    /** The browser's P-256 public key, base64url (65 bytes decoded). */
    p256dh: text().notNull(),
    /** The browser's auth secret, base64url (16 bytes decoded). */
    auth: text().notNull(),
    /** The language its pushes are written in (ru or en), taken when it subscribed. */
    language: text().notNull(),
    /** "Chrome on Android" and the like, for the list of devices in settings. */
    userAgentLabel: text().notNull().default(""),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastSuccessAt: timestamp({ withTimezone: true }),
    /** Deliveries that failed in a row (timeout, network, 5xx, 429); a success sets it back to 0. */
    failures: integer().notNull().default(0),
    /** While in the future, this device is backed off: its jobs wait without connecting (issue 40 item 2). */
    retryAfter: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex("push_subscriptions_endpoint_key").on(t.endpoint),
    // "All of an account's devices": the settings list, the device cap and the dispatcher's join.
    index("push_subscriptions_account_idx").on(t.accountId, t.id),
    // A session's devices, when it ends (and the cascade of its purge).
    index("push_subscriptions_session_idx").on(t.sessionId),
  ],
);

/**
 * How far the push dispatcher has read the outbox (one row). A dispatcher holds the row locked while it
 * turns the events after `position` into delivery jobs and moves it on in the same transaction.
 */
export const pushCursor = pgTable("push_cursor", {
  id: integer().primaryKey(),
  position: bigint({ mode: "number" }).notNull(),
});
