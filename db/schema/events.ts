import { bigint, index, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/**
 * The realtime outbox. A service appends an event in the same transaction as the change it reports;
 * the sidecar reads events in id order after NOTIFY. Ids are handed out under a transaction-scoped
 * advisory lock (see lib/server/events/outbox.ts) so id order equals commit order and a reader's
 * "everything after id N" never skips a late commit.
 */
export const events = pgTable(
  "events",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    type: text().notNull(),
    payload: jsonb().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  // The retention job deletes by age.
  (t) => [index("events_created_at_idx").on(t.createdAt)],
);

export const eventRecipients = pgTable(
  "event_recipients",
  {
    accountId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    eventId: bigint({ mode: "number" })
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    /**
     * A shared event (one for a whole fan-out, ADR 0070) names each recipient's own row here (their
     * notification id); the readers put it and the recipient into the payload (outbox.ts#personalise).
     * null: the payload is the same for every recipient.
     */
    subjectId: bigint({ mode: "number" }),
  },
  // Resume reads "events of account A after id N" as one range scan of this key.
  (t) => [primaryKey({ columns: [t.accountId, t.eventId] }), index("event_recipients_event_idx").on(t.eventId)],
);
