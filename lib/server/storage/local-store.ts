import "server-only";
import { createReadStream, createWriteStream } from "node:fs";
import { chmod, mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { randomBytes } from "node:crypto";
import type { BlobStore } from "./blob-store";
import { isExportArchiveKey } from "./archive-keys";
import { contentTypeOfKey } from "./content-type";

/**
 * Files under `dir`, fanned out by the first two characters of the key so no directory grows huge.
 * A file appears only complete: it is written beside its final name and renamed into place.
 * A data-export archive is private (issue 40 item 5): written 0600 into a folder only Krug's user may
 * enter (`ex/`: image keys are hex, so no upload shares it), made so again on every write, whatever
 * the umask or an older build left.
 */
export function createLocalStore(dir: string): BlobStore {
  const fileOf = (key: string) => path.join(dir, key.slice(0, 2), key);
  const folderFor = async (key: string) => {
    const folder = path.dirname(fileOf(key));
    if (!isExportArchiveKey(key)) return void (await mkdir(folder, { recursive: true }));
    await mkdir(folder, { recursive: true, mode: 0o700 });
    await chmod(folder, 0o700);
  };
  const modeOf = (key: string) => (isExportArchiveKey(key) ? 0o600 : 0o666); // 0o666: the default, less the umask
  return {
    kind: "local",
    async put(key, data) {
      const file = fileOf(key);
      await folderFor(key);
      const tmp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        await writeFile(tmp, data, { flag: "wx", mode: modeOf(key) });
        await rename(tmp, file);
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
    },
    async putStream(key, data) {
      const file = fileOf(key);
      await folderFor(key);
      const tmp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        const out = createWriteStream(tmp, { flags: "wx", mode: modeOf(key) });
        await pipeline(data, out);
        await rename(tmp, file);
        return out.bytesWritten;
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
    },
    async get(key) {
      const file = fileOf(key);
      try {
        const info = await stat(file);
        if (!info.isFile()) return null;
        const body = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
        return { body, size: info.size, contentType: contentTypeOfKey(key) };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw err;
      }
    },
    async exists(key) {
      try {
        return (await stat(fileOf(key))).isFile();
      } catch {
        return false;
      }
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}
