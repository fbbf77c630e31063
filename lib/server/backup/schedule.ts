import "server-only";
import { readdir, readFile, realpath, rm, stat } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { walArchiveDir } from "@/db/embedded";
import { env } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import { queueMail } from "@/lib/server/mail/queue";
import { s3ConfigOf } from "@/lib/server/storage/blob-store";
import { backupFailedMail } from "@/lib/server/mail/templates";
import { firstSegmentOfLabel, LAYOUT, listBackups, type BackupManifest } from "./embedded";
import { exists, listFiles } from "./files";
import { recordBackupRun } from "./record";
import { applyRemoteRetention, dropStage, isS3Url, s3Destination } from "./remote";
import { backupTo, destinationOf, s3CredentialsOf } from "./run";

// The daily backup (docs/adr/0141): into BACKUP_TARGET, then the destination's retention (the newest
// backup of each of the last BACKUP_KEEP_DAILY days and of each of the last BACKUP_KEEP_WEEKLY weeks),
// then the local WAL archive loses what the destination now holds. Every run is recorded (backup_runs);
// a failed one mails the administrators.

const DAY_MS = 86_400_000;
/** Without BACKUP_TARGET nobody collects the local WAL archive: a day of it is kept for a backup by hand. */
const LOCAL_WAL_KEEP_MS = DAY_MS;
const SEGMENT = /^[0-9A-F]{24}$/;

/** The ISO week of a date (UTC), as "2026-W48". */
function isoWeek(d: Date): string {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const day = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - day);
  const yearStart = Date.UTC(t.getUTCFullYear(), 0, 1);
  return `${t.getUTCFullYear()}-W${String(Math.ceil(((t.getTime() - yearStart) / DAY_MS + 1) / 7)).padStart(2, "0")}`;
}

/**
 * Which backups to keep: the newest of each of the `daily` most recent days that have one, and the newest
 * of each of the `weekly` most recent ISO weeks (UTC) that have one. The newest backup is always kept.
 */
export function backupsToKeep(backups: Pick<BackupManifest, "id" | "finishedAt">[], daily: number, weekly: number): Set<string> {
  const newestFirst = [...backups].sort((a, b) => b.finishedAt.localeCompare(a.finishedAt));
  const keep = new Set<string>();
  if (newestFirst[0]) keep.add(newestFirst[0].id);
  for (const [count, key] of [
    [daily, (d: Date) => d.toISOString().slice(0, 10)],
    [weekly, isoWeek],
  ] as const) {
    const seen = new Set<string>();
    for (const b of newestFirst) {
      const k = key(new Date(b.finishedAt));
      if (seen.has(k)) continue;
      if (seen.size >= count) break;
      seen.add(k);
      keep.add(b.id);
    }
  }
  return keep;
}

/** The first WAL segment a base backup in a folder needs (its backup_label). */
async function firstSegmentOf(dest: string, b: BackupManifest): Promise<string | null> {
  if (b.kind !== "embedded") return null;
  const label = await readFile(path.join(dest, LAYOUT.base, b.id, "pgdata", "backup_label"), "utf8").catch(() => "");
  return firstSegmentOfLabel(label);
}

/**
 * The segment of an LSN ("0/2000028") as a WAL file name with timeline 0: segments compare by their last
 * 16 hex digits, so the timeline does not matter (16 MB segments, initdb's default).
 */
export function segmentOfLsn(lsn: string): string | null {
  const m = /^([0-9A-F]+)\/([0-9A-F]+)$/i.exec(lsn);
  if (!m) return null;
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(8, "0");
  return "00000000" + hex(parseInt(m[1], 16)) + hex(Math.floor(parseInt(m[2], 16) / 0x1000000));
}

/** Segment order ignores the timeline (the first 8 hex digits): log and segment number decide. */
const beforeSegment = (name: string, first: string) => SEGMENT.test(name) && name.slice(8) < first.slice(8);

/**
 * Deletes the backups retention does not keep, the WAL older than the oldest kept base backup, and pooled
 * uploads no kept backup lists that are older than the oldest kept listing (a file uploaded after it may
 * be needed for a point in time). Answers the ids deleted.
 */
export async function applyRetention(dest: string, daily: number, weekly: number): Promise<string[]> {
  const backups = await listBackups(dest);
  const keep = backupsToKeep(backups, daily, weekly);
  const gone = backups.filter((b) => !keep.has(b.id));
  for (const b of gone) await rm(path.join(dest, LAYOUT.base, b.id), { recursive: true, force: true });
  const kept = backups.filter((b) => keep.has(b.id));
  const oldest = kept[0];
  if (!oldest) return gone.map((b) => b.id);
  const first = await firstSegmentOf(dest, oldest);
  if (first) {
    const walDir = path.join(dest, LAYOUT.wal);
    for (const name of await readdir(walDir)) {
      // Segments, and the .backup history files of bases before the oldest kept one.
      const segment = name.slice(0, 24);
      if (beforeSegment(segment, first)) await rm(path.join(walDir, name), { force: true });
    }
  }
  const listed = new Set<string>();
  for (const b of kept) {
    const listing = JSON.parse(await readFile(path.join(dest, LAYOUT.base, b.id, "uploads.json"), "utf8")) as { path: string }[];
    for (const u of listing) listed.add(u.path);
  }
  const pool = path.join(dest, LAYOUT.uploads);
  const cutoff = new Date(oldest.uploadsListedAt).getTime();
  for (const rel of await listFiles(pool)) {
    if (listed.has(rel)) continue;
    const s = await stat(path.join(pool, rel)).catch(() => null);
    if (s && s.mtimeMs < cutoff) await rm(path.join(pool, rel), { force: true });
  }
  return gone.map((b) => b.id);
}

