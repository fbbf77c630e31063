// The app under benchmark, started as `npm start` starts it (scripts/start.ts: production build, our
// node:http server, the realtime sidecar) on the benchmark database, and stopped with SIGTERM.
// The database is BENCH_DATABASE_URL / DATABASE_URL when given, else an embedded Postgres kept in
// BENCH_DATA_DIR (default .data-bench), so generated data survives between runs.
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "@/db/embedded";

export type BenchDatabase = { url: string; label: string; stop: () => Promise<void> };

export function benchDataDir(): string {
  return path.resolve(process.env.BENCH_DATA_DIR || ".data-bench");
}

/** The given database, or the embedded one (started here, stopped by `stop`). */
export async function openBenchDatabase(): Promise<BenchDatabase> {
  const given = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL;
  if (given) return { url: given, label: `${new URL(given).host}${new URL(given).pathname}`, stop: async () => {} };
  const dataDir = benchDataDir();
  const db: EmbeddedDatabase = await startEmbeddedPostgres({ dataDir });
  // As npm start hands it to Krug's processes: over the cluster's Unix socket (docs/adr/0191).
  return { url: db.appUrl, label: `embedded Postgres in ${path.relative(process.cwd(), dataDir) || "."}`, stop: () => db.stop() };
}

export type RunningApp = { baseUrl: string; buildId: string; pid: number | undefined; stop: () => Promise<void> };

const distDir = () => process.env.NEXT_DIST_DIR || ".next";

/** Another checkout of the app to start beside this one (a baseline): its directory and its build directory there. */
export type AppCheckout = { dir: string; distDir: string };

/** `next build`, inheriting the terminal. */
export async function buildApp(): Promise<void> {
  const build = spawn(process.execPath, ["node_modules/next/dist/bin/next", "build"], { stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
  const code = await new Promise<number>((resolve) => build.on("exit", (c) => resolve(c ?? 1)));
  if (code !== 0) throw new Error(`next build failed (${code})`);
}

/** The build in use: its id and age, so a stale build is noticed in the report. */
export function buildInfo(checkout?: AppCheckout): { id: string; builtAt: string } | null {
  const file = checkout ? path.join(checkout.dir, checkout.distDir, "BUILD_ID") : path.join(distDir(), "BUILD_ID");
  if (!existsSync(file)) return null;
  return { id: readFileSync(file, "utf8").trim(), builtAt: statSync(file).mtime.toISOString() };
}

async function waitReady(url: string, child: ChildProcess, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the app exited (${child.exitCode}) before it was ready`);
    try {
      if ((await fetch(`${url}/api/ready`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`the app was not ready within ${ms / 1000} s`);
}

/**
 * Starts scripts/start.ts (it builds first when no build exists) on `databaseUrl`. Its output goes to
 * BENCH_DATA_DIR/app.log: the request log is written as in production, to a file rather than a terminal.
 */
/** Write limits far above any bench's pace; the limiters still count every write. */
export const BENCH_WRITE_LIMITS = Object.fromEntries(
  ["RATE_LIMIT_POST", "RATE_LIMIT_COMMENT", "RATE_LIMIT_MESSAGE", "RATE_LIMIT_MESSAGE_BURST", "RATE_LIMIT_REACTION", "RATE_LIMIT_SUBSCRIBE", "RATE_LIMIT_WEATHER", "RATE_LIMIT_LOGIN_ACCOUNT", "RATE_LIMIT_LOGIN_IP"].map((name) => [name, "1000000/1m"]),
);

export async function startApp(opts: {
  databaseUrl: string;
  port: number;
  realtimePort: number;
  checkout?: AppCheckout;
  name?: string;
  /** More environment for the app (the soak's TRUST_PROXY). */
  env?: Record<string, string>;
}): Promise<RunningApp> {
  const dataDir = benchDataDir();
  // A second app (the baseline) keeps its own data directory and log beside the first's.
  const name = opts.name ?? "app";
  const appDir = path.join(dataDir, name);
  mkdirSync(appDir, { recursive: true });
  const logFile = path.join(dataDir, `${name}.log`);
  const out = createWriteStream(logFile, { flags: "w" });
  const baseUrl = `http://127.0.0.1:${opts.port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: opts.databaseUrl,
    DATA_DIR: appDir,
    PORT: String(opts.port),
    REALTIME_PORT: String(opts.realtimePort),
    PUBLIC_URL: baseUrl,
    AUTH_SECRET: process.env.AUTH_SECRET ?? "bench-secret-of-at-least-32-characters-0123456789",
    // One client signs in and searches thousands of times from one address: per-IP limits would stop
    // the benchmark, not an attacker. The limiters still run (their cost is measured).
    RATE_LIMIT_LOGIN_IP: "1000000/5m",
    RATE_LIMIT_LOGIN_ACCOUNT: "1000000/5m",
    RATE_LIMIT_SEARCH: "1000000/5m",
    RATE_LIMIT_FRIEND_REQUEST: "1000000/5m",
    // The benches write far faster than a person (a reaction write at 8 connections, 500 messages/s): every
    // write still counts against its limit, so the counting is in the figures, but none is refused (ADR 0109).
    ...BENCH_WRITE_LIMITS,
    ...(opts.checkout ? { NEXT_DIST_DIR: opts.checkout.distDir } : {}),
    ...opts.env,
  };
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/start.ts"], {
    env,
    cwd: opts.checkout?.dir,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  const stop = async () => {
    if (child.exitCode !== null || !child.pid) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    process.kill(child.pid, "SIGTERM");
    const timer = setTimeout(() => child.pid && process.kill(-child.pid, "SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
    out.end();
  };
  try {
    await waitReady(baseUrl, child, 15 * 60_000);
  } catch (err) {
    await stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}; see ${logFile}`);
  }
  const info = buildInfo(opts.checkout);
  return { baseUrl, buildId: info?.id ?? "?", pid: child.pid, stop };
}
