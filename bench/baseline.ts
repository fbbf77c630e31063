// The "before" of a before/after page benchmark (bench/pages.ts, issue 25 section 3): another build of
// the app, started beside this tree's on the same database, so both are measured in one run on one machine.
//   --baseline=<git rev>     the commit's files (`git archive`, no worktree: the repository is not touched)
//                            in /tmp/krug-baseline-<sha>, node_modules this tree's hard-linked (`cp -al`:
//                            Turbopack compiles no file outside the project, a symlink out of it fails), built
//                            there into .next under /tmp/krug-build.lock when it has no build yet; kept
//                            for the next run (delete the directory to rebuild). A baseline whose
//                            package-lock.json differs from this tree's is warned about: it runs on this
//                            tree's dependencies.
//   BENCH_BASELINE_DIR=dir   an existing checkout with its dependencies; its build directory is
//                            BENCH_BASELINE_DIST_DIR (default .next), built like the above when missing.
// The baseline app listens on BENCH_BASELINE_PORT (default BENCH_PORT + 10; realtime on the next port).
// It shares the database, migrated to this tree's schema (an older build is ready when at least its own
// migrations are applied): a baseline from before a migration that drops or renames what it reads cannot
// be measured this way.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import type { AppCheckout } from "./app";

export type Baseline = AppCheckout & { label: string };

const git = (args: string[]) => execFileSync("git", args, { encoding: "utf8" }).trim();

async function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  const child = spawn(cmd, args, { cwd, env, stdio: "inherit" });
  const code = await new Promise<number>((resolve) => child.on("exit", (c) => resolve(c ?? 1)));
  if (code !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${code}) in ${cwd}`);
}

/** `next build` in the checkout, one build on the machine at a time (the shared build lock). */
async function buildCheckout(c: AppCheckout, log: (m: string) => void): Promise<void> {
  log(`baseline: building ${c.dir} into ${c.distDir} (waits for /tmp/krug-build.lock) …`);
  const started = Date.now();
  const env = { ...process.env, NEXT_DIST_DIR: c.distDir, NODE_ENV: "production" as const };
  await run("flock", ["/tmp/krug-build.lock", process.execPath, path.join("node_modules", "next", "dist", "bin", "next"), "build"], c.dir, env);
  log(`baseline: built in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** The baseline asked for (`--baseline=<rev>` or BENCH_BASELINE_DIR), built when it has no build; null when none. */
export async function prepareBaseline(rev: string | undefined, log: (m: string) => void): Promise<Baseline | null> {
  const given = process.env.BENCH_BASELINE_DIR;
  if (!rev && !given) return null;
  if (rev && given) throw new Error("give either --baseline=<rev> or BENCH_BASELINE_DIR, not both");
  let checkout: AppCheckout;
  let label: string;
  if (given) {
    checkout = { dir: path.resolve(given), distDir: process.env.BENCH_BASELINE_DIST_DIR || ".next" };
    if (!existsSync(path.join(checkout.dir, "package.json"))) throw new Error(`BENCH_BASELINE_DIR ${checkout.dir} holds no package.json`);
    if (!existsSync(path.join(checkout.dir, "node_modules"))) throw new Error(`BENCH_BASELINE_DIR ${checkout.dir} has no node_modules`);
    let sha = "?";
    try {
      sha = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: checkout.dir, encoding: "utf8" }).trim();
    } catch {
      /* not a git checkout */
    }
    label = `before ${sha}`;
  } else {
    const sha = git(["rev-parse", "--short", `${rev}^{commit}`]);
    const dir = path.join("/tmp", `krug-baseline-${sha}`);
    checkout = { dir, distDir: ".next" };
    label = `before ${sha}`;
    if (!existsSync(dir)) {
      // Unpacked beside, then renamed: an interrupted unpack leaves no half checkout under the final name.
      log(`baseline: the files of ${sha} into ${dir} …`);
      const part = `${dir}.part`;
      rmSync(part, { recursive: true, force: true });
      mkdirSync(part, { recursive: true });
      execFileSync("sh", ["-c", `git archive --format=tar ${sha} | tar -x -C '${part}'`], { stdio: "inherit" });
      renameSync(part, dir);
    }
    if (!existsSync(path.join(dir, "node_modules"))) {
      // Hard links: no bytes copied on the same file system (a copy where links cannot be made).
      try {
        execFileSync("cp", ["-al", path.resolve("node_modules"), path.join(dir, "node_modules")], { stdio: "inherit" });
      } catch {
        rmSync(path.join(dir, "node_modules"), { recursive: true, force: true });
        log("baseline: node_modules cannot be hard-linked there: copying it");
        execFileSync("cp", ["-a", path.resolve("node_modules"), path.join(dir, "node_modules")], { stdio: "inherit" });
      }
    }
    const lock = (d: string) => (existsSync(path.join(d, "package-lock.json")) ? readFileSync(path.join(d, "package-lock.json"), "utf8") : "");
    if (lock(dir) !== lock(".")) log(`baseline: warning — ${sha}'s package-lock.json differs from this tree's; it runs on this tree's node_modules`);
  }
  if (!existsSync(path.join(checkout.dir, checkout.distDir, "BUILD_ID"))) await buildCheckout(checkout, log);
  return { ...checkout, label };
}
