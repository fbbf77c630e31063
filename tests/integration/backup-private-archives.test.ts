// Issue 40 item 5 (docs/adr/0161): the data export's archives are one person's e-mail, phone and private
// messages for 7 days. The local store writes them readable by Krug's user only, and a backup — of
// DATA_DIR/uploads or of the media bucket — leaves them out, so they never outlive their week there.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, describe, expect, it } from "vitest";
import { listFiles } from "@/lib/server/backup/files";
import { copyMediaObjects } from "@/lib/server/backup/media";
import { copyUploads } from "@/lib/server/backup/pool";
import { newExportArchiveKey } from "@/lib/server/storage/archive-keys";
import { createLocalStore } from "@/lib/server/storage/local-store";
import { startS3 } from "./helpers/s3";

const root = mkdtempSync("/tmp/krug-private-archives-");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const image = "0123456789abcdef0123456789abcdef.webp";

describe("the data export's archives are private and never backed up", () => {
  it("the local store writes an archive 0600 in a folder only Krug's user enters; an image as before", async () => {
    const uploads = path.join(root, "store", "uploads");
    const store = createLocalStore(uploads);
    const key = newExportArchiveKey();
    // A folder an older build left open to everyone is closed again by the next archive.
    mkdirSync(path.join(uploads, "ex"), { recursive: true, mode: 0o755 });
    expect(await store.putStream(key, Readable.from([Buffer.from("PK archive")]), "application/zip")).toBe(10);
    expect(statSync(path.join(uploads, "ex", key)).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(uploads, "ex")).mode & 0o077).toBe(0);
    await store.put(image, Buffer.from("RIFF"), "image/webp");
    expect(statSync(path.join(uploads, "01", image)).mode & 0o044).toBe(0o044); // images stay public by key
  });

  it("a backup of DATA_DIR/uploads copies and lists the images, not the archives", async () => {
    const dataDir = path.join(root, "data");
    const archive = newExportArchiveKey();
    for (const [dir, name] of [["01", image], ["ex", archive]]) {
      mkdirSync(path.join(dataDir, "uploads", dir), { recursive: true });
      writeFileSync(path.join(dataDir, "uploads", dir, name), name);
    }
    const dest = path.join(root, "backups");
    const baseDir = path.join(dest, "base", "one");
    const copied = await copyUploads(dataDir, dest, baseDir);
    expect(copied.count).toBe(1);
    expect(await listFiles(path.join(dest, "uploads"))).toEqual([path.join("01", image)]);
    const listing = JSON.parse(readFileSync(path.join(baseDir, "uploads.json"), "utf8")) as { path: string }[];
    expect(listing.map((u) => u.path)).toEqual([path.join("01", image)]);
  });

  it("a backup of the media bucket leaves the archives there", async () => {
    const s3 = await startS3("krug-private");
    try {
      const archive = newExportArchiveKey();
      for (const key of [image, archive]) await s3.s3.send(new PutObjectCommand({ Bucket: "krug-private", Key: `uploads/${key}`, Body: key }));
      const pool = path.join(root, "media-pool");
      const copy = await copyMediaObjects(
        { bucket: "krug-private", region: "us-east-1", endpoint: process.env.S3_ENDPOINT, accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
        pool,
      );
      expect(copy.uploads.map((u) => u.path)).toEqual([path.join("01", image)]);
      expect(await listFiles(pool)).toEqual([path.join("01", image)]);
    } finally {
      await s3.stop();
    }
  });
});
