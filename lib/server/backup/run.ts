import "server-only";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { startEmbeddedPostgres } from "@/db/embedded";
import type { S3StoreConfig } from "@/lib/server/storage/s3-store";
import { backupEmbedded, LAYOUT, parseUntil, restoreEmbedded, runningEmbeddedUrl, type BackupManifest, type RemoteHolds } from "./embedded";
import { backupExternal, restoreExternal } from "./external";
import { downloadForRestore, dropStage, isS3Url, remoteHolds, s3Destination, uploadStaged, type S3Credentials } from "./remote";

// `npm run backup -- <folder>` and `npm run restore -- <folder> [--until "…"]` (docs/adr/0141), and the
// scheduled job's backup: the embedded database through its files and WAL, an external one through pg_dump.

/**
 * Where Krug's data is, the S3 credentials (the media store's S3_*) for s3:// destinations, and the media
 * bucket when uploads live in S3 (S3_BUCKET; docs/adr/0148) — backed up and restored instead of DATA_DIR/uploads.
 */
export type BackupTarget = { dataDir: string; databaseUrl?: string; embedded: boolean; s3?: S3Credentials | null; media?: S3StoreConfig | null };

/** The media store's S3 credentials (S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_REGION, S3_ENDPOINT), when set. */
export function s3CredentialsOf(e: { S3_REGION: string; S3_ENDPOINT?: string; S3_ACCESS_KEY_ID?: string; S3_SECRET_ACCESS_KEY?: string }): S3Credentials | null {
  if (!e.S3_ACCESS_KEY_ID || !e.S3_SECRET_ACCESS_KEY) return null;
  return { region: e.S3_REGION, endpoint: e.S3_ENDPOINT, accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY };
}

/** A destination the command accepts: a folder (made absolute) or s3://bucket/prefix. */
export function destinationOf(arg: string | undefined): string {
  if (!arg || arg.startsWith("-")) throw new Error("name the backup folder: npm run backup -- /path/to/backups (or s3://bucket/prefix)");
  return isS3Url(arg) ? arg : path.resolve(arg);
}

/** A folder beside DATA_DIR's data for staging an S3 backup or restore (the same disk as the cluster). */
function stageIn(dataDir: string, what: string): string {
  // DATA_DIR is the operator's: without the comment the bundler traces the whole repository (docs/adr/0168).
  return path.join(/*turbopackIgnore: true*/ path.resolve(dataDir), `${what}-${randomBytes(4).toString("hex")}`);
}

async function backupToFolder(dest: string, target: BackupTarget, log: (line: string) => void, remote?: RemoteHolds): Promise<BackupManifest> {
  if (!target.embedded) {
    if (!target.databaseUrl) throw new Error("DATABASE_URL is not set");
    return backupExternal({ dataDir: target.dataDir, dest, url: target.databaseUrl, log, remote, media: target.media });
  }
  const running = runningEmbeddedUrl(target.dataDir);
  if (running) return backupEmbedded({ dataDir: target.dataDir, dest, url: running, log, remote, media: target.media });
  log("Krug is not running: starting its database for the backup");
  const db = await startEmbeddedPostgres({ dataDir: target.dataDir, walArchive: true, log });
  try {
    return await backupEmbedded({ dataDir: target.dataDir, dest, url: db.url.replace(/\/krug$/, "/postgres"), log, remote, media: target.media });
  } finally {
    await db.stop();
  }
}

/**
 * One backup into `dest`. The embedded server is backed up while it runs, or started for the backup when
 * Krug is stopped. An s3:// destination is staged in a local folder with only what the bucket lacks, then uploaded.
 */
export async function backupTo(dest: string, target: BackupTarget, log: (line: string) => void): Promise<BackupManifest> {
  if (!isS3Url(dest)) return backupToFolder(dest, target, log);
  const d = s3Destination(dest, target.s3 ?? null);
  const stage = stageIn(target.dataDir, "backup-staging");
  try {
    const holds = await remoteHolds(d);
    if (holds.marker) {
      await mkdir(stage, { recursive: true });
      await writeFile(path.join(stage, LAYOUT.marker), JSON.stringify({ format: "krug-backup", version: 1 }) + "\n");
    }
    const manifest = await backupToFolder(stage, target, log, holds);
    log(`uploading to ${dest}`);
    await uploadStaged(d, stage);
    return manifest;
  } finally {
    await dropStage(stage);
    d.client.destroy();
  }
}

function krugRunning(dataDir: string): boolean {
  const file = path.join(dataDir, "krug.pid");
  if (!existsSync(file)) return false;
  try {
    process.kill(Number(readFileSync(file, "utf8")), 0);
    return true;
  } catch {
    return false;
  }
}

/** Restores `source` into this environment's empty DATA_DIR (embedded) or empty DATABASE_URL (pg_dump backups). */
export async function restoreFrom(source: string, until: string | undefined, target: BackupTarget, log: (line: string) => void) {
  if (isS3Url(source)) {
    const d = s3Destination(source, target.s3 ?? null);
    const stage = stageIn(target.dataDir, "restore-staging");
    try {
      log(`downloading from ${source}`);
      await downloadForRestore(d, stage, target.embedded ? "embedded" : "pg_dump", until === undefined ? undefined : parseUntil(until));
      return await restoreFrom(stage, until, target, log);
    } finally {
      await dropStage(stage);
      d.client.destroy();
    }
  }
  if (!target.embedded) {
    if (until) throw new Error("--until needs the embedded database's WAL archive; an external database's point-in-time recovery is its own tooling's");
    return restoreExternal({ dataDir: target.dataDir, source, url: target.databaseUrl!, log, media: target.media });
  }
  if (krugRunning(target.dataDir)) throw new Error(`Krug is running with DATA_DIR ${target.dataDir}: stop it first`);
  return restoreEmbedded({ dataDir: target.dataDir, source, until: until === undefined ? undefined : parseUntil(until), log, media: target.media });
}

/** The command line's arguments: the folder, and `--until "…"` / `--until=…`. */
export function parseArgs(argv: string[]): { folder?: string; until?: string } {
  const out: { folder?: string; until?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--until") out.until = argv[++i];
    else if (a.startsWith("--until=")) out.until = a.slice("--until=".length);
    else if (!a.startsWith("-") && out.folder === undefined) out.folder = a;
    else throw new Error(`unknown argument ${a}`);
  }
  return out;
}
