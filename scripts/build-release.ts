// `npm run build:release [-- --from-build <dir>]` (docs/adr/0149): a new build beside the running one,
// for `npm run restart` to take over one process at a time.
//
// - It builds into <NEXT_DIST_DIR>-releases/<UTC time>/ (`next build` with that distDir), so the running
//   workers keep reading the directory they started on. `--from-build <dir>` takes a build made elsewhere
//   (CI, another machine, the same sources) instead of building: it is copied in.
// - The pages that browsers still hold name the old build's scripts and styles: the static files of the
//   builds kept here (the previous releases and the plain build) are copied into the new one where it
//   lacks them, so they stay reachable until the next rolling restart. Only each build's own files are
//   carried (krug-release.json lists them), so the copies do not pile up from release to release.
// - Then `current` points at it, and releases beyond the newest KEEP are removed, never one a running
//   Krug still serves.
// Next rewrites tsconfig.json with the build directory's type folder; the file is put back as it was.
import "./lib/runtime"; // first: the Node.js check, telemetry off (docs/adr/0160)
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  baseDistDir,
  buildIdOf,
  currentRelease,
  inUse,
  listReleases,
  pointCurrentAt,
  RELEASE_FILE,
  releasesDir,
  type ReleaseInfo,
} from "./releases";
import { nextBuild } from "./lib/next-build";

/** Releases kept (the new one included): the one browsers may still hold pages of, and one before it. */
const KEEP = 3;

function say(line: string) {
  console.log(`[krug] ${line}`);
}

function fail(line: string): never {
  console.error(`[krug] ${line}`);
  process.exit(1);
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)));
}

/** A build's own static files: as its krug-release.json lists them, or all of a plain build's. */
function ownStatic(dir: string): string[] {
  const file = path.join(dir, RELEASE_FILE);
  if (existsSync(file)) return (JSON.parse(readFileSync(file, "utf8")) as ReleaseInfo).ownStatic;
  return filesUnder(path.join(dir, "static"));
}

/**
 * `next build` into `distDir`. Next's build cache (`cache/`, some 180 MB here) is removed after it: a release
 * is built once, and seeding the next build with it made that build no faster here (ADR 0149).
 */
/**
 * The key Next salts Server Action ids with (and encrypts their bound arguments by): the same for every
 * release, so a page of the previous build still calls its actions after the roll. Next keeps a key of its
 * own only in a build's `cache/` (and none in a container), i.e. a new one per release. Set
 * NEXT_SERVER_ACTIONS_ENCRYPTION_KEY (the same on every host) to choose it; else one is made once into
 * <releases>/server-actions-key.
 */
function serverActionsKey(root: string): string {
  if (process.env.NEXT_SERVER_ACTIONS_ENCRYPTION_KEY) return process.env.NEXT_SERVER_ACTIONS_ENCRYPTION_KEY;
  const file = path.join(root, "server-actions-key");
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString("base64") + "\n", { mode: 0o600 });
  return readFileSync(file, "utf8").trim();
}

async function buildInto(distDir: string): Promise<void> {
  const tsconfig = readFileSync("tsconfig.json", "utf8");
  // Fails on a whole-project tracing warning too (scripts/lib/next-build.ts).
  const code = await nextBuild({ ...process.env, NEXT_DIST_DIR: distDir, NODE_ENV: "production", NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: serverActionsKey(path.dirname(distDir)) });
  if (readFileSync("tsconfig.json", "utf8") !== tsconfig) writeFileSync("tsconfig.json", tsconfig);
  rmSync(path.join(distDir, "cache"), { recursive: true, force: true });
  if (code !== 0) {
    rmSync(distDir, { recursive: true, force: true });
    fail(`next build failed (${code}); the running Krug and its builds are untouched`);
  }
}

async function main() {
  const args = process.argv.slice(2);
  const fromAt = args.indexOf("--from-build");
  const from = fromAt >= 0 ? args[fromAt + 1] : undefined;
  if (fromAt >= 0 && (!from || !buildIdOf(from))) fail(`--from-build needs a build directory (one with a BUILD_ID), not "${from ?? ""}"`);
  const base = baseDistDir();
  const root = releasesDir(base);
  const name = new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  const dir = path.join(root, name);
  if (existsSync(dir)) fail(`${dir} exists already; try again in a second`);
  mkdirSync(root, { recursive: true });
  const t0 = Date.now();
  if (from) {
    say(`copying the build in ${from} into ${dir}`);
    cpSync(from, dir, { recursive: true, filter: (src) => path.relative(from, src) !== "cache" });
  } else {
    say(`building into ${dir} (the running Krug keeps its own build)`);
    await buildInto(dir);
  }
  const buildId = buildIdOf(dir);
  if (!buildId) fail(`${dir} holds no BUILD_ID`);
  const own = filesUnder(path.join(dir, "static"));
  const info: ReleaseInfo = { buildId, builtAt: new Date().toISOString(), ...(from ? { from } : {}), ownStatic: own };
  writeFileSync(path.join(dir, RELEASE_FILE), JSON.stringify(info, null, 2) + "\n");

  // The previous builds' own static files, for the pages browsers hold.
  const earlier = [...(buildIdOf(base) ? [base] : []), ...listReleases(base).filter((d) => d !== dir)];
  const have = new Set(own);
  let carried = 0;
  for (const old of earlier) {
    for (const file of ownStatic(old)) {
      if (have.has(file)) continue;
      const src = path.join(old, "static", file);
      if (!existsSync(src)) continue;
      mkdirSync(path.dirname(path.join(dir, "static", file)), { recursive: true });
      cpSync(src, path.join(dir, "static", file));
      have.add(file);
      carried += 1;
    }
  }
  const previous = currentRelease(base);
  pointCurrentAt(dir, base);
  say(`build ${buildId} ready in ${dir} after ${((Date.now() - t0) / 1000).toFixed(1)} s; ${carried} static file(s) of earlier builds kept reachable`);

  // Prune: the newest KEEP releases stay, and any a running Krug serves.
  const keep = new Set([...listReleases(base).slice(-KEEP), dir, ...(previous ? [previous] : []), ...inUse(base)].map((d) => path.normalize(d)));
  for (const old of listReleases(base)) {
    if (keep.has(path.normalize(old))) continue;
    rmSync(old, { recursive: true, force: true });
    say(`removed the old release ${old}`);
  }
  say("now `npm run restart` takes the running Krug over to it, one process at a time");
}

void main();
