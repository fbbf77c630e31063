import "server-only";
import { sql } from "drizzle-orm";
import { afterCommit, type Db, type DbOrTx, type Tx } from "@/db/client";
import { eventRecipients, events } from "@/db/schema";

/** Postgres channel the sidecars LISTEN on: an event was appended, or a batch was sequenced. */
export const EVENTS_CHANNEL = "krug_events";

/** Events sequenced per sequencer transaction. */
const SEQUENCE_BATCH = 1_000;

/**
 * An event as read from the outbox; `id` is its position (the id on the wire). `subjects` (parallel to
 * `recipients`) marks a shared event: one row for a whole fan-out whose payload differs per recipient
 * only in the recipient's own row id.
 */
export type OutboxEvent = { id: number; type: string; data: unknown; recipients: number[]; subjects?: number[] };

/**
 * The payload of a shared event as one recipient receives it: `id` becomes their own row's id
 * (`subjectId`, e.g. their notification) and `data.receiverId` their account, the two fields in which
 * the rows of one fan-out differ (lib/server/services/notifications/produce.ts).
 */
export function personalise(payload: unknown, accountId: number, subjectId: number): unknown {
  const p = (payload ?? {}) as { data?: Record<string, unknown> };
  // A notification's data repeats its id (issue 29 §3): each recipient's own row there too.
  const own = p.data && "id" in p.data ? { id: subjectId } : {};
  return { ...p, id: subjectId, data: { ...p.data, ...own, receiverId: accountId } };
}

/** One event per recipient, each with its own payload (a plain event stays as it is). */
export function perRecipient(e: OutboxEvent): OutboxEvent[] {
  const { subjects } = e;
  if (!subjects) return [e];
  return e.recipients.map((rid, i) => ({ id: e.id, type: e.type, recipients: [rid], data: personalise(e.data, rid, subjects[i]) }));
}

/** The valid, distinct recipient ids as a Postgres array literal. */
export function recipientArray(recipients: number[]): string {
  return `{${[...new Set(recipients)].filter((id) => Number.isSafeInteger(id) && id > 0).join(",")}}`;
}

/**
 * Appends an event for `recipients` inside the caller's transaction, without any lock: it is delivered
 * once sequenced after commit. Postgres delivers the NOTIFY only when that transaction commits, and
 * never when it rolls back. Returns the event's row id (not its position, which does not exist yet).
 */
export async function appendEvent(
  tx: Tx,
  event: { type: string; recipients: number[]; data: unknown; channel?: number },
): Promise<number> {
  const recipients = recipientArray(event.recipients);
  if (recipients === "{}") throw new Error("an event needs at least one recipient");
  const [row] = await tx
    .insert(events)
    // A data-less event is stored as JSON null (the column is NOT NULL; clients ignore such frames).
    // A group conversation's event names its channel: one resume row for the conversation (docs/adr/0169).
    .values({ type: event.type, payload: sql`${JSON.stringify(event.data ?? null)}::jsonb`, recipients: sql`${recipients}::bigint[]`, channel: event.channel ?? null })
    .returning({ id: events.id });
  await notifyAppended(tx);
  return row.id;
}

/**
 * Appends an event for the `relations` of `accountId` (their friend ids: a post's audience) without
 * reading them out: the recipients array is built in the statement. Same delivery as `appendEvent`.
 */
export async function appendRelationEvent(
  tx: Tx,
  event: { type: string; accountId: number; relations: readonly ("FRIEND" | "WATCHING")[]; data: unknown },
): Promise<void> {
  const rows = await tx.execute<{ id: string }>(sql`
    insert into ${events} (type, payload, recipients)
    select ${event.type}, ${JSON.stringify(event.data ?? null)}::jsonb, r.ids
    from (select array_agg(f.friend_id) as ids from friendships f
          where f.account_id = ${event.accountId} and f.status_code = any(${`{${event.relations.join(",")}}`}::friend_status[])) r
    where r.ids is not null
    returning id`);
  if (rows.length > 0) await notifyAppended(tx);
}

/**
 * Wakes the sidecars to sequence and deliver, once the transaction has committed (ADR 0095). A NOTIFY
 * inside the transaction would be delivered at commit too, but Postgres serialises the commits of
 * notifying transactions (one cluster-wide lock, held through each commit's WAL flush), which capped
 * every producer together at one commit per fsync. After commit the wake-up is its own one-statement
 * transaction with an asynchronous commit: a NOTIFY needs no durability, so it never waits for a flush.
 * Inside a savepoint (no after-commit hook) it falls back to the in-transaction NOTIFY.
 */
export async function notifyAppended(tx: Tx): Promise<void> {
  if (wakeAfterCommit.has(tx)) return;
  if (afterCommit(tx, wakeSidecars)) {
    wakeAfterCommit.add(tx);
    return;
  }
  await tx.execute(sql`select pg_notify(${EVENTS_CHANNEL}, '')`);
}

const wakeAfterCommit = new WeakSet<Tx>();

/** Wakes the sidecars after events were appended by a statement outside any transaction (already committed). */
export function wakeSidecarsNow(db: Db): void {
  void wakeSidecars(db);
}

