import "server-only";
import { randomBytes } from "node:crypto";
import { chmod, chown, copyFile, mkdir, readdir, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { assertPlainPath, clusterDir, ensureServerDir, postgresUserIds, readTail, startEmbeddedPostgres, walArchiveDir } from "@/db/embedded";
import { isExportArchiveKey } from "@/lib/server/storage/archive-keys";
import type { S3StoreConfig } from "@/lib/server/storage/s3-store";
import { copyFileAtomic, exists, listFiles, listTree, sizeOf } from "./files";
import { LAYOUT, type BackupManifest, type BackupOptions } from "./layout";
import type { PooledUpload } from "./media";
import { copyUploads, restoreSecrets, restoreUploads } from "./pool";
import { checkedSecrets, CONFIG_FILES, krugsOwnConfig } from "./restore-config";
import { checkedBaseId, checkedRel, checkedUploads, inside, realDirInside, realFileInside } from "./safe-paths";
import { humanBytes } from "./summary";

export { LAYOUT, type BackupManifest, type RemoteHolds } from "./layout";

// Backup and restore of the embedded server with PostgreSQL's own mechanisms (docs/adr/0141): a base
// backup through the documented low-level API (pg_backup_start / file copy / pg_backup_stop, PostgreSQL 18
// manual 25.3.4) plus the continuous WAL archive, which together give point-in-time recovery; and the
// uploads beside them. Nothing here invents a data format: the base is the cluster's own files with the
// backup_label PostgreSQL hands back, the WAL is PostgreSQL's segments as archive_command wrote them.

/**
 * Not copied from the cluster's directory (PostgreSQL 18 manual 25.3.4, "Backing Up the Data Directory"):
 * their contents are rebuilt at start; the directories themselves are kept. server.log is our own log.
 */
const EMPTY_DIRS = new Set(["pg_wal", "pg_replslot", "pg_dynshmem", "pg_notify", "pg_serial", "pg_snapshots", "pg_stat_tmp", "pg_subtrans"]);
const SKIP_FILES = new Set(["postmaster.pid", "postmaster.opts", "server.log", "backup_label", "tablespace_map", "recovery.signal", "standby.signal"]);


function skipped(rel: string): boolean {
  const parts = rel.split(path.sep);
  if (parts.length > 1 && EMPTY_DIRS.has(parts[0])) return true;
  const name = parts[parts.length - 1];
  if (parts.length === 1 && SKIP_FILES.has(name)) return true;
  return name.startsWith("pgsql_tmp") || name === "pg_internal.init" || parts.some((p) => p.startsWith("pgsql_tmp"));
}

export function stampOf(d: Date): string {
  return d.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z") + "-" + randomBytes(2).toString("hex");
}

/** The embedded server of DATA_DIR as it runs now (its port from postmaster.pid), or null when it is stopped. */
export function runningEmbeddedUrl(dataDir: string): string | null {
  const pgDir = path.join(path.resolve(dataDir), "pg");
  const pid = readTail(path.join(pgDir, "postmaster.pid"));
  const port = Number(pid[3]);
  if (!port) return null;
  try {
    process.kill(Number(pid[0]), 0);
  } catch {
    return null;
  }
  const password = readFileSync(path.join(path.resolve(dataDir), "pg-password"), "utf8").trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

/** A destination folder, made on first use; a non-empty folder that is not one is refused. */
export async function openDestination(dest: string): Promise<void> {
  await mkdir(dest, { recursive: true });
  const marker = path.join(dest, LAYOUT.marker);
  if (await exists(marker)) return;
  if ((await readdir(dest)).length > 0) throw new Error(`${dest} is not empty and holds no Krug backup (${LAYOUT.marker})`);
  await writeFile(marker, JSON.stringify({ format: "krug-backup", version: 1 }) + "\n");
}

/** The complete base backups in a destination, oldest first (a base without backup.json never finished). */
export async function listBackups(dest: string): Promise<BackupManifest[]> {
  const dir = path.join(dest, LAYOUT.base);
  if (!(await exists(dir))) return [];
  const out: BackupManifest[] = [];
  for (const id of (await readdir(dir)).sort()) {
    const file = path.join(dir, id, "backup.json");
    if (await exists(file)) out.push(JSON.parse(await readFile(file, "utf8")) as BackupManifest);
  }
  return out.sort((a, b) => a.finishedAt.localeCompare(b.finishedAt));
}

/** Copies WAL files from the local archive that the destination lacks; answers how many. */
async function copyWal(archiveDir: string, dest: string, remote?: Set<string>): Promise<number> {
  const target = path.join(dest, LAYOUT.wal);
  await mkdir(target, { recursive: true });
  const have = new Set([...(await readdir(target)), ...(remote ?? [])]);
  let copied = 0;
  for (const name of (await readdir(archiveDir)).sort()) {
    if (name.endsWith(".tmp") || have.has(name)) continue;
    await copyFileAtomic(path.join(archiveDir, name), path.join(target, name));
    copied++;
  }
  return copied;
}

/**
 * An online backup of the embedded cluster under `dataDir` into the folder `dest`, while it runs: a base
 * backup between pg_backup_start and pg_backup_stop (which waits until the last WAL segment it needs is
 * archived), the WAL archive copied after it, then the uploads (new files only) and their listing. The
 * manifest is written last: a base without it is incomplete and ignored.
 */
export async function backupEmbedded(opts: BackupOptions): Promise<BackupManifest> {
  const log = opts.log ?? (() => {});
  const dataDir = path.resolve(opts.dataDir);
  const dest = path.resolve(opts.dest);
  const pgDir = await realpath(path.join(dataDir, "pg"));
  const archiveDir = walArchiveDir(pgDir);
  await openDestination(dest);
  const sql = postgres(opts.url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    const [{ archive_mode: archiveMode }] = await sql<{ archive_mode: string }[]>`select current_setting('archive_mode') as archive_mode`;
    if (archiveMode !== "on") throw new Error("WAL archiving is off: restart Krug (npm start turns it on for the embedded database)");
    const conn = await sql.reserve();
    const started = new Date();
    const id = stampOf(started);
    // The backup destination is the operator's folder: without the comment the bundler traces the whole
    // repository into the jobs' output (issue 40 item 11, docs/adr/0168).
    const baseDir = path.join(/*turbopackIgnore: true*/ dest, LAYOUT.base, id);
    const pgdata = path.join(baseDir, "pgdata");
    let manifest: BackupManifest;
    try {
      const [begin] = await conn<{ lsn: string; at: Date; version: string }[]>`
        select pg_backup_start(${`krug ${id}`}, true)::text as lsn, clock_timestamp() as at, current_setting('server_version') as version`;
      log(`base backup started at ${begin.lsn}`);
      let databaseBytes = 0;
      try {
        const tree = await listTree(pgDir);
        for (const rel of tree.dirs) if (!skipped(rel)) await mkdir(path.join(pgdata, rel), { recursive: true });
        for (const rel of tree.files) {
          if (skipped(rel)) continue;
          try {
            databaseBytes += await copyFileAtomic(path.join(pgDir, rel), path.join(pgdata, rel));
          } catch (err) {
            // A file the server removed while we copied (a dropped table's, a finished temporary one): the WAL replays that.
            if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
          }
        }
        for (const d of EMPTY_DIRS) await mkdir(path.join(pgdata, d), { recursive: true });
        // The cluster's directories by name: an object store keeps no empty one (pg_twophase, pg_tblspc …).
        await writeFile(path.join(baseDir, "pgdata-dirs.json"), JSON.stringify([...tree.dirs.filter((d) => !skipped(d)), ...EMPTY_DIRS]));
      } catch (err) {
        await conn`select pg_backup_stop(false)`.catch(() => {});
        throw err;
      }
      const [end] = await conn<{ lsn: string; labelfile: string; spcmapfile: string | null; at: Date }[]>`
        select lsn::text as lsn, labelfile, spcmapfile, clock_timestamp() as at from pg_backup_stop(true)`;
      await writeFile(path.join(pgdata, "backup_label"), end.labelfile);
      if (end.spcmapfile) await writeFile(path.join(pgdata, "tablespace_map"), end.spcmapfile);
      log(`base backup stopped at ${end.lsn}`);
      const walFilesCopied = await copyWal(archiveDir, dest, opts.remote?.wal);

      const uploads = await copyUploads(dataDir, dest, baseDir, { remote: opts.remote?.uploads, media: opts.media, log });
      manifest = {
        format: "krug-base-backup",
        version: 1,
        kind: "embedded",
        id,
        pgVersion: begin.version,
        startLsn: begin.lsn,
        stopLsn: end.lsn,
        startedAt: begin.at.toISOString(),
        finishedAt: end.at.toISOString(),
        uploadsListedAt: uploads.listedAt,
        databaseBytes,
        uploadsBytes: uploads.bytes,
        walFilesCopied,
        ...uploads.manifest,
      };
      await writeFile(path.join(baseDir, "backup.json"), JSON.stringify(manifest, null, 2) + "\n");
    } finally {
      conn.release();
    }
    log(`backup ${manifest.id} written: database ${humanBytes(manifest.databaseBytes)}, uploads ${humanBytes(manifest.uploadsBytes)}, ${manifest.walFilesCopied} WAL files`);
    return manifest;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** "2026-12-01 10:00" (this machine's local time) or with an offset ("…Z", "…+03:00"). */
export function parseUntil(value: string): Date {
  const d = new Date(value.trim().replace(" ", "T"));
  if (Number.isNaN(d.getTime())) throw new Error(`--until "${value}" is not a date and time like "2026-12-01 10:00"`);
  return d;
}

async function chownTree(dir: string, ids: { uid: number; gid: number }): Promise<void> {
  await chown(dir, ids.uid, ids.gid);
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await chownTree(p, ids);
    else await chown(p, ids.uid, ids.gid);
  }
}

/** The base a restore starts from: the newest of its kind, or with `until` the newest that finished by then. */
export function chooseBackup(backups: BackupManifest[], kind: BackupManifest["kind"], until?: Date): BackupManifest | undefined {
  const candidates = backups.filter((b) => b.kind === kind && (!until || new Date(b.finishedAt) <= until));
  return candidates.sort((a, b) => a.finishedAt.localeCompare(b.finishedAt))[candidates.length - 1];
}

/** The first WAL segment a base backup needs: its backup_label's "START WAL LOCATION: 0/4000028 (file 000000010000000000000004)". */
export function firstSegmentOfLabel(label: string): string | null {
  return label.match(/^START WAL LOCATION: \S+ \(file ([0-9A-F]{24})\)$/m)?.[1] ?? null;
}

/** WAL segment file names: timeline (8 hex) then log and segment (16 hex). */
const SEGMENT = /^[0-9A-F]{24}$/;

/**
 * Restores a destination into an empty DATA_DIR: the newest base backup (or, with `until`, the newest that
 * finished before it), then PostgreSQL replays the WAL from the destination up to its end (as the newest
 * backup finished) or up to `until` (recovery_target_time), and is promoted; then the uploads that
 * existed at that point. The next `npm start` runs on it.
 */
export async function restoreEmbedded(opts: {
  dataDir: string;
  source: string;
  until?: Date;
  log?: (line: string) => void;
  /** The media bucket when this environment's uploads live in S3: the files go there (docs/adr/0148). */
  media?: S3StoreConfig | null;
}): Promise<{ backup: BackupManifest; files: number }> {
  const log = opts.log ?? (() => {});
  const dataDir = path.resolve(opts.dataDir);
  const source = path.resolve(opts.source);
  if (!(await exists(path.join(source, LAYOUT.marker)))) throw new Error(`${source} holds no Krug backup`);
  await mkdir(dataDir, { recursive: true });
  if (existsSync(path.join(dataDir, "pg", "PG_VERSION"))) throw new Error(`${dataDir} already holds a database: restore needs an empty DATA_DIR`);
  const uploadsDir = path.join(dataDir, "uploads");
  if (!opts.media && (await exists(uploadsDir)) && (await listFiles(uploadsDir)).length > 0) throw new Error(`${uploadsDir} is not empty`);

  const until = opts.until;
  const backup = chooseBackup(await listBackups(source), "embedded", until);
  if (!backup) throw new Error(until ? `no backup in ${source} finished before ${until.toISOString()}` : `no complete backup in ${source}`);
  log(`restoring base backup ${backup.id} (finished ${backup.finishedAt})${until ? `, then the WAL up to ${until.toISOString()}` : ", then all archived WAL"}`);

  // Everything the backup names is checked before anything is written (docs/adr/0161).
  const baseDir = inside(path.join(source, LAYOUT.base), checkedBaseId(backup.id), "base backup");
  await realDirInside(source, path.join(baseDir, "pgdata"), "the base's pgdata");
  const tree = await listTree(path.join(baseDir, "pgdata"));
  const dirsFile = path.join(baseDir, "pgdata-dirs.json");
  const listedDirs = (await exists(dirsFile)) ? (JSON.parse(await readFile(await realFileInside(source, dirsFile, "pgdata-dirs.json"), "utf8")) as unknown[]) : [];
  const pgDirs = [...tree.dirs, ...listedDirs.map((d) => checkedRel(d, "a cluster directory"))];
  await checkedSecrets(source, baseDir);
  const pool = path.join(source, LAYOUT.uploads);
  const listing = JSON.parse(await readFile(await realFileInside(source, path.join(baseDir, "uploads.json"), "uploads.json"), "utf8")) as PooledUpload[];
  const listedUploads = await checkedUploads(pool, listing.map((u) => u?.path));
  const config = await krugsOwnConfig(log);

  const pgDir = clusterDir(dataDir, log);
  await mkdir(pgDir, { recursive: true, mode: 0o700 });
  if ((await readdir(pgDir)).length > 0) throw new Error(`${pgDir} is not empty`);
  for (const rel of pgDirs) await mkdir(inside(pgDir, rel, "a cluster directory"), { recursive: true, mode: 0o700 });
  // The cluster's files, but not its configuration (a backup's postgresql.auto.conf could run any command
  // as the server's user) nor what the server rebuilds or a restore writes itself: those come from Krug.
  const label = new Set(["backup_label", "tablespace_map"]); // what pg_backup_stop handed back: the recovery needs it
  for (const rel of tree.files) {
    if ((skipped(rel) && !label.has(rel)) || (CONFIG_FILES as readonly string[]).includes(rel)) continue;
    await copyFile(path.join(baseDir, "pgdata", rel), path.join(pgDir, rel));
    await chmod(path.join(pgDir, rel), 0o600);
  }
  for (const [name, bytes] of config) await writeFile(path.join(pgDir, name), bytes, { mode: 0o600 });
  for (const d of EMPTY_DIRS) await mkdir(path.join(pgDir, d), { recursive: true, mode: 0o700 });
  await writeFile(path.join(pgDir, "recovery.signal"), "");
  await chmod(pgDir, 0o700);
  await restoreSecrets(baseDir, dataDir);

  // The WAL the server reads back: from the base's first segment on, beside the cluster where its user can read.
  const staging = path.join(path.dirname(pgDir), "restore-wal");
  await rm(staging, { recursive: true, force: true });
  ensureServerDir(staging);
  const firstSegment = firstSegmentOfLabel(await readFile(path.join(baseDir, "pgdata", "backup_label"), "utf8")) ?? "";
  const walDir = path.join(source, LAYOUT.wal);
  for (const name of await readdir(walDir)) {
    if (SEGMENT.test(name) && name.slice(8) < firstSegment.slice(8)) continue;
    if (name.endsWith(".tmp")) continue; // archive_command's copy in progress, never a segment
    await copyFile(await realFileInside(source, path.join(walDir, name), "WAL file"), path.join(staging, name));
  }
  if (os.userInfo().uid === 0) {
    const ids = postgresUserIds();
    await chownTree(pgDir, ids);
    await chownTree(staging, ids);
  }

  const settings: Record<string, string> = {
    restore_command: `cp ${assertPlainPath(staging, "the restore's WAL folder")}/%f %p`,
    recovery_target_action: "promote",
  };
  if (until) settings.recovery_target_time = until.toISOString().replace("T", " ").replace("Z", "+00");
  let db;
  try {
    db = await startEmbeddedPostgres({ dataDir, settings, log });
  } catch (err) {
    const tail = readTail(path.join(pgDir, "server.log")).filter((l) => /FATAL|PANIC|ERROR/.test(l));
    throw new Error(`recovery failed: ${tail.join(" | ") || (err as Error).message}`);
  }
  try {
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      const deadline = Date.now() + 30 * 60_000;
      for (;;) {
        const [row] = await sql<{ r: boolean }[]>`select pg_is_in_recovery() as r`.catch((err: Error) => {
          const tail = readTail(path.join(pgDir, "server.log")).filter((l) => /FATAL|PANIC/.test(l));
          throw new Error(`recovery failed: ${tail.join(" | ") || err.message}`);
        });
        if (!row.r) break;
        if (Date.now() > deadline) throw new Error("recovery did not finish within 30 minutes");
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      await sql.end({ timeout: 5 });
    }
  } finally {
    await db.stop();
    await rm(staging, { recursive: true, force: true });
  }
  log("database recovered and promoted");

  // The uploads of that moment: the base's listing (without --until), or every file written by `until`
  // that was not already gone when the base was listed.
  let wanted: string[];
  if (!until) wanted = listedUploads;
  else {
    const listed = new Set(listedUploads);
    // A media object's time is S3's LastModified, in whole seconds: one written in the second of the
    // listing counts as written after it (at worst a file no row points to comes back; docs/adr/0148).
    const listedAt = new Date(backup.uploadsListedAt).getTime() - 1000;
    wanted = [];
    for (const rel of await listFiles(pool)) {
      if (rel.endsWith(".part")) continue; // a copy a crash cut short (copyFileAtomic, the bucket's fetch): not a file
      if (isExportArchiveKey(path.basename(rel))) continue; // an older backup's archive: never restored (docs/adr/0161)
      const s = await stat(path.join(pool, rel));
      if (s.mtimeMs > until.getTime()) continue;
      if (listed.has(rel) || s.mtimeMs > listedAt) wanted.push(rel);
    }
    wanted = await checkedUploads(pool, wanted);
  }
  await restoreUploads(source, dataDir, wanted, opts.media, log);
  log(`${wanted.length} uploaded files restored${opts.media ? " into the media bucket" : ""}`);
  return { backup, files: wanted.length };
}

/** Bytes a destination holds (the admin page's figure). */
export async function destinationBytes(dest: string): Promise<number> {
  return sizeOf(path.resolve(dest));
}
