import "server-only";
import { createDb, createSql, type Db } from "@/db/client";
import { backupRuns } from "@/db/schema";
import type { BackupManifest } from "./embedded";
import { runningEmbeddedUrl } from "./embedded";
import { sizeOf } from "./files";

export type BackupRun = { trigger: "scheduled" | "manual"; dest: string; startedAt: Date; manifest?: BackupManifest; error?: string };

/** Writes how a run ended into backup_runs (docs/adr/0141): the admin page's "last backup". */
export async function recordBackupRun(db: Db, run: BackupRun): Promise<void> {
  await db.insert(backupRuns).values({
    trigger: run.trigger,
    result: run.manifest ? "succeeded" : "failed",
    destination: run.dest,
    backupId: run.manifest?.id ?? null,
    startedAt: run.startedAt,
    databaseBytes: run.manifest?.databaseBytes ?? null,
    uploadsBytes: run.manifest?.uploadsBytes ?? null,
    destinationBytes: run.manifest && !/^s3:\/\//i.test(run.dest) ? await sizeOf(run.dest).catch(() => null) : null,
    error: run.error ? run.error.slice(0, 2000) : null,
  });
}

/** The command line's record: into the running embedded database, or DATABASE_URL's. Krug stopped: nothing to write into. */
export async function recordBackup(target: { dataDir: string; databaseUrl?: string; embedded: boolean }, run: BackupRun): Promise<boolean> {
  const url = target.embedded ? runningEmbeddedUrl(target.dataDir)?.replace(/\/postgres$/, "/krug") : target.databaseUrl;
  if (!url) return false;
  const sql = createSql(url, { max: 1 });
  try {
    await recordBackupRun(createDb(sql), run);
    return true;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