/** Retention in an s3:// destination (remote.ts), with a scratch folder for the manifests it reads. */
export async function remoteRetention(url: string, credentials: Parameters<typeof s3Destination>[1], dataDir: string, daily: number, weekly: number): Promise<string[]> {
  const d = s3Destination(url, credentials);
  // DATA_DIR is the operator's: without the comment the bundler traces the whole repository (docs/adr/0168).
  const work = path.join(/*turbopackIgnore: true*/ path.resolve(dataDir), `retention-${Date.now()}`);
  try {
    return await applyRemoteRetention(d, work, (all) => backupsToKeep(all, daily, weekly));
  } finally {
    await dropStage(work);
    d.client.destroy();
  }
}

/**
 * The local WAL archive (DATA_DIR/wal-archive) keeps only what no destination holds yet: segments before
 * `firstNeeded` go (the newest backup's first segment), or, without one, segments older than a day.
 */
export async function pruneLocalWal(dataDir: string, firstNeeded: string | null, now: Date): Promise<number> {
  const pgDir = path.join(path.resolve(dataDir), "pg");
  if (!(await exists(pgDir))) return 0;
  const archive = walArchiveDir(await realpath(pgDir));
  if (!(await exists(archive))) return 0;
  let removed = 0;
  for (const name of await readdir(archive)) {
    const file = path.join(archive, name);
    const old = firstNeeded
      ? beforeSegment(name.slice(0, 24), firstNeeded)
      : now.getTime() - ((await stat(file).catch(() => null))?.mtimeMs ?? now.getTime()) > LOCAL_WAL_KEEP_MS && !name.endsWith(".history");
    if (old) {
      await rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}

/** Mails every administrator that a scheduled backup failed, through the mail queue (it retries). */
async function mailAdministrators(db: Db, dest: string, error: string, when: Date): Promise<number> {
  const admins = await db.execute<{ email: string; language: string; first_name: string }>(sql`
    select email, language, first_name from accounts where role = 'ADMIN' and not is_deleted and not is_blocked`);
  const href = `${env().PUBLIC_URL}/admin`;
  await db.transaction(async (tx) => {
    for (const a of admins) {
      await queueMail(tx, backupFailedMail({ to: a.email, language: a.language, firstName: a.first_name, destination: dest, error, when, href }));
    }
  });
  return admins.length;
}

export type ScheduledBackupResult = "skipped" | "succeeded" | "failed";

/** The daily job (lib/server/jobs/start-jobs.ts). */
export async function runScheduledBackup(db: Db, now: Date = new Date()): Promise<ScheduledBackupResult> {
  const e = env();
  const target = { dataDir: e.DATA_DIR, databaseUrl: process.env.DATABASE_URL, embedded: process.env.KRUG_EMBEDDED_DB === "1", s3: s3CredentialsOf(e), media: s3ConfigOf(e) };
  if (!e.BACKUP_TARGET) {
    if (target.embedded) await pruneLocalWal(e.DATA_DIR, null, now);
    return "skipped";
  }
  const startedAt = new Date();
  let dest = e.BACKUP_TARGET;
  try {
    dest = destinationOf(e.BACKUP_TARGET);
    const manifest = await backupTo(dest, target, (line) => log.info({ job: "backup" }, line));
    const removed = isS3Url(dest)
      ? await remoteRetention(dest, target.s3 ?? null, e.DATA_DIR, e.BACKUP_KEEP_DAILY, e.BACKUP_KEEP_WEEKLY)
      : await applyRetention(dest, e.BACKUP_KEEP_DAILY, e.BACKUP_KEEP_WEEKLY);
    if (target.embedded) await pruneLocalWal(e.DATA_DIR, segmentOfLsn(manifest.startLsn), now);
    await recordBackupRun(db, { trigger: "scheduled", dest, startedAt, manifest });
    log.info({ job: "backup", id: manifest.id, removed }, "backup done");
    return "succeeded";
  } catch (err) {
    const message = (err as Error).message;
    log.error({ err, job: "backup" }, "backup failed");
    await recordBackupRun(db, { trigger: "scheduled", dest, startedAt, error: message }).catch((e2) => log.error({ err: e2 }, "backup run not recorded"));
    await mailAdministrators(db, dest, message, startedAt).catch((e2) => log.error({ err: e2 }, "backup failure mail not queued"));
    return "failed";
  }
}
