import "server-only";
import { chmod, copyFile, mkdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { isExportArchiveKey } from "@/lib/server/storage/archive-keys";
import type { S3StoreConfig } from "@/lib/server/storage/s3-store";
import { copyFileAtomic, exists, listFiles } from "./files";
import { LAYOUT, type BackupManifest } from "./layout";
import { copyMediaObjects, restoreMediaObjects, type PooledUpload } from "./media";

// The uploads' pool of a destination and the base's listing of them (docs/adr/0141), from DATA_DIR/uploads
// or the media bucket (docs/adr/0148), and DATA_DIR's secrets beside the database.

/** DATA_DIR's files that belong with the database: the cluster's password, the session secret, the push keys. */
export const SECRETS = ["pg-password", "auth-secret", "vapid-keys.json"];

/**
 * The uploads: new files join the destination's pool (a key's bytes never change), and the base's
 * uploads.json lists the files that exist now — DATA_DIR/uploads, or with `media` the media bucket's
 * objects (docs/adr/0148); DATA_DIR's secrets go into the base too.
 */
export async function copyUploads(
  dataDir: string,
  dest: string,
  baseDir: string,
  opts: { remote?: Set<string>; media?: S3StoreConfig | null; log?: (line: string) => void } = {},
): Promise<{ bytes: number; listedAt: string; count: number; manifest: Pick<BackupManifest, "media" | "uploadsCount" | "mediaVanished"> }> {
  const listedAt = new Date();
  let uploads: PooledUpload[];
  let mediaVanished: number | undefined;
  if (opts.media) {
    const copy = await copyMediaObjects(opts.media, path.join(dest, LAYOUT.uploads), opts.remote);
    const gone = copy.vanished.length ? `, ${copy.vanished.length} deleted before they could be copied (${copy.vanished.slice(0, 5).join(", ")})` : "";
    opts.log?.(`media bucket: ${copy.uploads.length} objects, ${copy.copied} new${gone}${copy.foreign ? `, ${copy.foreign} not Krug's left out` : ""}`);
    uploads = copy.uploads;
    mediaVanished = copy.vanished.length;
  } else uploads = await copyLocalUploads(dataDir, dest, opts.remote);
  const bytes = uploads.reduce((n, u) => n + u.size, 0);
  await mkdir(baseDir, { recursive: true });
  await writeFile(path.join(baseDir, "uploads.json"), JSON.stringify(uploads));
  for (const name of SECRETS) {
    // DATA_DIR is the operator's, not the project's: without the comment the bundler traces the whole
    // repository into the server's output (issue 40 item 11, docs/adr/0168).
    const from = path.join(/*turbopackIgnore: true*/ path.resolve(dataDir), name);
    if (await exists(from)) await copyFileAtomic(from, path.join(baseDir, "secrets", name));
  }
  const manifest = { media: opts.media ? ("s3" as const) : ("local" as const), uploadsCount: uploads.length, mediaVanished };
  return { bytes, listedAt: listedAt.toISOString(), count: uploads.length, manifest };
}

async function copyLocalUploads(dataDir: string, dest: string, remote?: Set<string>): Promise<PooledUpload[]> {
  const uploadsDir = path.join(path.resolve(dataDir), "uploads");
  const uploads: PooledUpload[] = [];
  for (const rel of await listFiles(uploadsDir)) {
    // A data-export archive is one person's private copy for 7 days, made again on request: never backed up.
    if (rel.endsWith(".tmp") || isExportArchiveKey(path.basename(rel))) continue;
    const s = await stat(path.join(uploadsDir, rel)).catch(() => null);
    if (!s) continue; // deleted while we listed
    const to = path.join(dest, LAYOUT.uploads, rel);
    if (!remote?.has(rel) && !(await exists(to))) await copyFileAtomic(path.join(uploadsDir, rel), to);
    uploads.push({ path: rel, size: s.size, mtimeMs: s.mtimeMs });
  }
  return uploads;
}

/**
 * Puts the chosen files of the destination's pool back: into DATA_DIR/uploads, or with `media` into the
 * media bucket (docs/adr/0148); answers how many the moment had.
 */
export async function restoreUploads(source: string, dataDir: string, files: string[], media?: S3StoreConfig | null, log?: (line: string) => void): Promise<number> {
  if (media) {
    const r = await restoreMediaObjects(media, path.join(source, LAYOUT.uploads), files);
    log?.(`media bucket: ${r.put} objects put back, ${r.present} already there${r.others ? `, ${r.others} others left alone` : ""}`);
    return files.length;
  }
  const uploadsDir = path.join(path.resolve(dataDir), "uploads");
  for (const rel of files) await copyFileAtomic(path.join(source, LAYOUT.uploads, rel), path.join(uploadsDir, rel));
  return files.length;
}

/** Puts a base's copies of DATA_DIR's secrets back (the cluster's password must match the restored cluster). */
export async function restoreSecrets(baseDir: string, dataDir: string): Promise<void> {
  for (const name of SECRETS) {
    const from = path.join(baseDir, "secrets", name);
    if (await exists(from)) {
      const to = path.join(/*turbopackIgnore: true*/ dataDir, name); // DATA_DIR: see copyUploads
      await copyFile(from, to);
      await chmod(to, 0o600);
    }
  }
}
