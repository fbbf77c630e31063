import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat, utimes } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { GetObjectCommand } from "@aws-sdk/client-s3";
import { isExportArchiveKey } from "@/lib/server/storage/archive-keys";
import { contentTypeOfKey } from "@/lib/server/storage/content-type";
import { isMissing, S3_MEDIA_PREFIX, type S3StoreConfig } from "@/lib/server/storage/s3-store";
import { exists } from "./files";
import { listObjects, put, s3Destination, type ListedObject, type S3Destination } from "./s3-client";

// The media bucket (S3_BUCKET, its uploads/ prefix) in a backup (docs/adr/0148): its objects join the
// backup's uploads pool under the same paths DATA_DIR/uploads uses (<first two characters>/<key>), so a
// backup of either store restores into either. An object's LastModified becomes the pooled file's mtime,
// which is what the point-in-time choice of the uploads reads.

/** A pooled file as a base's uploads.json lists it. */
export type PooledUpload = { path: string; size: number; mtimeMs: number };

/** Keys the media store writes (a hex name with its extension, export-<hex>.zip): one path segment, no dot first. */
const MEDIA_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/;

/** Objects fetched or put at once: S3 latency, not bandwidth, bounds a pool of small images. */
const PARALLEL = 8;

/** The pool path of a media key: DATA_DIR/uploads' fan-out (local-store.ts). */
export function poolPathOfKey(key: string): string {
  return path.join(key.slice(0, 2), key);
}

function mediaBucket(config: S3StoreConfig): S3Destination {
  return s3Destination(`s3://${config.bucket}/${S3_MEDIA_PREFIX}`, config);
}

async function eachParallel<T>(items: T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker));
}

/** Downloads one object beside its final name and renames it into place with `mtimeMs`; false when it is gone. */
async function fetchObject(d: S3Destination, key: string, to: string, mtimeMs: number): Promise<boolean> {
  let body: Readable;
  try {
    body = (await d.client.send(new GetObjectCommand({ Bucket: d.bucket, Key: d.prefix + key }))).Body as Readable;
  } catch (err) {
    if (isMissing(err)) return false;
    throw new Error(`downloading ${key} from the media bucket: ${(err as Error).message}`);
  }
  await mkdir(path.dirname(to), { recursive: true });
  const tmp = `${to}.${randomBytes(4).toString("hex")}.part`;
  try {
    await pipeline(body, createWriteStream(tmp));
    await utimes(tmp, new Date(mtimeMs), new Date(mtimeMs));
    await rename(tmp, to);
    return true;
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

export type MediaCopy = { uploads: PooledUpload[]; copied: number; vanished: string[]; foreign: number };

/**
 * The media bucket's objects as they are now: the ones `poolDir` (or the destination bucket, `remote`)
 * lacks are downloaded into it, and every object still there is listed. An object deleted between the
 * listing and its download is left out of the listing (its bytes are gone; `vanished` names it). Objects
 * under the prefix whose names the store never writes (a slash, a leading dot) are not Krug's: counted.
 */
export async function copyMediaObjects(config: S3StoreConfig, poolDir: string, remote?: Set<string>): Promise<MediaCopy> {
  const d = mediaBucket(config);
  try {
    const listed = await listObjects(d, "");
    const out: MediaCopy = { uploads: [], copied: 0, vanished: [], foreign: 0 };
    await eachParallel(listed, async (o) => {
      const key = o.Key!.slice(d.prefix.length);
      if (!MEDIA_KEY.test(key)) {
        out.foreign++;
        return;
      }
      if (isExportArchiveKey(key)) return; // private and short-lived: never backed up (issue 40 item 5)
      const rel = poolPathOfKey(key);
      const mtimeMs = o.LastModified?.getTime() ?? Date.now();
      if (!remote?.has(rel.split(path.sep).join("/")) && !(await exists(path.join(poolDir, rel)))) {
        if (!(await fetchObject(d, key, path.join(poolDir, rel), mtimeMs))) {
          out.vanished.push(key);
          return;
        }
        out.copied++;
      }
      out.uploads.push({ path: rel, size: o.Size ?? 0, mtimeMs });
    });
    out.uploads.sort((a, b) => a.path.localeCompare(b.path));
    return out;
  } finally {
    d.client.destroy();
  }
}

async function md5Of(file: string): Promise<string> {
  const hash = createHash("md5");
  await pipeline(createReadStream(file), hash);
  return hash.digest("hex");
}

/** Whether the bucket's object already holds the pooled file's bytes (same size, and same MD5 where its ETag is one). */
async function sameBytes(o: ListedObject, file: string, size: number): Promise<boolean> {
  if (o.Size !== size) return false;
  const etag = (o.ETag ?? "").replace(/"/g, "");
  return !/^[0-9a-f]{32}$/.test(etag) || etag === (await md5Of(file));
}

export type MediaRestore = { put: number; present: number; others: number };

/**
 * Puts the chosen pooled files back into the media bucket under their keys. The bucket is otherwise left
 * alone: an object that already holds the same bytes stays, and objects the restored moment did not have
 * (`others`) are neither deleted nor touched (docs/adr/0148).
 */
export async function restoreMediaObjects(config: S3StoreConfig, poolDir: string, files: string[]): Promise<MediaRestore> {
  const d = mediaBucket(config);
  try {
    const have = new Map((await listObjects(d, "")).map((o) => [o.Key!.slice(d.prefix.length), o]));
    const out: MediaRestore = { put: 0, present: 0, others: 0 };
    await eachParallel(files, async (rel) => {
      const key = path.basename(rel);
      const file = path.join(poolDir, rel);
      const o = have.get(key);
      have.delete(key);
      if (o && (await sameBytes(o, file, (await stat(file)).size))) {
        out.present++;
        return;
      }
      await put(d, key, file, contentTypeOfKey(key));
      out.put++;
    });
    out.others = have.size;
    return out;
  } finally {
    d.client.destroy();
  }
}
