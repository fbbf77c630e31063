// The media bucket's part of a backup and a restore (docs/adr/0148), on s3rver in this process:
//   node --conditions=react-server --import tsx bench/backup-media.ts [objects=2000] [bytes=20000]
// N objects of random bytes under uploads/<hex>.webp; then the first backup's copy (every object new), a
// second one (none new: one listing), a restore of them all into an empty bucket, and into the same bucket
// (every object already there: one listing and an MD5 of each pooled file).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { CreateBucketCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { copyMediaObjects, restoreMediaObjects } from "@/lib/server/backup/media";

const count = Number(process.argv[2] ?? 2000);
const bytes = Number(process.argv[3] ?? 20_000);
const dir = mkdtempSync(path.join(os.tmpdir(), "krug-bench-media-"));
const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: path.join(dir, "s3"), configureBuckets: [{ name: "media" }, { name: "restored" }] });
const { port } = await server.run();
const config = { bucket: "media", region: "us-east-1", endpoint: `http://127.0.0.1:${port}`, accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
const s3 = new S3Client({ ...config, forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const out = await fn();
  console.log(`${label}: ${((performance.now() - t0) / 1000).toFixed(2)} s`);
  return out;
}

try {
  await s3.send(new CreateBucketCommand({ Bucket: "restored" })).catch(() => {});
  await timed(`filling the bucket with ${count} objects of ${bytes} bytes`, async () => {
    const keys = Array.from({ length: count }, () => `${randomBytes(16).toString("hex")}.webp`);
    for (let i = 0; i < keys.length; i += 16) {
      await Promise.all(keys.slice(i, i + 16).map((k) => s3.send(new PutObjectCommand({ Bucket: "media", Key: `uploads/${k}`, Body: randomBytes(bytes) }))));
    }
  });
  const pool = path.join(dir, "pool");
  const first = await timed("first backup's copy (all new)", () => copyMediaObjects(config, pool));
  console.log(`  ${first.uploads.length} listed, ${first.copied} copied`);
  const second = await timed("second backup's copy (none new)", () => copyMediaObjects(config, pool));
  console.log(`  ${second.uploads.length} listed, ${second.copied} copied`);
  const files = first.uploads.map((u) => u.path);
  const empty = await timed("restore into an empty bucket", () => restoreMediaObjects({ ...config, bucket: "restored" }, pool, files));
  console.log(`  ${empty.put} put, ${empty.present} already there`);
  const same = await timed("restore into the same bucket (all there)", () => restoreMediaObjects(config, pool, files));
  console.log(`  ${same.put} put, ${same.present} already there`);
} finally {
  s3.destroy();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
