import "server-only";
import { spawn } from "node:child_process";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import postgres from "postgres";
import { chooseBackup, listBackups, openDestination, stampOf } from "./embedded";
import type { S3StoreConfig } from "@/lib/server/storage/s3-store";
import { exists } from "./files";
import { LAYOUT, type BackupManifest, type BackupOptions } from "./layout";
import { copyUploads, restoreSecrets, restoreUploads } from "./pool";
import { checkedSecrets } from "./restore-config";
import { checkedBaseId, checkedUploads, inside, realFileInside } from "./safe-paths";
import { humanBytes } from "./summary";

// An external DATABASE_URL (docs/adr/0141): Krug cannot read that server's files or its WAL, so its
// backup is a logical one with PostgreSQL's own tools — pg_dump's custom format, read back by
// pg_restore — of the same major version as the server. Point-in-time recovery is the operator's
// tooling's (README, "Backups").

function runTool(cmd: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LC_ALL: "C" } });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", (e) => resolve({ code: 127, output: e.message }));
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

/** The server's major version, and a pg_dump/pg_restore of the same major (PATH, or PG_BIN_DIR), or an explanation. */
async function toolFor(url: string, tool: "pg_dump" | "pg_restore"): Promise<string> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  let major: number;
  try {
    const [row] = await sql<{ v: string }[]>`select current_setting('server_version_num') as v`;
    major = Math.floor(Number(row.v) / 10000);
  } finally {
    await sql.end();
  }
  const cmd = process.env.PG_BIN_DIR ? path.join(process.env.PG_BIN_DIR, tool) : tool;
  const version = await runTool(cmd, ["--version"]);
  const found = Number(version.output.match(/\) (\d+)/)?.[1] ?? NaN);
  if (version.code !== 0) throw new Error(`${tool} was not found: install PostgreSQL ${major}'s client tools or set PG_BIN_DIR`);
  if (found !== major) throw new Error(`${tool} is version ${found}, the database server ${major}: use ${tool} ${major} (PG_BIN_DIR)`);
  return cmd;
}

/** pg_dump's custom format of the whole database, plus the uploads, into the folder `dest`. */
export async function backupExternal(opts: BackupOptions): Promise<BackupManifest> {
  const log = opts.log ?? (() => {});
  const dest = path.resolve(opts.dest);
  const pgDump = await toolFor(opts.url, "pg_dump");
  await openDestination(dest);
  const startedAt = new Date();
  const id = stampOf(startedAt);
  const baseDir = path.join(dest, LAYOUT.base, id);
  await mkdir(baseDir, { recursive: true });
  const file = path.join(baseDir, "database.dump");
  log(`pg_dump of the database into ${file}`);
  const dump = await runTool(pgDump, ["--format=custom", "--no-owner", "--file", file, "--dbname", opts.url]);
  if (dump.code !== 0) throw new Error(`pg_dump failed: ${dump.output.trim().split("\n").slice(-3).join(" | ")}`);
  const finishedAt = new Date();
  const uploads = await copyUploads(opts.dataDir, dest, baseDir, { remote: opts.remote?.uploads, media: opts.media, log });
  const manifest: BackupManifest = {
    format: "krug-base-backup",
    version: 1,
    kind: "pg_dump",
    id,
    pgVersion: dump.output.trim() || "",
    startLsn: "",
    stopLsn: "",
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    uploadsListedAt: uploads.listedAt,
    databaseBytes: (await stat(file)).size,
    uploadsBytes: uploads.bytes,
    walFilesCopied: 0,
    ...uploads.manifest,
  };
  await writeFile(path.join(baseDir, "backup.json"), JSON.stringify(manifest, null, 2) + "\n");
  log(`backup ${id} written: dump ${humanBytes(manifest.databaseBytes)}, uploads ${humanBytes(manifest.uploadsBytes)}`);
  return manifest;
}

/** pg_restore of the newest pg_dump backup into the (empty) database of `url`, and its uploads into DATA_DIR. */
export async function restoreExternal(opts: {
  dataDir: string;
  source: string;
  url: string;
  log?: (line: string) => void;
  media?: S3StoreConfig | null;
}): Promise<{ backup: BackupManifest; files: number }> {
  const log = opts.log ?? (() => {});
  const source = path.resolve(opts.source);
  if (!(await exists(path.join(source, LAYOUT.marker)))) throw new Error(`${source} holds no Krug backup`);
  const backup = chooseBackup(await listBackups(source), "pg_dump");
  if (!backup) throw new Error(`no pg_dump backup in ${source} (a backup of the embedded database restores into an empty DATA_DIR, without DATABASE_URL)`);
  const sql = postgres(opts.url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    const [row] = await sql<{ n: number }[]>`
      select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`;
    if (row.n > 0) throw new Error("the database of DATABASE_URL is not empty: restore needs an empty database");
  } finally {
    await sql.end();
  }
  const pgRestore = await toolFor(opts.url, "pg_restore");
  // Everything the backup names is checked before anything is written (docs/adr/0161).
  const baseDir = inside(path.join(source, LAYOUT.base), checkedBaseId(backup.id), "base backup");
  const dump = await realFileInside(source, path.join(baseDir, "database.dump"), "database.dump");
  const listing = JSON.parse(await readFile(await realFileInside(source, path.join(baseDir, "uploads.json"), "uploads.json"), "utf8")) as { path: string }[];
  const uploads = await checkedUploads(path.join(source, LAYOUT.uploads), listing.map((u) => u?.path));
  await checkedSecrets(source, baseDir);
  log(`pg_restore of ${backup.id}`);
  const res = await runTool(pgRestore, ["--no-owner", "--exit-on-error", "--dbname", opts.url, dump]);
  if (res.code !== 0) throw new Error(`pg_restore failed: ${res.output.trim().split("\n").slice(-3).join(" | ")}`);
  await mkdir(path.resolve(opts.dataDir), { recursive: true });
  await restoreSecrets(baseDir, path.resolve(opts.dataDir));
  const files = await restoreUploads(source, opts.dataDir, uploads, opts.media, log);
  return { backup, files };
}
