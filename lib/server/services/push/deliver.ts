import "server-only";
import { sql } from "drizzle-orm";
import { createTranslator } from "next-intl";
import type { Job } from "pg-boss";
import type { PgBoss } from "pg-boss";
import webpush, { type Urgency } from "web-push";
import { getDb, type Db } from "@/db/client";
import { isLocale, type Locale } from "@/lib/i18n/config";
import { notificationHref, notificationText, type NotificationsTranslate } from "@/lib/notification-text";
import { getBoss, QUEUES } from "@/lib/server/jobs/boss";
import { log } from "@/lib/server/log";
import { appUrl } from "@/lib/server/services/auth/links";
import { excerpt } from "@/lib/server/services/notifications/produce";
import type { NotificationDto } from "@/lib/validation/notifications-shared";
import type { PushPayload } from "@/lib/validation/push";
import en from "@/messages/en.json";
import ru from "@/messages/ru.json";
import type { PushJob } from "./dispatch";
import { NonPublicEndpointError } from "./endpoint-address";
import { postPush, type PushSenderOptions } from "./send";
import { vapidKeys } from "./vapid";
import { processMetrics } from "@/lib/server/metrics/registry";

const dictionaries = { ru, en };

/** How a push travels: its payload and the headers of RFC 8030 (TTL, Urgency, Topic). */
export type PushMessage = { payload: PushPayload; ttl: number; urgency: Urgency; topic: string };

/**
 * The push of one notification in `language`: the same name and sentence as the bell, the author's photo,
 * where a click leads, and the tag/topic that collapses a burst — one per dialog, one per post and type
 * for grouped likes and comments, one per community for requests to join one (issue 42), else one per entry. Being added to a conversation (issue 41) has a tag of
 * its own for that conversation: its first messages do not replace the news that one is in it now.
 * Messages are urgent and kept a day; likes can wait and expire in four hours.
 */
export function pushMessage(n: NotificationDto, language: string): PushMessage {
  const locale: Locale = isLocale(language) ? language : "ru";
  const t = createTranslator({ locale, messages: dictionaries[locale], namespace: "notifications" }) as unknown as NotificationsTranslate;
  const { name, sentence } = notificationText(t, n);
  const photo = n.data.author?.photo ?? null;
  const icon = photo === null ? null : photo.startsWith("/") ? appUrl(photo) : photo;
  const type = n.notificationType;
  const tag =
    type === "GROUP_ADDED" && n.data.dialogId
      ? `added-${n.data.dialogId}`
      : type === "COMMUNITY_REQUEST" && n.data.communityId
        ? `${type}-${n.data.communityId}`
        : n.data.dialogId
        ? `dialog-${n.data.dialogId}`
        : n.data.postId && (n.data.count ?? 1) > 1
          ? `${type}-${n.data.postId}`
          : `n-${n.id}`;
  return {
    payload: { title: name, body: sentence, icon, url: notificationHref(n), tag, type },
    ttl: type === "LIKE" ? 4 * 3600 : 24 * 3600,
    urgency: type === "MESSAGE" ? "high" : type === "LIKE" ? "low" : "normal",
    // RFC 8030: at most 32 characters of the base64url alphabet.
    topic: tag.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 32),
  };
}

export type PushOutcome = "sent" | "gone" | "dropped" | "refused" | "skipped";

/** A device backed off after failures (its retry_after is ahead): the job waits for pg-boss's retry. */
export class PushBackedOffError extends Error {
  constructor(readonly subscriptionId: number) {
    super(`push device ${subscriptionId} is backed off`);
  }
}

/**
 * The worker's step for one job: encrypts the payload to the device's keys (RFC 8291), signs the VAPID
 * JWT (RFC 8292) and posts it (./send.ts: a public address only, no redirect, bounded in time).
 * 2xx: the device's last success moves and its failures are forgotten. 404/410: the subscription is dead
 * and deleted; so is one whose name now resolves to a non-public address ("refused"). A 3xx or another 4xx
 * (except 429) cannot get better by waiting: logged and dropped. A 429, a 5xx, a timeout or a network
 * failure backs the device off on its own (10 s, doubling, at most an hour) and throws: pg-boss tries the
 * job again with backoff, and while the device is backed off its jobs throw without connecting.
 * Skipped: the device left the account or its session ended, the entry was read, removed or comes from
 * someone blocked since it was queued, or — for a message — no unread message of that dialog is left (deleted
 * for everyone). The text is read now, not when the job was queued: an edited message is pushed as it reads
 * now, on every retry too.
 */
