// Builds side by side for a rolling restart (docs/adr/0149). `npm run build:release` builds into a new
// directory of <NEXT_DIST_DIR>-releases/ (default .next-releases/) and points `current` at it; the running
// Krug reads its own directory to the end. `npm start` serves the newest build: the release `current`
// names, or the plain NEXT_DIST_DIR of `npm run build`, whichever was built last.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The plain build directory (`npm run build`, the first `npm start`). */
export function baseDistDir(): string {
  return process.env.KRUG_DIST_BASE || process.env.NEXT_DIST_DIR || ".next";
}

export function releasesDir(base = baseDistDir()): string {
  return `${base}-releases`;
}

/** What a release records about itself (krug-release.json in its directory). */
export type ReleaseInfo = { buildId: string; builtAt: string; from?: string; ownStatic: string[] };
export const RELEASE_FILE = "krug-release.json";

export function buildIdOf(dir: string): string | null {
  try {
    return readFileSync(path.join(dir, "BUILD_ID"), "utf8").trim() || null;
  } catch {
    return null;
  }
}

function builtAt(dir: string): number {
  try {
    return statSync(path.join(dir, "BUILD_ID")).mtimeMs;
  } catch {
    return -1;
  }
}

/** The release `current` names, when it holds a build. */
export function currentRelease(base = baseDistDir()): string | null {
  const pointer = path.join(releasesDir(base), "current");
  if (!existsSync(pointer)) return null;
  const dir = path.join(releasesDir(base), readFileSync(pointer, "utf8").trim());
  return buildIdOf(dir) ? dir : null;
}

/** The build `npm start` and a rolling restart serve: the newer of the current release and the plain build. */
export function servingDistDir(base = baseDistDir()): string {
  const release = currentRelease(base);
  if (release && builtAt(release) >= builtAt(base)) return release;
  return base;
}

export function pointCurrentAt(dir: string, base = baseDistDir()) {
  const root = releasesDir(base);
  const tmp = path.join(root, `current.${process.pid}`);
  writeFileSync(tmp, path.basename(dir) + "\n");
  renameSync(tmp, path.join(root, "current"));
}

/** Every release directory, oldest first (their names are UTC timestamps). */
export function listReleases(base = baseDistDir()): string[] {
  const root = releasesDir(base);
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && /^\d{8}T\d{6}Z$/.test(d.name))
    .map((d) => path.join(root, d.name))
    .sort();
}

/**
 * A running Krug names the builds its processes serve (both during a roll), so that pruning never removes
 * them; `dirs` empty removes its file.
 */
export function markInUse(dirs: string[], base = baseDistDir()) {
  const root = releasesDir(base);
  const file = path.join(root, `in-use.${process.pid}`);
  if (dirs.length === 0) return rmSync(file, { force: true });
  mkdirSync(root, { recursive: true });
  writeFileSync(file, dirs.join("\n") + "\n");
}

/** Builds named by in-use files of processes still alive. */
export function inUse(base = baseDistDir()): Set<string> {
  const root = releasesDir(base);
  const out = new Set<string>();
  if (!existsSync(root)) return out;
  for (const name of readdirSync(root)) {
    const m = /^in-use\.(\d+)$/.exec(name);
    if (!m) continue;
    try {
      process.kill(Number(m[1]), 0);
      for (const line of readFileSync(path.join(root, name), "utf8").split("\n")) if (line.trim()) out.add(path.normalize(line.trim()));
    } catch {
      /* that Krug is gone */
    }
  }
  return out;
}
