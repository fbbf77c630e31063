// The trivial page (issue 25 section 3, docs/adr/0128): what the brief asks of every benchmark — a trivial
// case beside the real one, in the same run — for the Lighthouse bench. bench/trivial-page/ is a Next.js
// app with nothing of Krug's: one page rendered on request with a heading, a paragraph and a two-field
// client form (the shape of /login), on the same Next.js and React as Krug. Its Lighthouse figures are the
// framework's floor on this host at this moment: no Krug page can start with less work than it.
// It is built (under /tmp/krug-build.lock, into bench/trivial-page/.next) when it has no build or its
// build is older than its sources or the installed Next.js, and served by `next start`.
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { RunningApp } from "./app";

const DIR = path.resolve("bench", "trivial-page");
const BUILD_ID = path.join(DIR, ".next", "BUILD_ID");
const NEXT_BIN = path.resolve("node_modules", "next", "dist", "bin", "next");

function newestSource(): number {
  const files = [path.resolve("node_modules", "next", "package.json"), path.resolve("node_modules", "react-dom", "package.json"), path.join(DIR, "next.config.ts")];
  for (const f of readdirSync(path.join(DIR, "app"))) files.push(path.join(DIR, "app", f));
  return Math.max(...files.map((f) => statSync(f).mtimeMs));
}

async function run(args: string[], env: NodeJS.ProcessEnv, log: (m: string) => void): Promise<void> {
  const child = spawn("flock", ["/tmp/krug-build.lock", process.execPath, NEXT_BIN, ...args], { cwd: DIR, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const code = await new Promise<number>((resolve) => child.on("exit", (c) => resolve(c ?? 1)));
  if (code !== 0) {
    log(out);
    throw new Error(`building the trivial page failed (${code})`);
  }
}

/** Builds the trivial page when needed and starts it on `port`; its output goes to `logFile`. */
export async function startTrivialPage(port: number, logFile: string, log: (m: string) => void): Promise<RunningApp> {
  // Its own build directory whatever the caller's NEXT_DIST_DIR says (that one names Krug's build).
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_DIST_DIR: ".next", NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" };
  if (!existsSync(BUILD_ID) || statSync(BUILD_ID).mtimeMs < newestSource()) {
    log("building the trivial page (bench/trivial-page, waits for /tmp/krug-build.lock) …");
    await run(["build"], env, log);
  }
  const out = createWriteStream(logFile, { flags: "w" });
  const child = spawn(process.execPath, [NEXT_BIN, "start", "--port", String(port), "--hostname", "127.0.0.1"], { cwd: DIR, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || !child.pid) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    process.kill(-child.pid, "SIGTERM");
    await exited;
    out.end();
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the trivial page exited (${child.exitCode}); see ${logFile}`);
    try {
      if ((await fetch(`${baseUrl}/`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the trivial page was not ready within 120 s; see ${logFile}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return { baseUrl, buildId: "trivial", pid: child.pid, stop };
}
