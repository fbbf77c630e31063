// One archive of `npm run bench -- --only=export` (bench/export.ts), in a process of its own: builds it with
// the export's code into DATA_DIR's local store and prints one JSON line of what it cost.
import { randomBytes } from "node:crypto";
import path from "node:path";
import yauzl from "yauzl";
import { closeDb, getDb } from "@/db/client";
import { writeAccountArchive } from "@/lib/server/services/account-export/archive";

const accountId = Number(process.argv[2]);
const mb = (bytes: number) => bytes / 1024 / 1024;

async function main() {
  const startRss = process.memoryUsage().rss;
  let peakHeap = 0;
  const sample = setInterval(() => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }, 5);
  const started = performance.now();
  const key = `export-${randomBytes(16).toString("hex")}.zip`;
  const { size, counts } = await writeAccountArchive(getDb(), { accountId, key, locale: "ru" });
  const ms = performance.now() - started;
  clearInterval(sample);
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  const entries = 9 + counts.dialogs + counts.images;
  await closeDb();
  const unpacked = await unpackedSizes(path.join(process.env.DATA_DIR!, "uploads", key.slice(0, 2), key));
  // maxRSS is in kilobytes (getrusage).
  console.log(JSON.stringify({ ms, bytes: size, entries, maxRssMb: process.resourceUsage().maxRSS / 1024, peakHeapMb: mb(peakHeap), startRssMb: mb(startRss), unpackedMb: mb(unpacked.total), postsJsonMb: mb(unpacked.posts) }));
}

/** What the archive holds unpacked, from its central directory: in all, and posts.json alone. */
function unpackedSizes(file: string): Promise<{ total: number; posts: number }> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const sizes = { total: 0, posts: 0 };
      zip.on("entry", (entry: yauzl.Entry) => {
        sizes.total += entry.uncompressedSize;
        if (entry.fileName === "posts.json") sizes.posts = entry.uncompressedSize;
        zip.readEntry();
      });
      zip.on("end", () => resolve(sizes));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
