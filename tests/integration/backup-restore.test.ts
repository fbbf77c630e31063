// Issue 30 §1 (docs/adr/0141): an online backup of the embedded server (base backup through the low-level
// API + the WAL archive) and the uploads, restored into an empty DATA_DIR as the newest backup finished and
// at a point in time between two backups: every table and every uploaded file as they were then.
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { POST as storageRoute } from "@/app/api/v1/storage/route";
import { closeDb, createSql } from "@/db/client";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "@/db/embedded";
import { runMigrations } from "@/db/migrate";
import { backupEmbedded, listBackups, restoreEmbedded } from "@/lib/server/backup/embedded";
import { backupTo, restoreFrom } from "@/lib/server/backup/run";
import S3rver from "s3rver";
import { createComment } from "@/lib/server/services/comments/comments";
import { sendMessage } from "@/lib/server/services/dialogs/messages";
import { setPostReaction } from "@/lib/server/services/posts/reactions";
import { signedInAccount } from "./helpers/factories";
import { snapshot, type Snapshot } from "./helpers/snapshot";
import { noisePng, upload } from "./helpers/upload";
import { newPost } from "./post-support";

// A cluster of its own with WAL archiving, as `npm start` runs it; the services below write into it.
const sharedUrl = process.env.DATABASE_URL!;
const root = mkdtempSync("/tmp/krug-backup-");
const source = path.join(root, "source");
const dest = path.join(root, "backups");
process.env.DATA_DIR = source;
const servers: EmbeddedDatabase[] = [];
let sourceDb: EmbeddedDatabase | undefined;

afterAll(async () => {
  await closeDb();
  for (const s of servers) await s.stop().catch(() => {});
  rmSync(root, { recursive: true, force: true });
});

async function serverNow(url: string): Promise<Date> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ now: Date }[]>`select clock_timestamp() as now`;
    return row.now;
  } finally {
    await sql.end();
  }
}

/** Some of everything a community writes: an uploaded photo in a post, a reaction, a comment, a message. */
async function writeSome(label: string) {
  const alice = await signedInAccount();
  const bob = await signedInAccount();
  const res = await upload(storageRoute, { token: alice.accessToken, bytes: await noisePng(64, 64) });
  expect(res.status).toBe(200);
  const post = await newPost(alice.ctx, { title: `Запись ${label}`, postText: `<p>Текст записи ${label}</p>`, imagePath: res.body.data });
  await setPostReaction({ ctx: bob.ctx, input: { id: post.id, body: { reactionType: "heart" } } });
  await createComment({ ctx: bob.ctx, input: { postId: post.id, body: { commentText: `Комментарий ${label}` } } });
  await sendMessage({ ctx: alice.ctx, input: { recipientId: bob.id, messageText: `Сообщение ${label}` } });
  return res.body.data as string;
}

async function restoredSnapshot(name: string, until?: Date, from?: { url: string; s3: Parameters<typeof restoreFrom>[2]["s3"] }): Promise<Snapshot> {
  const dataDir = path.join(root, name);
  if (from) await restoreFrom(from.url, until?.toISOString(), { dataDir, embedded: true, s3: from.s3 }, () => {});
  else await restoreEmbedded({ dataDir, source: dest, until });
  const db = await startEmbeddedPostgres({ dataDir });
  servers.push(db);
  try {
    return await snapshot(db.url, dataDir);
  } finally {
    await db.stop();
  }
}

