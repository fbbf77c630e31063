import "server-only";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { startEmbeddedPostgres } from "@/db/embedded";
import { backupEmbedded, parseUntil, restoreEmbedded, runningEmbeddedUrl, type BackupManifest } from "./embedded";
import { backupExternal, restoreExternal } from "./external";

// `npm run backup -- <folder>` and `npm run restore -- <folder> [--until "…"]` (docs/adr/0141), and the
// scheduled job's backup: the embedded database through its files and WAL, an external one through pg_dump.

export type BackupTarget = { dataDir: string; databaseUrl?: string; embedded: boolean };

/** A destination the command accepts: a folder. S3 destinations are not built (ADR 0141 says how to copy a folder there). */
export function destinationOf(arg: string | undefined): string {
  if (!arg || arg.startsWith("-")) throw new Error("name the backup folder: npm run backup -- /path/to/backups");
  if (/^s3:\/\//i.test(arg)) throw new Error("s3:// destinations are not supported yet: back up to a folder and copy it to the bucket (aws s3 sync), see the README");
  return path.resolve(arg);
}

/** One backup into `dest`. The embedded server is backed up while it runs, or started for the backup when Krug is stopped. */
export async function backupTo(dest: string, target: BackupTarget, log: (line: string) => void): Promise<BackupManifest> {
  if (!target.embedded) {
    if (!target.databaseUrl) throw new Error("DATABASE_URL is not set");
    return backupExternal({ dataDir: target.dataDir, dest, url: target.databaseUrl, log });
  }
  const running = runningEmbeddedUrl(target.dataDir);
  if (running) return backupEmbedded({ dataDir: target.dataDir, dest, url: running, log });
  log("Krug is not running: starting its database for the backup");
  const db = await startEmbeddedPostgres({ dataDir: target.dataDir, walArchive: true, log });
  try {
    return await backupEmbedded({ dataDir: target.dataDir, dest, url: db.url.replace(/\/krug$/, "/postgres"), log });
  } finally {
    await db.stop();
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
  if (/^s3:\/\//i.test(source)) throw new Error("s3:// sources are not supported yet: copy the backup folder down first (aws s3 sync)");
  if (!target.embedded) {
    if (until) throw new Error("--until needs the embedded database's WAL archive; an external database's point-in-time recovery is its own tooling's");
    return restoreExternal({ dataDir: target.dataDir, source, url: target.databaseUrl!, log });
  }
  if (krugRunning(target.dataDir)) throw new Error(`Krug is running with DATA_DIR ${target.dataDir}: stop it first`);
  return restoreEmbedded({ dataDir: target.dataDir, source, until: until === undefined ? undefined : parseUntil(until), log });
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
