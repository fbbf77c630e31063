import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { eventRecipients, events } from "@/db/schema";

/** Postgres channel the sidecars LISTEN on; the payload is the new event id. */
export const EVENTS_CHANNEL = "krug_events";

// Serialises id assignment with commit: see db/schema/events.ts. Held from the append to commit,
// so append events as the last write of a transaction.
export const OUTBOX_LOCK = 7_311_002;

/**
 * An event as read from the outbox. `subjects` (parallel to `recipients`) marks a shared event: one row
 * for a whole fan-out whose payload differs per recipient only in the recipient's own row id.
 */
export type OutboxEvent = { id: number; type: string; data: unknown; recipients: number[]; subjects?: number[] };

/**
 * The payload of a shared event as one recipient receives it: `id` becomes their own row's id
 * (`subjectId`, e.g. their notification) and `data.receiverId` their account, the two fields in which
 * the rows of one fan-out differ (lib/server/services/notifications/produce.ts).
 */
export function personalise(payload: unknown, accountId: number, subjectId: number): unknown {
  const p = (payload ?? {}) as { data?: Record<string, unknown> };
  return { ...p, id: subjectId, data: { ...p.data, receiverId: accountId } };
}

/** One event per recipient, each with its own payload (a plain event stays as it is). */
export function perRecipient(e: OutboxEvent): OutboxEvent[] {
  const { subjects } = e;
  if (!subjects) return [e];
  return e.recipients.map((rid, i) => ({ id: e.id, type: e.type, recipients: [rid], data: personalise(e.data, rid, subjects[i]) }));
}

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

type Row = {
  id: string | number;
  type: string;
  payload: unknown;
  recipients: (string | number)[];
  /** Only for a shared event (then none is null). */
  subjects: (string | number)[] | null;
};

function toEvent(r: Row): OutboxEvent {
  const e: OutboxEvent = { id: Number(r.id), type: r.type, data: r.payload, recipients: r.recipients.map(Number) };
  if (r.subjects) e.subjects = r.subjects.map(Number);
  return e;
}

/** Events after `afterId` for any recipient, oldest first: the sidecar's fan-out read. */
export async function readEventsAfter(db: DbOrTx, afterId: number, limit = 500): Promise<OutboxEvent[]> {
  const rows = await db.execute<Row>(sql`
    select e.id, e.type, e.payload,
           array(select r.account_id from ${eventRecipients} r where r.event_id = e.id order by r.account_id) as recipients,
           case when exists (select 1 from ${eventRecipients} r where r.event_id = e.id and r.subject_id is not null)
             then array(select r.subject_id from ${eventRecipients} r where r.event_id = e.id order by r.account_id) end as subjects
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
    select e.id, e.type, e.payload, array[${accountId}::bigint] as recipients,
           case when r.subject_id is not null then array[r.subject_id] end as subjects
    from ${eventRecipients} r
    join ${events} e on e.id = r.event_id
    where r.account_id = ${accountId} and r.event_id > ${afterId}
    order by r.event_id
    limit ${limit}`);
  return rows.map((r) => perRecipient(toEvent(r))[0]);
}

/** The newest event id, where a fresh sidecar starts its fan-out cursor. */
export async function latestEventId(db: DbOrTx): Promise<number> {
  const [row] = await db.execute<{ id: string | null }>(sql`select max(id) as id from ${events}`);
  return Number(row?.id ?? 0);
}