export async function deliverPush(db: Db, job: PushJob, options: PushSenderOptions = {}): Promise<PushOutcome> {
  const deliveries = processMetrics().push;
  try {
    const outcome = await deliverPushNow(db, job, options);
    deliveries.inc({ result: outcome });
    return outcome;
  } catch (err) {
    deliveries.inc({ result: "failed" });
    throw err;
  }
}

type Target = { endpoint: string; p256dh: string; auth: string; language: string; backed_off: boolean; content: string; is_message: boolean; message_text: string | null };

/**
 * A group message's push (docs/adr/0169): the device, and the newest message of the conversation that is
 * still unread by the member, not theirs, not deleted or hidden, not an event line — while they are still a
 * present member who has not muted it. Its text now, under the conversation's title.
 */
async function groupTarget(db: Db, job: PushJob): Promise<Target | undefined> {
  const g = job.groupMessage!;
  const [s] = await db.execute<Target & { title: string }>(sql`
    select s.endpoint, s.p256dh, s.auth, s.language, coalesce(s.retry_after > now(), false) as backed_off,
      '' as content, true as is_message, m.message_text, d.title
    from push_subscriptions s
    join sessions ss on ss.id = s.session_id and ss.revoked_at is null and ss.expires_at > now()
    join dialog_members me on me.dialog_id = ${g.dialogId} and me.account_id = s.account_id
      and me.left_message_id is null and (me.muted_until is null or me.muted_until <= now())
    join dialogs d on d.id = me.dialog_id
    left join lateral (
      select m.message_text, m.author_id from messages m
      where m.dialog_id = me.dialog_id and m.id > me.last_read_message_id and m.author_id <> me.account_id
        and m.deleted_at is null and m.event is null
        and not exists (select 1 from message_hides h where h.message_id = m.id and h.account_id = me.account_id)
      order by m.created_at desc, m.id desc limit 1) m on true
    where s.id = ${job.subscriptionId} and s.account_id = ${job.accountId}
      and not exists (select 1 from friendships b
                      where b.account_id = s.account_id and b.friend_id = m.author_id and b.status_code in ('BLOCKED', 'REJECTING'))`);
  if (!s || s.message_text === null) return s;
  // «House 5: text» — the conversation's name before the words (the title is the sender's name).
  return { ...s, message_text: `${s.title}: ${s.message_text}` };
}

async function deliverPushNow(db: Db, job: PushJob, options: PushSenderOptions): Promise<PushOutcome> {
  if (job.groupMessage) return sendTo(db, job, options, await groupTarget(db, job));
  const [s] = await db.execute<Target>(sql`
    select s.endpoint, s.p256dh, s.auth, s.language, coalesce(s.retry_after > now(), false) as backed_off,
      n.content, n.notification_type = 'MESSAGE' as is_message, m.message_text
    from push_subscriptions s
    join sessions ss on ss.id = s.session_id and ss.revoked_at is null and ss.expires_at > now()
    join notifications n on n.id = ${job.notification.id} and n.receiver_id = s.account_id and not n.is_read
    -- The newest message of the dialog still unread by the receiver and not deleted (for everyone or by them).
    left join lateral (
      -- In a group (a mention, issue 41): the newest message not the receiver's own, while they are in it.
      select m.message_text from messages m
      join dialog_members r on r.dialog_id = m.dialog_id and r.account_id = n.receiver_id
      where n.notification_type = 'MESSAGE' and m.dialog_id = n.dialog_id
        and (m.recipient_id = n.receiver_id
             or (m.recipient_id is null and m.author_id <> n.receiver_id and m.event is null and r.left_message_id is null))
        and m.deleted_at is null and m.id > r.last_read_message_id
        and not exists (select 1 from message_hides h where h.message_id = m.id and h.account_id = n.receiver_id)
      order by m.created_at desc, m.id desc limit 1) m on true
    where s.id = ${job.subscriptionId} and s.account_id = ${job.accountId}
      and not exists (select 1 from friendships b
                      where b.account_id = s.account_id and b.friend_id = n.author_id and b.status_code in ('BLOCKED', 'REJECTING'))`);
  return sendTo(db, job, options, s);
}

