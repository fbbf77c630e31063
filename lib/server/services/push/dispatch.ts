import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { personalise, recipientArray } from "@/lib/server/events/outbox";
import { getBoss, inTransaction, QUEUES } from "@/lib/server/jobs/boss";
import type { NotificationDto } from "@/lib/validation/notifications-shared";

/** One Web Push to one device: the notification as the bell shows it; the text is written at delivery, in the device's language. */
export type PushJob = { subscriptionId: number; accountId: number; notification: NotificationDto };

/** Outbox positions read per dispatcher transaction. */
const BATCH = 1_000;

/**
 * The push dispatcher (docs/adr/0121): turns the sequenced NOTIFICATION events after the push cursor into
 * one `send-push` job per subscribed device, and moves the cursor, in one transaction. It runs in the
 * realtime sidecar after each drain; the cursor row is taken with SKIP LOCKED, so with several sidecars one
 * dispatches and the others skip. The outbox is the source: an event exists exactly when the change that
 * caused it committed, so the request that caused it pays nothing for push (the events are written anyway).
 *
 * Left out: accounts in `live` (a socket open on this sidecar: the tab shows it already), deleted
 * accounts, notifications already read or gone (a block removes them: ADR 0114) and, for a grouped entry
 * that was bumped several times in the batch, all but its newest state (one push per entry and device).
 * A block either way between the receiver and the author leaves the push out too. Returns the jobs queued.
 * The first run starts at the newest event: what happened before push existed is not pushed.
 */
export async function dispatchPushes(db: Db, live: Iterable<number> = []): Promise<number> {
  return db.transaction(async (tx) => {
    const [cursor] = await tx.execute<{ position: string }>(sql`select position from push_cursor where id = 1 for update skip locked`);
    if (!cursor) {
      await tx.execute(sql`insert into push_cursor (id, position) select 1, coalesce(max(position), 0) from events on conflict (id) do nothing`);
      return 0;
    }
    const from = Number(cursor.position);
    const [range] = await tx.execute<{ upto: string | null }>(sql`
      select max(position) as upto from (select position from events where position > ${from} order by position limit ${BATCH}) p`);
    if (range?.upto == null) return 0;
    const upto = Number(range.upto);
    const rows = await tx.execute<{ subscription_id: string; account_id: string; payload: unknown; subject_id: string | null }>(sql`
      select distinct on (s.id, x.nid) s.id as subscription_id, s.account_id, e.payload, r.subject_id
      from events e
      join event_recipients r on r.event_id = e.id
      cross join lateral (select coalesce(r.subject_id, (e.payload->>'id')::bigint) as nid) x
      join push_subscriptions s on s.account_id = r.account_id
      join notifications n on n.id = x.nid and n.receiver_id = r.account_id and not n.is_read
      join accounts a on a.id = r.account_id and not a.is_deleted
      where e.position > ${from} and e.position <= ${upto} and e.type = 'NOTIFICATION'
        and r.account_id <> all(${recipientArray([...live])}::bigint[])
        and not exists (select 1 from friendships b
                        where b.account_id = r.account_id and b.friend_id = n.author_id and b.status_code in ('BLOCKED', 'REJECTING'))
      order by s.id, x.nid, e.position desc`);
    if (rows.length > 0) {
      const jobs = rows.map((r) => {
        const accountId = Number(r.account_id);
        const notification = (r.subject_id === null ? r.payload : personalise(r.payload, accountId, Number(r.subject_id))) as NotificationDto;
        const data: PushJob = { subscriptionId: Number(r.subscription_id), accountId, notification };
        return { data };
      });
      const boss = await getBoss();
      await boss.insert(QUEUES.push, jobs, { db: inTransaction(tx) });
    }
    await tx.execute(sql`update push_cursor set position = ${upto} where id = 1`);
    return rows.length;
  });
}
