import "server-only";
import type { PgBoss } from "pg-boss";
import { getDb } from "@/db/client";
import { log } from "@/lib/server/log";
import { deliverMailJobs, type MailJob } from "@/lib/server/mail/queue";
import { deleteBlobJobs, type BlobDeletionJob } from "@/lib/server/storage/blob-deletion";
import { anonymiseExpiredAccounts } from "@/lib/server/services/accounts/anonymise";
import { liftEndedBlocks } from "@/lib/server/services/admin/ended-blocks";
import { purgeOldEvents } from "@/lib/server/events/retention";
import { purgeExpiredExports, runAccountExportJobs } from "@/lib/server/services/account-export/job";
import type { ExportJob } from "@/lib/server/services/account-export/requests";
import { sendBirthdayNotifications } from "@/lib/server/services/notifications/birthdays";
import { sendNotificationDigests } from "@/lib/server/services/notifications/digest";
import { publishDuePosts } from "@/lib/server/services/notifications/scheduled-posts";
import { drainTimelines, dropIdleTimelines } from "@/lib/server/services/posts/home-timeline";
import { startPushWorker } from "@/lib/server/services/push/deliver";
import { runScheduledBackup } from "@/lib/server/backup/schedule";
import { getBoss, QUEUES, stopBoss } from "./boss";
import { purgeEndedSessions, purgeExpiredCaptchas, purgeExpiredOneTimeLinks } from "./purge-expired";

/**
 * Recurring jobs on pg-boss (its own schema `pgboss` in our database). Every app instance starts a
 * worker; pg-boss runs each scheduled job once per tick across all of them. The jobs themselves are
 * plain functions of (db, now), tested without pg-boss.
 */
export const JOBS = [
  { name: "anonymise-deleted-accounts", cron: "7 * * * *", run: (now: Date) => anonymiseExpiredAccounts(getDb(), now) },
  { name: "purge-expired-captchas", cron: "17 * * * *", run: (now: Date) => purgeExpiredCaptchas(getDb(), now) },
  { name: "purge-expired-one-time-links", cron: "27 * * * *", run: (now: Date) => purgeExpiredOneTimeLinks(getDb(), now) },
  { name: "purge-old-events", cron: "37 * * * *", run: (now: Date) => purgeOldEvents(getDb(), now) },
  { name: "purge-ended-sessions", cron: "47 * * * *", run: (now: Date) => purgeEndedSessions(getDb(), now) },
  // "Download my data" archives past their 7 days, row and file (docs/adr/0127).
  { name: "purge-expired-exports", cron: "52 * * * *", run: (now: Date) => purgeExpiredExports(getDb(), now) },
  // Moderator blocks for a period end within 10 minutes of their time (issue 26, docs/adr/0126).
  { name: "lift-ended-blocks", cron: "*/10 * * * *", run: async (now: Date) => (await liftEndedBlocks(getDb(), now)).length },
  // Scheduled posts reach their readers within a minute of their time (issue 12).
  { name: "publish-due-posts", cron: "* * * * *", run: (now: Date) => publishDuePosts(getDb(), now) },
  // Birthdays of the (UTC) day, every 10 minutes: each one announced once, a birth date set to today included (issue 24 item 22).
  { name: "birthday-notifications", cron: "*/10 * * * *", run: (now: Date) => sendBirthdayNotifications(getDb(), now) },
  // The e-mail digest for people without an open socket (at most one per 15 minutes each).
  // Home timelines (docs/adr/0137): what no post write queued a sync for (timelines asked for by a visit,
  // authors deleted, restored, blocked or whose page opened or closed) within a minute; idle ones dropped.
  { name: "home-timeline-sweep", cron: "* * * * *", run: () => drainTimelines(getDb()) },
  { name: "home-timeline-idle", cron: "23 * * * *", run: (now: Date) => dropIdleTimelines(getDb(), now) },
  { name: "notification-digests", cron: "*/5 * * * *", run: (now: Date) => sendNotificationDigests(getDb(), now) },
  // The daily backup into BACKUP_TARGET with its retention, at 03:30 UTC (docs/adr/0141); unset, it only trims
  // the local WAL archive. It may run for long: its queue lets a job run for 6 hours before pg-boss retries it.
  { name: "backup", cron: "30 3 * * *", run: (now: Date) => runScheduledBackup(getDb(), now), queue: { expireInSeconds: 6 * 3600, retryLimit: 0 } },
] as const;

const globalForJobs = globalThis as unknown as { __krugJobs?: Promise<PgBoss>; __krugFederationStop?: AbortController };

/** Starts pg-boss once per process and (re)declares the schedules; safe to call again. */
export function startJobs(): Promise<PgBoss> {
  globalForJobs.__krugJobs ??= boot().catch((err) => {
    globalForJobs.__krugJobs = undefined;
    throw err;
  });
  return globalForJobs.__krugJobs;
}

async function boot(): Promise<PgBoss> {
  const boss = await getBoss();
  for (const job of JOBS) {
    await boss.createQueue(job.name, "queue" in job ? job.queue : undefined);
    await boss.schedule(job.name, job.cron);
    await boss.work(job.name, async () => {
      const count = await job.run(new Date());
      log.info({ job: job.name, count }, "job done");
    });
  }
  // Queued mails, one per job (a failure retries that mail alone), polled every second.
  await boss.work<MailJob>(QUEUES.mail, { pollingIntervalSeconds: 1, batchSize: 1 }, deliverMailJobs);
  // Stored files whose rows are gone (anonymised accounts' photos): left over when the sweep could not delete them at once.
  await boss.work<BlobDeletionJob>(QUEUES.blobs, { pollingIntervalSeconds: 5, batchSize: 1 }, deleteBlobJobs);
  // Web Push to one device per job (docs/adr/0121), produced by the realtime sidecar's push dispatcher;
  // several at once, a few per push service host (docs/adr/0163).
  await startPushWorker(boss);
  // "Download my data": one archive at a time per process (it streams, but it is long work), docs/adr/0127.
  await boss.work<ExportJob>(QUEUES.export, { pollingIntervalSeconds: 2, batchSize: 1 }, runAccountExportJobs);
  // Home timelines: every queued sync drains all that is pending, so a batch is one drain (docs/adr/0137).
  await boss.work(QUEUES.timeline, { pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 2, batchSize: 50 }, async () => {
    await drainTimelines(getDb());
  });
  // The fediverse (issue 43, docs/adr/0174): Fedify's queue and the relay of fediverse_outbox. Fedify
  // loads here, in the job side of the process, never on a page's path.
  const federationStop = new AbortController();
  globalForJobs.__krugFederationStop = federationStop;
  const { getFederation, startFederationWorkers } = await import("@/lib/server/federation/federation");
  await startFederationWorkers(getFederation(), federationStop.signal);
  log.info({ jobs: JOBS.map((j) => j.name) }, "jobs started");
  return boss;
}

/** Stops the workers (tests, graceful shutdown). */
export async function stopJobs(): Promise<void> {
  const running = globalForJobs.__krugJobs;
  globalForJobs.__krugJobs = undefined;
  if (running) await running.catch(() => null);
  globalForJobs.__krugFederationStop?.abort();
  globalForJobs.__krugFederationStop = undefined;
  await stopBoss();
}
