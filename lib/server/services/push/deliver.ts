import "server-only";
import type { Agent } from "node:https";
import { sql } from "drizzle-orm";
import { createTranslator } from "next-intl";
import type { Job } from "pg-boss";
import webpush, { WebPushError, type Urgency } from "web-push";
import { getDb, type Db } from "@/db/client";
import { isLocale, type Locale } from "@/lib/i18n/config";
import { notificationHref, notificationText, type NotificationsTranslate } from "@/lib/notification-text";
import { getBoss, QUEUES } from "@/lib/server/jobs/boss";
import { log } from "@/lib/server/log";
import { appUrl } from "@/lib/server/services/auth/links";
import type { NotificationDto } from "@/lib/validation/notifications-shared";
import type { PushPayload } from "@/lib/validation/push";
import en from "@/messages/en.json";
import ru from "@/messages/ru.json";
import type { PushJob } from "./dispatch";
import { vapidKeys } from "./vapid";
import { processMetrics } from "@/lib/server/metrics/registry";

const dictionaries = { ru, en };

/** How a push travels: its payload and the headers of RFC 8030 (TTL, Urgency, Topic). */
export type PushMessage = { payload: PushPayload; ttl: number; urgency: Urgency; topic: string };

/**
 * The push of one notification in `language`: the same name and sentence as the bell, the author's photo,
 * where a click leads, and the tag/topic that collapses a burst — one per dialog, one per post and type
 * for grouped likes and comments, else one per entry. Messages are urgent and kept a day; likes can wait
 * and expire in four hours.
 */
export function pushMessage(n: NotificationDto, language: string): PushMessage {
  const locale: Locale = isLocale(language) ? language : "ru";
  const t = createTranslator({ locale, messages: dictionaries[locale], namespace: "notifications" }) as unknown as NotificationsTranslate;
  const { name, sentence } = notificationText(t, n);
  const photo = n.data.author?.photo ?? null;
  const icon = photo === null ? null : photo.startsWith("/") ? appUrl(photo) : photo;
  const tag = n.data.dialogId ? `dialog-${n.data.dialogId}` : n.data.postId && (n.data.count ?? 1) > 1 ? `${n.notificationType}-${n.data.postId}` : `n-${n.id}`;
  const type = n.notificationType;
  return {
    payload: { title: name, body: sentence, icon, url: notificationHref(n), tag, type },
    ttl: type === "LIKE" ? 4 * 3600 : 24 * 3600,
    urgency: type === "MESSAGE" ? "high" : type === "LIKE" ? "low" : "normal",
    // RFC 8030: at most 32 characters of the base64url alphabet.
    topic: tag.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 32),
  };
}

export type PushOutcome = "sent" | "gone" | "dropped" | "skipped";

/**
 * The worker's step for one job: encrypts the payload to the device's keys (RFC 8291), signs the VAPID
 * JWT (RFC 8292) and posts it. 201: the device's last success moves. 404/410: the subscription is dead
 * and deleted. Another 4xx (except 429) cannot get better by waiting: logged and dropped. A 429, a 5xx or
 * a network failure throws, and pg-boss tries again with backoff. Skipped: the device left the account,
 * or the entry was read, removed or comes from someone blocked since it was queued.
 */
export async function deliverPush(db: Db, job: PushJob, options: { agent?: Agent } = {}): Promise<PushOutcome> {
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

async function deliverPushNow(db: Db, job: PushJob, options: { agent?: Agent }): Promise<PushOutcome> {
  const n = job.notification;
  const [s] = await db.execute<{ endpoint: string; p256dh: string; auth: string; language: string }>(sql`
    select s.endpoint, s.p256dh, s.auth, s.language
    from push_subscriptions s
    join notifications n on n.id = ${n.id} and n.receiver_id = s.account_id and not n.is_read
    where s.id = ${job.subscriptionId} and s.account_id = ${job.accountId}
      and not exists (select 1 from friendships b
                      where b.account_id = s.account_id and b.friend_id = n.author_id and b.status_code in ('BLOCKED', 'REJECTING'))`);
  if (!s) return "skipped";
  const message = pushMessage(n, s.language);
  const { publicKey, privateKey, subject } = vapidKeys();
  try {
    await webpush.sendNotification({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }, JSON.stringify(message.payload), {
      vapidDetails: { subject, publicKey, privateKey },
      TTL: message.ttl,
      urgency: message.urgency,
      topic: message.topic,
      timeout: 15_000,
      agent: options.agent,
    });
  } catch (err) {
    if (!(err instanceof WebPushError)) throw err;
    if (err.statusCode === 404 || err.statusCode === 410) {
      await db.execute(sql`delete from push_subscriptions where id = ${job.subscriptionId} and endpoint = ${s.endpoint}`);
      return "gone";
    }
    if (err.statusCode >= 400 && err.statusCode < 500 && err.statusCode !== 429) {
      log.warn({ status: err.statusCode, subscriptionId: job.subscriptionId }, "push refused by the push service; dropped");
      return "dropped";
    }
    throw new Error(`push service answered ${err.statusCode}`);
  }
  await db.execute(sql`update push_subscriptions set last_success_at = now() where id = ${job.subscriptionId}`);
  return "sent";
}

/** The pg-boss worker: one job at a time (a throw sends that job back for a retry with backoff). */
export async function deliverPushJobs(jobs: Job<PushJob>[]): Promise<void> {
  for (const job of jobs) await deliverPush(getDb(), job.data);
}

/**
 * Delivers every push waiting on the queue now, in this process (tests; the app's worker does it
 * otherwise). A job that fails goes back for a retry (pg-boss backoff); returns each job's outcome or error.
 */
export async function drainPushQueue(db: Db, options: { agent?: Agent } = {}): Promise<(PushOutcome | "failed")[]> {
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