describe("backup and restore of an external database (pg_dump of the server's major version)", () => {
  it("restores every table and file into an empty database and DATA_DIR; refuses --until and a database that is not empty", async () => {
    await writeSome("внешняя база");
    const before = await snapshot(sharedUrl, source);
    const folder = path.join(root, "dump-backups");
    const manifest = await backupTo(folder, { dataDir: source, databaseUrl: sharedUrl, embedded: false }, () => {});
    expect(manifest.kind).toBe("pg_dump");
    const admin = postgres(sharedUrl.replace(/\/[^/]+$/, "/postgres"), { max: 1, onnotice: () => {} });
    const name = `krug_restore_${Date.now()}`;
    await admin.unsafe(`create database ${name}`);
    try {
      const emptyUrl = sharedUrl.replace(/\/[^/]+$/, `/${name}`);
      const target = { dataDir: path.join(root, "dump-restored"), databaseUrl: emptyUrl, embedded: false };
      const { files } = await restoreFrom(folder, undefined, target, () => {});
      expect(files).toBe(Object.keys(before.files).length);
      expect(await snapshot(emptyUrl, target.dataDir)).toEqual(before);
      await expect(restoreFrom(folder, "2026-12-01 10:00", target, () => {})).rejects.toThrow(/--until/);
      await expect(restoreFrom(folder, undefined, target, () => {})).rejects.toThrow(/not empty/);
    } finally {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 60_000);
});

describe("backup and restore of the embedded server", () => {
  it("restores every table and file as the newest backup finished, and at a point between two backups", async () => {
    const db = await startEmbeddedPostgres({ dataDir: source, walArchive: true });
    servers.push(db);
    sourceDb = db;
    await runMigrations(db.url);
    process.env.DATABASE_URL = db.url;
    const admin = db.url.replace(/\/krug$/, "/postgres");

    await writeSome("до копии");
    const first = await backupEmbedded({ dataDir: source, dest, url: admin });
    expect(first.stopLsn).not.toBe(first.startLsn);

    await writeSome("между копией и точкой");
    const atPoint = await snapshot(db.url, source);
    const point = await serverNow(db.url);
    await new Promise((r) => setTimeout(r, 50));

    const later = await writeSome("после точки");
    const atEnd = await snapshot(db.url, source);
    await backupEmbedded({ dataDir: source, dest, url: admin });
    expect((await listBackups(dest)).length).toBe(2);

    // The point lies between the two backups, and the data differ there: three posts at the end, two at the point.
    expect(atPoint.tables["public.posts"]).not.toBe(atEnd.tables["public.posts"]);
    expect(Object.keys(atEnd.files).length - Object.keys(atPoint.files).length).toBe(1);

    const newest = await restoredSnapshot("restored-newest");
    expect(newest.tables).toEqual(atEnd.tables);
    expect(newest.files).toEqual(atEnd.files);

    const between = await restoredSnapshot("restored-between", point);
    expect(between.tables).toEqual(atPoint.tables);
    expect(between.files).toEqual(atPoint.files);
    expect(Object.keys(between.files).some((f) => later.endsWith(path.basename(f)))).toBe(false);
  }, 180_000);

  it("runs the restored cluster with Krug's own configuration, not the backup's (issue 40 item 7)", async () => {
    // Whoever can write the backup folder writes these files too: a command for the server to run, a setting, a trusting pg_hba line.
    const [newest] = (await listBackups(dest)).slice(-1);
    const pgdata = path.join(dest, "base", newest.id, "pgdata");
    const marker = path.join(root, "ran-the-backups-command");
    appendFileSync(path.join(pgdata, "postgresql.auto.conf"), `\nwork_mem = '77MB'\narchive_mode = on\narchive_command = 'touch ${marker}'\n`);
    appendFileSync(path.join(pgdata, "pg_hba.conf"), "\nhost all all 0.0.0.0/0 trust\n");
    const dataDir = path.join(root, "restored-own-config");
    await restoreEmbedded({ dataDir, source: dest });
    const pgDir = path.join(dataDir, "pg");
    expect(readFileSync(path.join(pgDir, "postgresql.auto.conf"), "utf8")).not.toMatch(/work_mem|archive_command/);
    expect(readFileSync(path.join(pgDir, "pg_hba.conf"), "utf8")).not.toMatch(/^host\s+all\s+all\s+0\.0\.0\.0\/0\s+trust/m);
    expect(readFileSync(path.join(pgDir, "pg_hba.conf"), "utf8")).toMatch(/scram-sha-256/);
    const db = await startEmbeddedPostgres({ dataDir });
    servers.push(db);
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      const [row] = await sql<{ work_mem: string; archive_mode: string }[]>`select current_setting('work_mem') as work_mem, current_setting('archive_mode') as archive_mode`;
      expect(row).toEqual({ work_mem: "4MB", archive_mode: "off" });
      await sql`select pg_switch_wal()`;
      // Krug's own processes reach it over its Unix socket, and need the password there as over TCP (docs/adr/0191).
      expect(db.appUrl).toMatch(/\?host=%2F/);
      const local = createSql(db.appUrl, { max: 1 });
      const stranger = createSql(db.appUrl.replace(/:[^:@/]+@/, ":wrong@"), { max: 1 });
      try {
        const [via] = await local<{ addr: string | null }[]>`select inet_server_addr()::text as addr`;
        expect(via.addr).toBeNull();
        await expect(stranger`select 1`).rejects.toThrow(/password/);
      } finally {
        await local.end();
        await stranger.end();
      }
    } finally {
      await sql.end();
      await db.stop();
    }
    expect(existsSync(marker)).toBe(false);
  }, 120_000);

  it("refuses a DATA_DIR that already holds a database, and a point before the first backup", async () => {
    await expect(restoreEmbedded({ dataDir: source, source: dest })).rejects.toThrow(/already holds a database/);
    await expect(restoreEmbedded({ dataDir: path.join(root, "too-early"), source: dest, until: new Date("2001-01-01T00:00:00Z") })).rejects.toThrow(/no backup/);
  });
});

describe("backup and restore through an s3:// destination", () => {
  it("uploads only what the bucket lacks, and restores the newest state and a point in time from it", async () => {
    const s3Dir = mkdtempSync("/tmp/krug-backup-s3rver-");
    const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: s3Dir, configureBuckets: [{ name: "krug-backups" }] });
    const { port } = await server.run();
    const s3 = { region: "us-east-1", endpoint: `http://127.0.0.1:${port}`, accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
    const url = "s3://krug-backups/community/nightly";
    const target = { dataDir: source, embedded: true, s3 };
    try {
      const db = sourceDb!;
      await writeSome("до копии в S3");
      await backupTo(url, target, () => {});
      await writeSome("между копиями в S3");
      const atPoint = await snapshot(db.url, source);
      const point = await serverNow(db.url);
      await new Promise((r) => setTimeout(r, 50));
      await writeSome("после точки в S3");
      const atEnd = await snapshot(db.url, source);
      await backupTo(url, target, () => {});
      // Nothing is left behind in DATA_DIR by the staging.
      expect(readdirSync(source).filter((f) => f.startsWith("backup-staging"))).toEqual([]);

      expect(await restoredSnapshot("s3-newest", undefined, { url, s3 })).toEqual(atEnd);
      expect(await restoredSnapshot("s3-between", point, { url, s3 })).toEqual(atPoint);
    } finally {
      await server.close();
      rmSync(s3Dir, { recursive: true, force: true });
    }
  }, 180_000);
});
