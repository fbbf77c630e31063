// Issue 30 §1 (docs/adr/0148): with the uploads in an S3 media bucket (S3_BUCKET, on s3rver here), a backup
// copies the bucket's objects with the database's moment, and a restore puts back into a bucket — an empty
// one, the same one, or DATA_DIR/uploads of an environment without S3 — exactly the objects that moment had.
// Hostile paths: an object deleted between the listing and its download, names the store never writes, an
// empty bucket.
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { CreateBucketCommand, DeleteObjectCommand, GetObjectCommand, ListObjectsCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as storageRoute } from "@/app/api/v1/storage/route";
import { closeDb } from "@/db/client";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "@/db/embedded";
import { runMigrations } from "@/db/migrate";
import { backupEmbedded, type BackupManifest } from "@/lib/server/backup/embedded";
import { listFiles } from "@/lib/server/backup/files";
import { backupTo, restoreFrom } from "@/lib/server/backup/run";
import { setPostReaction } from "@/lib/server/services/posts/reactions";
import type { S3StoreConfig } from "@/lib/server/storage/s3-store";
import { signedInAccount } from "./helpers/factories";
import { startS3 } from "./helpers/s3";
import { snapshot } from "./helpers/snapshot";
import { noisePng, upload } from "./helpers/upload";
import { newPost } from "./post-support";

const BUCKET = "krug-media";
let media: Awaited<ReturnType<typeof startS3>>;
let s3: S3Client;
let config: S3StoreConfig;
let db: EmbeddedDatabase;
let admin: string;
const root = mkdtempSync("/tmp/krug-backup-media-");
const dest = path.join(root, "backups");
const servers: EmbeddedDatabase[] = [];

