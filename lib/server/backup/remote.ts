import "server-only";
import { createWriteStream } from "node:fs";
import { mkdir, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { Readable } from "node:stream";
import { DeleteObjectsCommand, GetObjectCommand } from "@aws-sdk/client-s3";
import { chooseBackup, firstSegmentOfLabel, LAYOUT, type BackupManifest, type RemoteHolds } from "./embedded";
import { listFiles } from "./files";
import { isExportArchiveKey } from "@/lib/server/storage/archive-keys";
import { checkedBaseId, inside } from "./safe-paths";
import { listObjects, put, type S3Destination } from "./s3-client";

export { isS3Url, s3Destination, type S3Credentials, type S3Destination } from "./s3-client";

// s3://bucket/prefix destinations (docs/adr/0141): the same layout as a folder, one object per file under
// the prefix. A backup is staged in a local folder holding only what the bucket lacks (this base, new WAL,
// new uploads) and uploaded, backup.json last; a restore downloads the marker, the manifests, the chosen
// base, its WAL and the uploads pool into a local folder and restores from that. Files keep their
// modification time in the object's metadata (the uploads' point-in-time choice needs it).

type Listed = { rel: string; lastModified: number };

/** Every object under `prefix + sub`, as paths relative to the destination. */
async function list(d: S3Destination, sub: string): Promise<Listed[]> {
  return (await listObjects(d, sub)).map((o) => ({ rel: o.Key!.slice(d.prefix.length), lastModified: o.LastModified?.getTime() ?? 0 }));
}

async function get(d: S3Destination, rel: string, file: string): Promise<void> {
  const out = await d.client.send(new GetObjectCommand({ Bucket: d.bucket, Key: d.prefix + rel })).catch((err: Error) => {
    throw new Error(`downloading ${rel} from ${d.url}: ${err.message}`);
  });
  await mkdir(path.dirname(file), { recursive: true });
  await pipeline(out.Body as Readable, createWriteStream(file));
  const mtime = Number(out.Metadata?.mtime);
  if (Number.isFinite(mtime) && mtime > 0) await utimes(file, new Date(mtime), new Date(mtime));
}

async function remove(d: S3Destination, rels: string[]): Promise<void> {
  for (let i = 0; i < rels.length; i += 1000) {
    const chunk = rels.slice(i, i + 1000);
    await d.client.send(new DeleteObjectsCommand({ Bucket: d.bucket, Delete: { Objects: chunk.map((r) => ({ Key: d.prefix + r })), Quiet: true } }));
  }
}

/** What the bucket holds already: its WAL file names and pooled upload paths. */
export async function remoteHolds(d: S3Destination): Promise<RemoteHolds & { marker: boolean }> {
  const [wal, uploads, marker] = await Promise.all([list(d, `${LAYOUT.wal}/`), list(d, `${LAYOUT.uploads}/`), list(d, LAYOUT.marker)]);
  return {
    wal: new Set(wal.map((o) => o.rel.slice(LAYOUT.wal.length + 1))),
    uploads: new Set(uploads.map((o) => o.rel.slice(LAYOUT.uploads.length + 1))),
    marker: marker.some((o) => o.rel === LAYOUT.marker),
  };
}

/** Uploads a staged backup folder: everything but the manifests first, then each backup.json, then the marker if new. */
export async function uploadStaged(d: S3Destination, stage: string): Promise<void> {
  // Each base names its files (files.json): a restore fetches exactly those instead of paging through a
  // listing of thousands of keys.
  const bases = path.join(stage, LAYOUT.base);
  for (const id of await readdir(bases).catch(() => [] as string[])) {
    const own = (await listFiles(path.join(bases, id))).filter((f) => f !== "files.json");
    await writeFile(path.join(bases, id, "files.json"), JSON.stringify(own.map((f) => f.split(path.sep).join("/"))));
  }
  const files = await listFiles(stage);
  const last = (rel: string) => rel === LAYOUT.marker || rel.endsWith("/backup.json");
  for (const rel of files.filter((f) => !last(f))) await put(d, rel.split(path.sep).join("/"), path.join(stage, rel));
  for (const rel of files.filter(last)) await put(d, rel.split(path.sep).join("/"), path.join(stage, rel));
}

/** The manifests in the bucket. */
async function manifests(d: S3Destination, into: string): Promise<BackupManifest[]> {
  const keys = (await list(d, `${LAYOUT.base}/`)).filter((o) => o.rel.endsWith("/backup.json"));
  const out: BackupManifest[] = [];
  for (const { rel } of keys) {
    // An object's name is the bucket writer's choice: it is a path under `into` or nothing (docs/adr/0161).
    const file = inside(into, rel, "object");
    await get(d, rel, file);
    out.push(JSON.parse(await readFile(file, "utf8")) as BackupManifest);
  }
  return out;
}

/**
 * Downloads what a restore needs into `stage` (a folder in the destination's layout): the marker, every
 * manifest, the chosen base in full, the WAL from its first segment, and the uploads pool.
 */
export async function downloadForRestore(d: S3Destination, stage: string, kind: BackupManifest["kind"], until?: Date): Promise<void> {
  const markers = await list(d, LAYOUT.marker);
  if (!markers.some((o) => o.rel === LAYOUT.marker)) throw new Error(`${d.url} holds no Krug backup`);
  await get(d, LAYOUT.marker, path.join(stage, LAYOUT.marker));
  const chosen = chooseBackup(await manifests(d, stage), kind, until);
  if (!chosen) return; // the restore itself says there is none
  const baseKey = `${LAYOUT.base}/${checkedBaseId(chosen.id)}`;
  await get(d, `${baseKey}/files.json`, path.join(stage, baseKey, "files.json"));
  for (const rel of JSON.parse(await readFile(path.join(stage, baseKey, "files.json"), "utf8")) as unknown[]) {
    await get(d, `${baseKey}/${rel as string}`, inside(path.join(stage, baseKey), rel, "object"));
  }
  const label = kind === "embedded" ? await readFile(path.join(stage, LAYOUT.base, chosen.id, "pgdata", "backup_label"), "utf8") : "";
  const first = firstSegmentOfLabel(label);
  await mkdir(path.join(stage, LAYOUT.wal), { recursive: true });
  if (first) {
    for (const { rel } of await list(d, `${LAYOUT.wal}/`)) {
      const name = rel.slice(LAYOUT.wal.length + 1);
      if (/^[0-9A-F]{24}/.test(name) && name.slice(8, 24) < first.slice(8)) continue;
      await get(d, rel, inside(stage, rel, "object"));
    }
  }
  for (const { rel } of await list(d, `${LAYOUT.uploads}/`)) {
    if (isExportArchiveKey(path.basename(rel))) continue; // an older backup's archive: never restored
    await get(d, rel, inside(stage, rel, "object"));
  }
}

/**
 * Retention in the bucket, as applyRetention does in a folder: the backups `keep` leaves out, the WAL before
 * the oldest kept base, and pooled uploads no kept base lists that reached the bucket before the oldest
 * kept listing (an object's upload time is after its file's: this keeps, never loses, a borderline file).
 */
export async function applyRemoteRetention(d: S3Destination, work: string, keep: (all: BackupManifest[]) => Set<string>): Promise<string[]> {
  const all = (await manifests(d, work)).sort((a, b) => a.finishedAt.localeCompare(b.finishedAt));
  const kept = keep(all);
  const gone = all.filter((b) => !kept.has(b.id));
  for (const b of gone) await remove(d, (await list(d, `${LAYOUT.base}/${b.id}/`)).map((o) => o.rel));
  const oldest = all.find((b) => kept.has(b.id));
  if (!oldest) return gone.map((b) => b.id);
  if (oldest.kind === "embedded") {
    await get(d, `${LAYOUT.base}/${oldest.id}/pgdata/backup_label`, path.join(work, "label"));
    const first = firstSegmentOfLabel(await readFile(path.join(work, "label"), "utf8"));
    if (first) {
      const old = (await list(d, `${LAYOUT.wal}/`)).map((o) => o.rel).filter((rel) => {
        const name = rel.slice(LAYOUT.wal.length + 1);
        return /^[0-9A-F]{24}/.test(name) && name.slice(8, 24) < first.slice(8);
      });
      await remove(d, old);
    }
  }
  const listed = new Set<string>();
  for (const b of all.filter((x) => kept.has(x.id))) {
    await get(d, `${LAYOUT.base}/${b.id}/uploads.json`, path.join(work, "uploads.json"));
    for (const u of JSON.parse(await readFile(path.join(work, "uploads.json"), "utf8")) as { path: string }[]) listed.add(u.path);
  }
  const cutoff = new Date(oldest.uploadsListedAt).getTime();
  const pool = await list(d, `${LAYOUT.uploads}/`);
  await remove(
    d,
    pool.filter((o) => !listed.has(o.rel.slice(LAYOUT.uploads.length + 1)) && o.lastModified < cutoff).map((o) => o.rel),
  );
  return gone.map((b) => b.id);
}

/** Removes a local staging folder. */
export async function dropStage(stage: string): Promise<void> {
  await rm(stage, { recursive: true, force: true });
}

/** Bytes the bucket's prefix holds (the admin page's figure). */
export async function remoteBytes(d: S3Destination): Promise<number> {
  return (await listObjects(d, "")).reduce((n, o) => n + (o.Size ?? 0), 0);
}
