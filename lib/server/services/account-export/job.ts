import "server-only";
import type { Job } from "pg-boss";
import { sql } from "drizzle-orm";
import { getDb, type Db } from "@/db/client";
import { isLocale } from "@/lib/i18n/config";
import { knownTimeZone } from "@/lib/i18n/time-zone";
import { env } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import { queueMail } from "@/lib/server/mail/queue";
import { exportReadyMail } from "@/lib/server/mail/templates";
import { notify } from "@/lib/server/services/notifications/produce";
import { newExportArchiveKey } from "@/lib/server/storage/archive-keys";
import { queueBlobDeletions, deleteQueuedBlobs } from "@/lib/server/storage/blob-deletion";
import { EXPORT_TTL_DAYS, exportArchivePath } from "@/lib/validation/account-export";
import { writeAccountArchive } from "./archive";
import type { ExportJob } from "./requests";

/** Attempts of one export (the queue retries twice with backoff); after the last failure the row is FAILED. */
export const EXPORT_ATTEMPTS = 3;

/**
 * The worker of one export: builds the archive into the store, then in one transaction marks the row
 * READY for 7 days, rings the owner's bell (EXPORT_READY) and queues the mail with the link. A failure
 * leaves no file behind; it is thrown for pg-boss to retry, except on the last attempt, which marks the
 * row FAILED (the once-a-day rule then lets the person ask again at once).
 */
export async function runAccountExport(
  db: Db,
  exportId: string,
  now: () => Date = () => new Date(),
  /** The person's time zone when they asked (the tz cookie), for the archive's pages; UTC when unknown. */
  timeZone?: string,
): Promise<"READY" | "FAILED" | "SKIPPED"> {
  const [row] = await db.execute<{ account_id: string; attempts: number; language: string; email: string; first_name: string; is_deleted: boolean }>(sql`
    update account_exports e set attempts = e.attempts + 1
    from accounts a
    where e.id = ${exportId} and e.status = 'PENDING' and a.id = e.account_id
    returning e.account_id, e.attempts, a.language, a.email, a.first_name, a.is_deleted`);
  if (!row) return "SKIPPED"; // done already, swept, or the account is gone
  const accountId = Number(row.account_id);
  const locale = isLocale(row.language) ? row.language : "ru";
  const key = newExportArchiveKey();
  let written = false;
  try {
    const started = performance.now();
    const { size, counts } = await writeAccountArchive(db, { accountId, key, locale, timeZone: knownTimeZone(timeZone) ?? "UTC", now: now() });
    written = true;
    const readyAt = now();
    const expiresAt = new Date(readyAt.getTime() + EXPORT_TTL_DAYS * 24 * 3600 * 1000);
    const done = await db.transaction(async (tx) => {
      const updated = await tx.execute(sql`
        update account_exports set status = 'READY', ready_at = ${readyAt.toISOString()}::timestamptz,
          expires_at = ${expiresAt.toISOString()}::timestamptz, storage_key = ${key}, size = ${size}
        where id = ${exportId} and status = 'PENDING'
        returning id`);
      if (updated.length === 0) return false;
      await notify(tx, { type: "EXPORT_READY", actorId: null, authorId: null, recipients: [accountId] });
      const href = `${env().PUBLIC_URL}${exportArchivePath(exportId)}`;
      await queueMail(tx, exportReadyMail({ to: row.email, language: locale, firstName: row.first_name, href, expiresAt }));
      return true;
    });
    if (!done) {
      // The row went meanwhile (swept, or the account deleted for good): its file goes too.
      await deleteStored(key);
      return "SKIPPED";
    }
    log.info({ exportId, accountId, size, counts, ms: Math.round(performance.now() - started) }, "data export ready");
    return "READY";
  } catch (err) {
    // The archive was stored but could not be announced: the next attempt makes a new one, so this one goes.
    if (written) await deleteStored(key).catch((e: unknown) => log.warn({ err: e, key }, "could not delete an unannounced archive"));
    if (row.attempts < EXPORT_ATTEMPTS) throw err;
    log.error({ err, exportId, accountId }, "data export failed for good");
    await db.execute(sql`
      update account_exports set status = 'FAILED', expires_at = now() + interval '1 day'
      where id = ${exportId} and status = 'PENDING'`);
    return "FAILED";
  }
}

async function deleteStored(key: string) {
  const db = getDb();
  const queued = await db.transaction((tx) => queueBlobDeletions(tx, [key]));
  await deleteQueuedBlobs(queued);
}

/** The pg-boss handler: one export per job. */
export async function runAccountExportJobs(jobs: Job<ExportJob>[]): Promise<void> {
  for (const job of jobs) await runAccountExport(getDb(), job.data.exportId, undefined, job.data.timeZone);
}

/**
 * The sweep (hourly): archives past their 7 days, failures past their day and requests stuck PENDING for
 * a day go, row and file. The file's deletion is queued in the transaction that deletes its row, so it
 * goes even if this process dies right after (account_exports_expires_idx and the account index).
 */
export async function purgeExpiredExports(db: Db, now: Date = new Date()): Promise<number> {
  const queued = await db.transaction(async (tx) => {
    const gone = await tx.execute<{ storage_key: string | null }>(sql`
      delete from account_exports
      where (expires_at is not null and expires_at <= ${now.toISOString()}::timestamptz)
         or (status = 'PENDING' and requested_at <= ${now.toISOString()}::timestamptz - interval '1 day')
      returning storage_key`);
    const keys = gone.map((g) => g.storage_key).filter((k): k is string => k !== null);
    return { count: gone.length, jobs: await queueBlobDeletions(tx, keys) };
  });
  await deleteQueuedBlobs(queued.jobs);
  return queued.count;
}
