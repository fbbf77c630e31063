// `node --import tsx bench/cpu-profile.ts <file.cpuprofile>… [--requests=N] [--top=N] [--from-ms=A --to-ms=B]`:
// the self time of V8 CPU profiles (`node --cpu-prof`), summed by bucket — a package of node_modules,
// one of our files, Node's own code, garbage collection, idle — and the top functions, in ms and, with
// --requests, in µs per request (docs/adr/0153). Several files (one per web worker) are added up.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SourceMapConsumer } from "source-map-js";

type Frame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type Node = { id: number; callFrame: Frame; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

const args = process.argv.slice(2);
const files = args.filter((a) => !a.startsWith("--"));
const opt = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const requests = Number(opt("requests") ?? 0);
const top = Number(opt("top") ?? 40);
/** Only samples this many ms after the profile's start (and before --to-ms): the measured run of bench/profile-worker.ts. */
const fromMs = Number(opt("from-ms") ?? 0);
const toMs = Number(opt("to-ms") ?? Infinity);

/** A built server chunk's source map (Next writes them beside the chunks), to name a frame's original file. */
const maps = new Map<string, SourceMapConsumer | null>();
function original(f: Frame): { url: string; line: number; name: string } | null {
  if (!/\/\.next[^/]*\/server\//.test(f.url)) return null;
  const file = f.url.startsWith("file:") ? fileURLToPath(f.url) : f.url;
  let map = maps.get(file);
  if (map === undefined) {
    map = existsSync(`${file}.map`) ? new SourceMapConsumer(JSON.parse(readFileSync(`${file}.map`, "utf8"))) : null;
    maps.set(file, map);
  }
  if (!map) return null;
  const pos = map.originalPositionFor({ line: f.lineNumber + 1, column: f.columnNumber });
  if (!pos.source) return null;
  // Turbopack names sources like "turbopack:///[project]/lib/x.ts" or "…/node_modules/pkg/…".
  const url = decodeURIComponent(pos.source)
    .replace(/^turbopack:\/\/\/\[project\]\//, "")
    .replace(/^\[project\]\//, "")
    .replace(/^(\.\.\/)+/, "");
  return { url, line: (pos.line ?? 1) - 1, name: pos.name ?? f.functionName };
}

/** The bucket of a frame: a package of node_modules (scoped ones whole), our file, node's internals, or V8's own. */
function packageOf(f: Frame): string {
  const url = f.url;
  if (!url) {
    if (f.functionName === "(garbage collector)") return "(gc)";
    if (f.functionName === "(idle)") return "(idle)";
    if (f.functionName === "(program)") return "(program)";
    return "(native)";
  }
  if (url.startsWith("node:")) return `node:${url.slice(5).split("/")[0]}`;
  const nm = url.lastIndexOf("/node_modules/");
  if (nm >= 0) {
    const parts = url.slice(nm + 14).split("/");
    const name = parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
    // Next's compiled copies of other packages are worth seeing apart.
    if (name === "next") {
      const compiled = url.indexOf("/compiled/");
      if (compiled >= 0) return `next/compiled/${url.slice(compiled + 10).split("/")[0]}`;
      const dist = url.indexOf("/dist/");
      return dist >= 0 ? `next/${url.slice(dist + 6).split("/").slice(0, 2).join("/")}` : "next";
    }
    return name;
  }
  // Built chunks of the app (.next*/server/chunks/…) and our own sources.
  const chunk = url.match(/\/(\.next[^/]*)\/(.*)$/);
  if (chunk) return `${chunk[1]}/${chunk[2].split("/").slice(0, 2).join("/")}`;
  return url.replace(/^file:\/\//, "").replace(process.cwd() + "/", "");
}

const byBucket = new Map<string, number>();
const byFunction = new Map<string, number>();
let total = 0;
let idle = 0;

for (const file of files) {
  const p = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const nodes = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let at = 0;
  for (let i = 0; i < p.samples.length; i++) {
    at += p.timeDeltas[i];
    if (at / 1000 < fromMs || at / 1000 > toMs) continue;
    // The i-th sample's time is the next delta (Chrome DevTools' convention).
    const dt = p.timeDeltas[i + 1] ?? 0;
    self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + dt);
  }
  for (const [id, us] of self) {
    const built = nodes.get(id)!.callFrame;
    const o = original(built);
    const f = o ? { ...built, url: o.url.includes("node_modules/") ? `/${o.url}` : o.url, lineNumber: o.line, functionName: built.functionName.length > 3 ? built.functionName : o.name } : built;
    const bucket = packageOf(f);
    if (bucket === "(idle)") {
      idle += us;
      continue;
    }
    total += us;
    byBucket.set(bucket, (byBucket.get(bucket) ?? 0) + us);
    const fn = `${f.functionName || "(anonymous)"} ${bucket}:${f.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  }
}

// --json=<file>: the buckets and functions in µs (per request with --requests), to compare two runs.
const jsonOut = opt("json");
if (jsonOut) {
  const per = (m: Map<string, number>) => Object.fromEntries([...m].map(([k, v]) => [k, requests ? v / requests : v]));
  writeFileSync(jsonOut, JSON.stringify({ requests, total: requests ? total / requests : total, buckets: per(byBucket), functions: per(byFunction) }));
}

const fmt = (us: number) => {
  const ms = (us / 1000).toFixed(1).padStart(9);
  const per = requests ? `${(us / requests).toFixed(2).padStart(8)} µs/req` : "";
  return `${ms} ms ${((100 * us) / total).toFixed(1).padStart(5)} % ${per}`;
};

console.log(`busy ${(total / 1000).toFixed(0)} ms, idle ${(idle / 1000).toFixed(0)} ms${requests ? `, ${requests} requests: ${(total / requests / 1000).toFixed(3)} ms busy per request` : ""}`);
console.log("\n-- by package / file --");
for (const [k, v] of [...byBucket].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${fmt(v)}  ${k}`);
console.log("\n-- by function --");
for (const [k, v] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${fmt(v)}  ${k}`);