/**
 * Wake-ups of one pool coalesce (ADR 0096): while one NOTIFY is on its way, the commits that ask for
 * another are covered by a single NOTIFY sent as soon as it returns, which starts after each of those
 * commits. At 500 chat messages a second that is a fraction of a statement per message instead of one.
 * The committing caller does not wait for it: its answer does not depend on the wake-up.
 */
const waking = new WeakMap<Db, { again: boolean }>();

function wakeSidecars(db: Db): Promise<void> {
  const running = waking.get(db);
  if (running) {
    running.again = true;
    return Promise.resolve();
  }
  const state = { again: false };
  waking.set(db, state);
  void (async () => {
    try {
      do {
        state.again = false;
        await notifyOnce(db);
      } while (state.again);
    } finally {
      waking.delete(db);
    }
  })();
  return Promise.resolve();
}

/** One NOTIFY, committed without waiting for the WAL flush; a failure is left to the sidecars' re-drain. */
async function notifyOnce(db: Db): Promise<void> {
  try {
    await db.execute(sql`select set_config('synchronous_commit', 'off', true), pg_notify(${EVENTS_CHANNEL}, '')`);
  } catch {
    // The sidecars drain again on every re-LISTEN and every DRAIN_SWEEP_MS (realtime/hub.ts).
  }
}

/**
 * The sequencer: gives committed unsequenced events their positions, in id order, and writes their
 * recipients, one batch per call of the database function `outbox_sequence` (migration 0021: one
 * round trip, one commit), under the outbox advisory lock held to that commit. A batch's positions
 * are above every earlier batch's and become visible all at once, and the next batch starts only
 * after this one is visible, so a reader's "after position N" never skips one. Any number of sidecars
 * may call it: the lock takes them one at a time, and a late one finds nothing left. Returns how many
 * events it sequenced.
 */
export async function sequenceEvents(db: Db): Promise<number> {
  let total = 0;
  for (;;) {
    const [row] = await db.execute<{ n: number }>(sql`select outbox_sequence(${SEQUENCE_BATCH}) as n`);
    const n = Number(row?.n ?? 0);
    total += n;
    if (n < SEQUENCE_BATCH) return total;
  }
}

type Row = {
  position: string | number;
  type: string;
  payload: unknown;
  recipients: (string | number)[];
  /** Only for a shared event. */
  subjects: (string | number)[] | null;
};

function toEvent(r: Row): OutboxEvent {
  const e: OutboxEvent = { id: Number(r.position), type: r.type, data: r.payload, recipients: r.recipients.map(Number) };
  if (r.subjects) e.subjects = r.subjects.map(Number);
  return e;
}

/**
 * The sidecar's drain step in one round trip (`outbox_drain`, migration 0021): sequences a batch when
 * events wait, and returns the sequenced events after position `after`, in order, at most `limit`.
 * The rows arrive only once the call has committed, so nothing is delivered that could still roll back.
 */
export async function drainOutbox(db: Db, after: number, limit = 500): Promise<OutboxEvent[]> {
  const rows = await db.execute<Row>(sql`
    select position, type, payload, recipients, subjects from outbox_drain(${after}::bigint, ${SEQUENCE_BATCH}::int, ${limit}::int)`);
  return rows.map(toEvent);
}

/**
 * Events of one account after position `after`, in order: what a reconnecting client missed. Its own
 * rows, and its group conversations' channel rows (docs/adr/0169: one row per conversation event, under
 * −dialog id) whose events name it among their recipients — so nothing from before it joined or after it
 * left. One range scan of its own key, and one per conversation it is or was in.
 */
export async function readAccountEventsAfter(
  db: DbOrTx,
  accountId: number,
  after: number,
  limit = 500,
): Promise<OutboxEvent[]> {
  const rows = await db.execute<Row>(sql`
    select x.position, x.type, x.payload, array[${accountId}::bigint] as recipients, x.subjects from (
      (select r.position, e.type, e.payload, case when r.subject_id is not null then array[r.subject_id] end as subjects
       from ${eventRecipients} r
       join ${events} e on e.id = r.event_id
       where r.account_id = ${accountId} and r.position > ${after}
       order by r.position
       limit ${limit})
      union all
      (select c.position, c.type, c.payload, null::bigint[] as subjects
       from dialog_members w
       cross join lateral (
         select r.position, e.type, e.payload from ${eventRecipients} r
         join ${events} e on e.id = r.event_id
         where r.account_id = -w.dialog_id and r.position > ${after} and ${accountId}::bigint = any(e.recipients)
         order by r.position
         limit ${limit}) c
       where w.account_id = ${accountId} and w.partner_id is null)
    ) x
    order by x.position
    limit ${limit}`);
  return rows.map((r) => perRecipient(toEvent(r))[0]);
}

/** The newest position, where a fresh sidecar starts its fan-out cursor. */
export async function latestEventId(db: DbOrTx): Promise<number> {
  const [row] = await db.execute<{ position: string | null }>(sql`select max(position) as position from ${events}`);
  return Number(row?.position ?? 0);
}
