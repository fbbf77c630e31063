import { sql } from "drizzle-orm";
import { bigint, index, jsonb, pgSequence, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/** Positions of sequenced events (outbox_sequence, migration 0021); handed out only under the outbox lock. */
export const eventPositionSeq = pgSequence("events_position_seq");

/**
 * The realtime outbox (ADR 3, redesigned in ADR 32). A service appends an event in the same
 * transaction as the change it reports, without any lock: `position` is null then. After commit a
 * sequencer (any sidecar, on NOTIFY) gives committed events their `position`s in batches, in id order,
 * under one advisory lock held to its own commit, and writes their `event_recipients`. Positions
 * therefore become visible in increasing order only, and "everything after position N" (the fan-out
 * cursor, a client's lastEventId) never skips a late commit.
 */
export const events = pgTable(
  "events",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    type: text().notNull(),
    payload: jsonb().notNull(),
    /** Who receives it (set by the producer); the sequencer copies them to event_recipients. */
    recipients: bigint({ mode: "number" }).array().notNull(),
    /**
     * A shared event (one for a whole fan-out, ADR 0070): each recipient's own row (their notification
     * id), parallel to `recipients`; the readers put it and the recipient into the payload
     * (outbox.ts#personalise). null: the payload is the same for every recipient.
     */
    subjects: bigint({ mode: "number" }).array(),
    /**
     * A group conversation's event to all its present members (issue 41, docs/adr/0169): the dialog id. The
     * sequencer then writes one event_recipients row for the conversation (account_id = −dialog id)
     * instead of one per member; resume reads a member's conversations beside their own rows, keeping
     * only events whose `recipients` name them. Live delivery reads `recipients` as for any event.
     */
    channel: bigint({ mode: "number" }),
    /** The delivery order and the id on the wire; null until sequenced. */
    position: bigint({ mode: "number" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The retention job deletes by age.
    index("events_created_at_idx").on(t.createdAt),
    // The fan-out reads "after position N"; the sequencer finds the unsequenced rows.
    uniqueIndex("events_position_key").on(t.position),
    index("events_unsequenced_idx").on(t.id).where(sql`${t.position} is null`),
  ],
);

/**
 * Who receives a sequenced event: written by the sequencer, keyed for resume. No foreign keys (ADR
 * 0095): the sequencer writes a fan-out's 5,000 rows in its batch and would check each twice, while it
 * writes only existing accounts of existing events; the retention job deletes an event's rows with it
 * and an account's hard delete removes its rows (statement trigger, migration 0021).
 */
export const eventRecipients = pgTable(
  "event_recipients",
  {
    accountId: bigint({ mode: "number" }).notNull(),
    /** The event's position (a copy, so resume is one range scan of this key). */
    position: bigint({ mode: "number" }).notNull(),
    eventId: bigint({ mode: "number" }).notNull(),
    /** The recipient's own row of a shared event (see events.subjects); null otherwise. */
    subjectId: bigint({ mode: "number" }),
  },
  // Resume reads "events of account A after position N" as one range scan of this key.
  (t) => [primaryKey({ columns: [t.accountId, t.position] }), index("event_recipients_event_idx").on(t.eventId)],
);
