import "server-only";
import { randomBytes } from "node:crypto";
import { copyFile, lstat, mkdir, readdir, rename, rm, stat, utimes } from "node:fs/promises";
import path from "node:path";

/** Copies one file beside its final name and renames it into place, keeping its modification time. */
export async function copyFileAtomic(from: string, to: string): Promise<number> {
  await mkdir(path.dirname(to), { recursive: true });
  const tmp = `${to}.${randomBytes(4).toString("hex")}.part`;
  try {
    await copyFile(from, tmp);
    const s = await stat(from);
    await utimes(tmp, s.atime, s.mtime);
    await rename(tmp, to);
    return s.size;
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

export async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch {
    return false;
  }
}

/** Every regular file under `dir` as a path relative to it (symbolic links are not followed). */
export async function listFiles(dir: string): Promise<string[]> {
  return (await listTree(dir)).files;
}

/** Every directory and regular file under `dir`, relative to it, directories before what they hold. */
export async function listTree(dir: string): Promise<{ dirs: string[]; files: string[] }> {
  const out: string[] = [];
  const dirs: string[] = [];
  const walk = async (rel: string) => {
    let entries;
    try {
      entries = await readdir(path.join(dir, rel), { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return; // removed while we walked
      throw err;
    }
    for (const e of entries) {
      const r = rel ? path.join(rel, e.name) : e.name;
      if (e.isDirectory()) {
        dirs.push(r);
        await walk(r);
      } else if (e.isFile()) out.push(r);
    }
  };
  await walk("");
  return { dirs, files: out.sort() };
}

/** Bytes of every file under `dir`. */
export async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const f of await listFiles(dir)) total += (await stat(path.join(dir, f)).catch(() => ({ size: 0 }))).size;
  return total;
}