beforeAll(async () => {
  media = await startS3(BUCKET);
  s3 = media.s3;
  config = { bucket: BUCKET, region: "us-east-1", endpoint: process.env.S3_ENDPOINT!, accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
  // The community's cluster in the S3 environment's DATA_DIR, archiving its WAL as `npm start` runs it.
  db = await startEmbeddedPostgres({ dataDir: media.dataDir, walArchive: true });
  servers.push(db);
  await runMigrations(db.url);
  process.env.DATABASE_URL = db.url;
  admin = db.url.replace(/\/krug$/, "/postgres");
}, 120_000);

afterAll(async () => {
  await closeDb();
  for (const s of servers) await s.stop().catch(() => {});
  await media?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** Every object of a bucket's uploads/ prefix: key → sha-256 of its bytes. */
async function bucketFiles(bucket: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const listed = await s3.send(new ListObjectsCommand({ Bucket: bucket, Prefix: "uploads/" }));
  for (const o of listed.Contents ?? []) {
    const body = await (await s3.send(new GetObjectCommand({ Bucket: bucket, Key: o.Key! }))).Body!.transformToByteArray();
    out[o.Key!.slice("uploads/".length)] = createHash("sha256").update(body).digest("hex");
  }
  return out;
}

/** DATA_DIR/uploads of a local-media environment, by key (the file's name). */
function localFiles(dataDir: string, files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([rel, hash]) => [path.basename(rel), hash]));
}

/** A post with an uploaded photo (into the bucket: S3_BUCKET is set) and a reaction. */
async function postWithPhoto(label: string): Promise<string> {
  const alice = await signedInAccount();
  const bob = await signedInAccount();
  const res = await upload(storageRoute, { token: alice.accessToken, bytes: await noisePng(48, 48) });
  expect(res.status).toBe(200);
  const post = await newPost(alice.ctx, { title: `Запись ${label}`, postText: `<p>Фото ${label}</p>`, imagePath: res.body.data });
  await setPostReaction({ ctx: bob.ctx, input: { id: post.id, body: { reactionType: "heart" } } });
  return path.basename(res.body.data as string);
}

async function serverNow(): Promise<Date> {
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  try {
    return (await sql<{ now: Date }[]>`select clock_timestamp() as now`)[0].now;
  } finally {
    await sql.end();
  }
}

/** Restores `from` (the folder, or s3://) into a fresh DATA_DIR whose media are `into` (a bucket) or local; starts it and snapshots the tables. */
async function restoreInto(name: string, into: S3StoreConfig | null, until?: Date, from = dest) {
  const dataDir = path.join(root, name);
  const lines: string[] = [];
  await restoreFrom(from, until?.toISOString(), { dataDir, embedded: true, media: into, s3: config }, (l) => lines.push(l));
  const restored = await startEmbeddedPostgres({ dataDir });
  servers.push(restored);
  try {
    return { dataDir, lines, ...(await snapshot(restored.url, dataDir)) };
  } finally {
    await restored.stop();
  }
}

describe("backup and restore of an S3 media bucket", () => {
  it("copies the bucket's objects with the database's moment and puts back the ones a point in time had", async () => {
    // An empty bucket backs up as an empty listing.
    const empty = await backupEmbedded({ dataDir: media.dataDir, dest, url: admin, media: config });
    expect(empty).toMatchObject({ media: "s3", uploadsCount: 0, uploadsBytes: 0, mediaVanished: 0 });

    await postWithPhoto("до копии");
    const first = await backupEmbedded({ dataDir: media.dataDir, dest, url: admin, media: config });
    expect(first.uploadsCount).toBe(1);

    await postWithPhoto("между копией и точкой");
    const atPoint = { tables: (await snapshot(db.url, media.dataDir)).tables, media: await bucketFiles(BUCKET) };
    const point = await serverNow();
    // S3 keeps an object's LastModified to the second: the next photo is written in a later second than the point.
    await new Promise((r) => setTimeout(r, 1100));
    const later = await postWithPhoto("после точки");
    const atEnd = { tables: (await snapshot(db.url, media.dataDir)).tables, media: await bucketFiles(BUCKET) };
    const last = await backupEmbedded({ dataDir: media.dataDir, dest, url: admin, media: config });

    expect(Object.keys(atPoint.media)).toHaveLength(2);
    expect(Object.keys(atEnd.media)).toHaveLength(3);
    // Nothing was on local disk; the pool holds each object once, and the last base lists all three.
    expect(await listFiles(path.join(media.dataDir, "uploads"))).toEqual([]);
    expect((await listFiles(path.join(dest, "uploads"))).map((f) => path.basename(f)).sort()).toEqual(Object.keys(atEnd.media).sort());
    const listing = JSON.parse(readFileSync(path.join(dest, "base", last.id, "uploads.json"), "utf8")) as { path: string }[];
    expect(listing.map((u) => path.basename(u.path)).sort()).toEqual(Object.keys(atEnd.media).sort());
    expect(last).toMatchObject({ media: "s3", uploadsCount: 3, mediaVanished: 0 });

    // A point between the backups, into an empty bucket of a new environment: the two objects of then, byte for byte.
    await s3.send(new CreateBucketCommand({ Bucket: "krug-media-restored" }));
    const between = await restoreInto("between", { ...config, bucket: "krug-media-restored" }, point);
    expect(between.tables).toEqual(atPoint.tables);
    expect(await bucketFiles("krug-media-restored")).toEqual(atPoint.media);
    expect(Object.keys(between.files)).toEqual([]);
    expect(between.lines).toContain("media bucket: 2 objects put back, 0 already there");

    // The newest state into an environment with local uploads: DATA_DIR/uploads gets the bucket's objects.
    const local = await restoreInto("local", null);
    expect(local.tables).toEqual(atEnd.tables);
    expect(localFiles(local.dataDir, local.files)).toEqual(atEnd.media);

    // The database lost, the bucket kept but for one object: that one is put back, the rest is left as it is.
    await s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `uploads/${later}` }));
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: "uploads/0123456789abcdef0123456789abcdef.webp", Body: "written after the backup" }));
    const same = await restoreInto("same-bucket", config);
    expect(same.tables).toEqual(atEnd.tables);
    expect(same.lines).toContain("media bucket: 1 objects put back, 2 already there, 1 others left alone");
    const after = await bucketFiles(BUCKET);
    expect(after).toMatchObject(atEnd.media);
    expect(Object.keys(after)).toHaveLength(4);
    await s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: "uploads/0123456789abcdef0123456789abcdef.webp" }));
  }, 240_000);

  it("leaves out an object deleted between the listing and its download, and names the store never writes", async () => {
    const kept = await postWithPhoto("остаётся");
    const victim = await postWithPhoto("исчезает");
    for (const key of ["nested/evil.webp", ".hidden", "bad name!.webp"]) {
      await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: `uploads/${key}`, Body: "not Krug's" }));
    }
    // Between S3 and the backup, a proxy that deletes the victim just before its download reaches the server.
    const target = new URL(config.endpoint!);
    const proxy = http.createServer((req, res) => {
      const forward = () => {
        const out = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        });
        req.pipe(out);
      };
      if (req.method === "GET" && req.url?.startsWith(`/${BUCKET}/uploads/${victim}`)) {
        s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `uploads/${victim}` })).then(forward, forward);
      } else forward();
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    const lines: string[] = [];
    let manifest: BackupManifest;
    const fresh = path.join(root, "fresh-backups");
    try {
      const endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      manifest = await backupEmbedded({ dataDir: media.dataDir, dest: fresh, url: admin, media: { ...config, endpoint }, log: (l) => lines.push(l) });
    } finally {
      await new Promise((r) => proxy.close(r));
    }
    expect(manifest.mediaVanished).toBe(1);
    expect(lines.some((l) => l.includes(`1 deleted before they could be copied (${victim})`) && l.includes("3 not Krug's left out"))).toBe(true);
    const listing = (JSON.parse(readFileSync(path.join(fresh, "base", manifest.id, "uploads.json"), "utf8")) as { path: string }[]).map((u) => u.path);
    expect(listing).toContain(path.join(kept.slice(0, 2), kept));
    expect(listing.some((p) => p.includes(victim))).toBe(false);
    expect(listing.some((p) => /evil|hidden|bad/.test(p))).toBe(false);
    expect(existsSync(path.join(fresh, "uploads", victim.slice(0, 2), victim))).toBe(false);
    for (const key of ["nested/evil.webp", ".hidden", "bad name!.webp"]) await s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `uploads/${key}` }));
  }, 120_000);

  it("backs up to an s3:// destination with only the new objects, and restores from it into an empty bucket", async () => {
    await s3.send(new CreateBucketCommand({ Bucket: "krug-backups" }));
    const url = "s3://krug-backups/nightly";
    const target = { dataDir: media.dataDir, embedded: true, s3: config, media: config };
    await backupTo(url, target, () => {});
    await postWithPhoto("в копии в S3");
    const atEnd = { tables: (await snapshot(db.url, media.dataDir)).tables, media: await bucketFiles(BUCKET) };
    const lines: string[] = [];
    await backupTo(url, target, (l) => lines.push(l));
    expect(lines).toContain(`media bucket: ${Object.keys(atEnd.media).length} objects, 1 new`);

    await s3.send(new CreateBucketCommand({ Bucket: "krug-media-from-s3" }));
    const restored = await restoreInto("from-s3", { ...config, bucket: "krug-media-from-s3" }, undefined, url);
    expect(restored.tables).toEqual(atEnd.tables);
    expect(await bucketFiles("krug-media-from-s3")).toEqual(atEnd.media);
    expect(readdirSync(media.dataDir).filter((f) => /staging/.test(f))).toEqual([]);
  }, 300_000);
});
