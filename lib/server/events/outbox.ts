import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { eventRecipients, events } from "@/db/schema";

/** Postgres channel the sidecars LISTEN on; the payload is the new event id. */
export const EVENTS_CHANNEL = "krug_events";

// Serialises id assignment with commit: see db/schema/events.ts. Held from the append to commit,
// so append events as the last write of a transaction.
export const OUTBOX_LOCK = 7_311_002;

export type OutboxEvent = { id: number; type: string; data: unknown; recipients: number[] };

/**
 * Appends an event for `recipients` inside the caller's transaction. Postgres delivers the NOTIFY
 * only when that transaction commits, and never when it rolls back.
 */
export async function appendEvent(
  tx: Tx,
  event: { type: string; recipients: number[]; data: unknown },
): Promise<number> {
  const recipients = [...new Set(event.recipients)].filter((id) => Number.isSafeInteger(id) && id > 0);
  if (recipients.length === 0) throw new Error("an event needs at least one recipient");
  await tx.execute(sql`select pg_advisory_xact_lock(${OUTBOX_LOCK})`);
  const [row] = await tx
    .insert(events)
    // A data-less event is stored as JSON null (the column is NOT NULL; clients ignore such frames).
    .values({ type: event.type, payload: sql`${JSON.stringify(event.data ?? null)}::jsonb` })
    .returning({ id: events.id });
  await tx.insert(eventRecipients).values(recipients.map((accountId) => ({ accountId, eventId: row.id })));
  await tx.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${String(row.id)})`);
  return row.id;
}

type Row = { id: string | number; type: string; payload: unknown; recipients: (string | number)[] };

function toEvent(r: Row): OutboxEvent {
  return { id: Number(r.id), type: r.type, data: r.payload, recipients: r.recipients.map(Number) };
}

/** Events after `afterId` for any recipient, oldest first: the sidecar's fan-out read. */
export async function readEventsAfter(db: DbOrTx, afterId: number, limit = 500): Promise<OutboxEvent[]> {
  const rows = await db.execute<Row>(sql`
    select e.id, e.type, e.payload,
           array(select r.account_id from ${eventRecipients} r where r.event_id = e.id) as recipients
    from ${events} e
    where e.id > ${afterId}
    order by e.id
    limit ${limit}`);
  return rows.map(toEvent);
}

/** Events of one account after `afterId`, oldest first: what a reconnecting client missed. */
export async function readAccountEventsAfter(
  db: DbOrTx,
  accountId: number,
  afterId: number,
  limit = 500,
): Promise<OutboxEvent[]> {
  const rows = await db.execute<Row>(sql`
    select e.id, e.type, e.payload, array[${accountId}::bigint] as recipients
    from ${eventRecipients} r
    join ${events} e on e.id = r.event_id
    where r.account_id = ${accountId} and r.event_id > ${afterId}
    order by r.event_id
    limit ${limit}`);
  return rows.map(toEvent);
}

/** The newest event id, where a fresh sidecar starts its fan-out cursor. */
export async function latestEventId(db: DbOrTx): Promise<number> {
  const [row] = await db.execute<{ id: string | null }>(sql`select max(id) as id from ${events}`);
  return Number(row?.id ?? 0);
}