async function sendTo(db: Db, job: PushJob, options: PushSenderOptions, s: Target | undefined): Promise<PushOutcome> {
  if (!s || (s.is_message && s.message_text === null)) return "skipped";
  if (s.backed_off) throw new PushBackedOffError(job.subscriptionId);
  const content = s.is_message ? excerpt(s.message_text!) : s.content;
  const n: NotificationDto = { ...job.notification, content, data: { ...job.notification.data, content } };
  const message = pushMessage(n, s.language);
  const { publicKey, privateKey, subject } = vapidKeys();
  const request = webpush.generateRequestDetails({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }, JSON.stringify(message.payload), {
    vapidDetails: { subject, publicKey, privateKey },
    TTL: message.ttl,
    urgency: message.urgency,
    topic: message.topic,
  });
  let status: number;
  try {
    status = await postPush({ endpoint: s.endpoint, method: request.method, headers: request.headers, body: request.body }, options);
  } catch (err) {
    if (err instanceof NonPublicEndpointError) {
      log.warn({ subscriptionId: job.subscriptionId, host: err.hostname }, "push endpoint resolves to a non-public address; subscription removed");
      await db.execute(sql`delete from push_subscriptions where id = ${job.subscriptionId} and endpoint = ${s.endpoint}`);
      return "refused";
    }
    await backOff(db, job.subscriptionId);
    throw err;
  }
  if (status >= 200 && status < 300) {
    await db.execute(sql`update push_subscriptions set last_success_at = now(), failures = 0, retry_after = null where id = ${job.subscriptionId}`);
    return "sent";
  }
  if (status === 404 || status === 410) {
    await db.execute(sql`delete from push_subscriptions where id = ${job.subscriptionId} and endpoint = ${s.endpoint}`);
    return "gone";
  }
  if (status >= 300 && status < 500 && status !== 429) {
    log.warn({ status, subscriptionId: job.subscriptionId }, "push refused by the push service (or redirected); dropped");
    return "dropped";
  }
  await backOff(db, job.subscriptionId);
  throw new Error(`push service answered ${status}`);
}

/** One more failure in a row: the device waits 10 s × 2^(failures so far), at most an hour, before its next try. */
async function backOff(db: Db, subscriptionId: number): Promise<void> {
  await db.execute(sql`
    update push_subscriptions
    set failures = failures + 1, retry_after = now() + least(interval '1 hour', interval '10 seconds' * power(2, least(failures, 12)))
    where id = ${subscriptionId}`);
}

/**
 * How this process's push worker takes jobs (docs/adr/0163): up to 16 deliveries at once, at most 4 of them
 * to one push service host (a job's pg-boss group is its endpoint's host; a group at its limit is not
 * fetched, so the others' jobs go on). A device that never answers holds one slot for at most
 * PUSH_DELIVERY_TIMEOUT_MS, then is backed off on its own.
 */
export const PUSH_WORKER = { pollingIntervalSeconds: 1, batchSize: 1, localConcurrency: 16, localGroupConcurrency: 4 } as const;

/** Starts the push worker on `boss` (start-jobs.ts; tests pass the test-only sender options). */
export async function startPushWorker(boss: PgBoss, options: PushSenderOptions = {}): Promise<string> {
  return boss.work<PushJob>(QUEUES.push, PUSH_WORKER, async (jobs: Job<PushJob>[]) => {
    // One job per call (batchSize 1): a throw sends that job alone back for a retry with backoff.
    for (const job of jobs) await deliverPush(getDb(), job.data, options);
  });
}

/**
 * Delivers every push waiting on the queue now, in this process (tests; the app's worker does it
 * otherwise). A job that fails goes back for a retry (pg-boss backoff); returns each job's outcome or error.
 */
export async function drainPushQueue(db: Db, options: PushSenderOptions = {}): Promise<(PushOutcome | "failed")[]> {
  const boss = await getBoss();
  const outcomes: (PushOutcome | "failed")[] = [];
  for (;;) {
    const jobs = await boss.fetch<PushJob>(QUEUES.push, { batchSize: 20 });
    if (jobs.length === 0) return outcomes;
    for (const job of jobs) {
      try {
        outcomes.push(await deliverPush(db, job.data, options));
        await boss.complete(QUEUES.push, job.id);
      } catch (err) {
        await boss.fail(QUEUES.push, job.id, { message: String(err) });
        outcomes.push("failed");
      }
    }
  }
}
