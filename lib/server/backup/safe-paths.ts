import "server-only";
import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
import { isExportArchiveKey } from "@/lib/server/storage/archive-keys";

// A restore reads a folder (or a bucket) someone else may have written: every path a manifest, a listing or
// an object's name gives is checked before it is joined (issue 40 item 7, docs/adr/0161). A path that would
// leave its folder — absolute, `..`, a backslash, a NUL — and a file that is a symbolic link (or sits under
// one) pointing out of the backup are refused with the path named, before anything is written.

/** A base backup's id as stampOf makes it (20261202T050000Z-ab12); it is a folder name, never a path. */
const BASE_ID = /^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{4}$/;

export class UnsafeBackupPath extends Error {
  constructor(what: string, rel: string) {
    super(`the backup names a path that leaves its folder, refused: ${what} ${JSON.stringify(rel)}`);
  }
}

/** `rel` when it is a plain relative path (slash-separated) that stays where it is joined; throws otherwise. */
export function checkedRel(rel: unknown, what: string): string {
  if (typeof rel !== "string" || rel === "" || rel.includes("\0") || rel.includes("\\") || path.posix.isAbsolute(rel)) throw new UnsafeBackupPath(what, String(rel));
  if (rel.split("/").some((part) => part === ".." || part === "." || part === "")) throw new UnsafeBackupPath(what, rel);
  return rel;
}

/** `rel` joined under `root`, after checkedRel. */
export function inside(root: string, rel: unknown, what: string): string {
  const full = path.resolve(root, checkedRel(rel, what));
  if (!full.startsWith(path.resolve(root) + path.sep)) throw new UnsafeBackupPath(what, String(rel));
  return full;
}

/** A base's id from its manifest: a plain folder name, and the name of the folder it was read from. */
export function checkedBaseId(id: unknown, folder?: string): string {
  if (typeof id !== "string" || !BASE_ID.test(id) || (folder !== undefined && id !== folder)) throw new UnsafeBackupPath("base backup id", String(id));
  return id;
}

/**
 * `file` is a regular file whose real location (every symbolic link on the way resolved) is inside the real
 * `root`: a link in the backup cannot make the restore read /etc/shadow into the uploads.
 */
export async function realFileInside(root: string, file: string, what: string): Promise<string> {
  const [realRoot, real] = await Promise.all([realpath(root), realpath(file)]);
  if (!real.startsWith(realRoot + path.sep) || !(await lstat(file)).isFile()) throw new UnsafeBackupPath(what, path.relative(root, file));
  return real;
}

/** A folder of the backup whose real location is inside the real `root` (a base folder that is a link out). */
export async function realDirInside(root: string, dir: string, what: string): Promise<void> {
  const [realRoot, real] = await Promise.all([realpath(root), realpath(dir)]);
  if (!real.startsWith(realRoot + path.sep) || !(await lstat(real)).isDirectory()) throw new UnsafeBackupPath(what, path.relative(root, dir));
}

/**
 * The uploads a restore puts back (pool paths `<xx>/<key>`): each inside the pool and a regular file there;
 * a data-export archive an older backup still lists is left out (issue 40 item 5).
 */
export async function checkedUploads(pool: string, rels: unknown[]): Promise<string[]> {
  const out: string[] = [];
  for (const rel of rels) {
    const file = inside(pool, rel, "upload");
    if (isExportArchiveKey(path.basename(file))) continue;
    await realFileInside(pool, file, "upload");
    out.push(rel as string);
  }
  return out;
}
