import "server-only";
import { sql } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { personalise, recipientArray } from "@/lib/server/events/outbox";
import { getBoss, inTransaction, QUEUES } from "@/lib/server/jobs/boss";
import type { MessageDto } from "@/lib/validation/dialogs";
import type { NotificationDto } from "@/lib/validation/notifications-shared";

/**
 * One Web Push to one device: the notification as the bell shows it; the text is written at delivery, in
 * the device's language. A group conversation's message (issue 41) has no notification row: `groupMessage`
 * names it, and the notification is made from the message's event for the push alone.
 */
export type PushJob = { subscriptionId: number; accountId: number; notification: NotificationDto; groupMessage?: { dialogId: number; messageId: number } };

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
 * accounts, devices whose session ended (revoked or expired, not yet purged), notifications already read or gone (a block removes them: ADR 0114) and, for a grouped entry
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
    const rows = await tx.execute<{ subscription_id: string; account_id: string; endpoint: string; payload: unknown; subject_id: string | null }>(sql`
      select distinct on (s.id, x.nid) s.id as subscription_id, s.account_id, s.endpoint, e.payload, r.subject_id
      from events e
      join event_recipients r on r.event_id = e.id
      cross join lateral (select coalesce(r.subject_id, (e.payload->>'id')::bigint) as nid) x
      join push_subscriptions s on s.account_id = r.account_id
      join sessions ss on ss.id = s.session_id and ss.revoked_at is null and ss.expires_at > now()
      join notifications n on n.id = x.nid and n.receiver_id = r.account_id and not n.is_read
      join accounts a on a.id = r.account_id and not a.is_deleted
      where e.position > ${from} and e.position <= ${upto} and e.type = 'NOTIFICATION'
        and r.account_id <> all(${recipientArray([...live])}::bigint[])
        and not exists (select 1 from friendships b
                        where b.account_id = r.account_id and b.friend_id = n.author_id and b.status_code in ('BLOCKED', 'REJECTING'))
      order by s.id, x.nid, e.position desc`);
    const groupJobs = await groupMessagePushes(tx, from, upto, live);
    if (rows.length > 0 || groupJobs.length > 0) {
      const jobs = rows.map((r) => {
        const accountId = Number(r.account_id);
        const notification = (r.subject_id === null ? r.payload : personalise(r.payload, accountId, Number(r.subject_id))) as NotificationDto;
        const data: PushJob = { subscriptionId: Number(r.subscription_id), accountId, notification };
        // The push service's host is the job's group: the worker runs at most a few per host at once.
        return { data, group: { id: new URL(r.endpoint).host } };
      });
      jobs.push(...groupJobs);
      const boss = await getBoss();
      await boss.insert(QUEUES.push, jobs, { db: inTransaction(tx) });
    }
    await tx.execute(sql`update push_cursor set position = ${upto} where id = 1`);
    return rows.length + groupJobs.length;
  });
}

type GroupRow = { subscription_id: string; account_id: string; endpoint: string; payload: MessageDto; title: string };

/**
 * Pushes of group conversations' messages in the batch (docs/adr/0169): no notification row is written per
 * member per message, so the dispatcher reads the MESSAGE events themselves. One job per device and
 * conversation (the newest message of the batch: a burst collapses), for present members who did not write
 * it, have no socket here, did not mute the conversation, keep the MESSAGE switch on, were not mentioned in it
 * (a mention comes as its own notification) and did not block its author. Event lines are not pushed.
 */
async function groupMessagePushes(tx: Tx, from: number, upto: number, live: Iterable<number>) {
  const rows = await tx.execute<GroupRow>(sql`
    select distinct on (s.id, (e.payload->>'dialogId')::bigint) s.id as subscription_id, s.account_id, s.endpoint, e.payload, d.title
    from events e
    -- A group's event has one resume row for the conversation (docs/adr/0169): its recipients are the array.
    cross join lateral unnest(e.recipients) as r(account_id)
    join push_subscriptions s on s.account_id = r.account_id
    join sessions ss on ss.id = s.session_id and ss.revoked_at is null and ss.expires_at > now()
    join dialog_members me on me.dialog_id = (e.payload->>'dialogId')::bigint and me.account_id = r.account_id
      and me.left_message_id is null and (me.muted_until is null or me.muted_until <= now())
    join dialogs d on d.id = me.dialog_id
    join accounts a on a.id = r.account_id and not a.is_deleted
    where e.position > ${from} and e.position <= ${upto} and e.type = 'MESSAGE'
      and e.payload->>'recipientId' is null and e.payload->'event' = 'null'::jsonb
      and r.account_id <> (e.payload->>'authorId')::bigint
      and not coalesce(e.payload->'mentions' @> to_jsonb(r.account_id), false)
      and r.account_id <> all(${recipientArray([...live])}::bigint[])
      and not exists (select 1 from notification_settings ns where ns.account_id = r.account_id and not ns.enable_message)
      and not exists (select 1 from friendships b
                      where b.account_id = r.account_id and b.friend_id = (e.payload->>'authorId')::bigint and b.status_code in ('BLOCKED', 'REJECTING'))
    order by s.id, (e.payload->>'dialogId')::bigint, e.position desc`);
  return rows.map((r) => {
    const m = r.payload;
    const accountId = Number(r.account_id);
    const author = m.author ?? null;
    const notification: NotificationDto = {
      id: 0,
      notificationType: "MESSAGE",
      sentTime: m.time,
      content: m.messageText,
      isRead: false,
      data: {
        id: 0,
        notificationType: "MESSAGE",
        content: m.messageText,
        sentTime: m.time,
        authorId: m.authorId,
        receiverId: accountId,
        author,
        postId: null,
        commentId: null,
        dialogId: m.dialogId,
        count: 1,
        authors: author ? [author] : [],
      },
    };
    const data: PushJob = { subscriptionId: Number(r.subscription_id), accountId, notification, groupMessage: { dialogId: m.dialogId, messageId: m.id } };
    return { data, group: { id: new URL(r.endpoint).host } };
  });
}
