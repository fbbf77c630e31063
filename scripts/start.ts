// `npm start` (production) and `npm run dev` (hot reload): database, migrations, Next and the realtime
// sidecar as one unit. A child that crashes is restarted with backoff (scripts/supervisor.ts); repeated
// crashes in a short time, or SIGTERM/SIGINT, stop everything, the database last.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "@/db/embedded";
import { createDb, createSql } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { EnvError, parseEnv } from "@/lib/server/env";
import { parseAdminEmails, promoteAdminEmails } from "@/lib/server/services/admin/promote";
import { Supervisor } from "./supervisor";

const dev = process.argv.includes("--dev");
const STOP_GRACE_MS = 7_000;

function say(line: string) {
  console.log(`[krug] ${line}`);
}

function fail(line: string): never {
  console.error(`[krug] ${line}`);
  process.exit(1);
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** One Krug per DATA_DIR: its embedded database can only serve one of them. */
function takeLock(dataDir: string): () => void {
  const file = path.join(dataDir, "krug.pid");
  if (existsSync(file)) {
    const pid = Number(readFileSync(file, "utf8"));
    if (pid && pid !== process.pid && processAlive(pid)) {
      fail(`Krug is already running with DATA_DIR ${dataDir} (pid ${pid})`);
    }
  }
  writeFileSync(file, String(process.pid));
  return () => rmSync(file, { force: true });
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  if (!child.pid) return;
  try {
    process.kill(-child.pid, signal); // the whole group: Next's own workers included
  } catch {
    /* already gone */
  }
}

/** ADMIN_EMAILS: their accounts become administrators at every start (audited). */
async function promoteAdmins(databaseUrl: string, value: string | undefined) {
  const emails = parseAdminEmails(value);
  if (emails.length === 0) return;
  const sql = createSql(databaseUrl, { max: 1 });
  try {
    const promoted = await promoteAdminEmails(createDb(sql), emails);
    if (promoted.length) say(`ADMIN_EMAILS: ${promoted.length} account(s) made administrators`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

function loadEnv() {
  try {
    return parseEnv();
  } catch (err) {
    return fail(err instanceof EnvError ? err.message : String(err));
  }
}

async function main() {
  const env = loadEnv();
  if (env.CAPTCHA_TEST_CODE) say("WARNING: CAPTCHA_TEST_CODE is set — every captcha accepts that code. Never use it in production.");

  for (const [name, port] of [
    ["PORT", env.PORT],
    ["REALTIME_PORT", env.REALTIME_PORT],
  ] as const) {
    if (!(await portIsFree(port))) fail(`Port ${port} (${name}) is already in use; stop what uses it or set ${name}`);
  }

  const releaseLock = env.DATABASE_URL ? () => {} : takeLock(env.DATA_DIR);
  const children: ChildProcess[] = [];
  let database: EmbeddedDatabase | undefined;
  let shuttingDown = false;
  const supervisor = new Supervisor(say, (_name, reason) => void shutdown(1, reason));

  const shutdown = async (code: number, reason?: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    if (reason) say(reason);
    say("stopping…");
    const supervised = supervisor.stopAll(STOP_GRACE_MS);
    for (const c of children) signalGroup(c, "SIGTERM");
    const done = await Promise.all(children.map((c) => waitForExit(c, STOP_GRACE_MS)));
    children.forEach((c, i) => {
      if (!done[i]) signalGroup(c, "SIGKILL");
    });
    await supervised;
    if (database) await database.stop().catch(() => {});
    releaseLock();
    say("stopped");
    process.exit(code);
  };
  process.on("SIGTERM", () => void shutdown(0));
  process.on("SIGINT", () => void shutdown(0));
  // npm forwards signals, but if whatever started us dies without a word (SIGKILL), stop as well
  // rather than leave Next, the sidecar and the database running with nobody to stop them.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void shutdown(0, "the parent process is gone");
  }, 1000).unref();

  let databaseUrl = env.DATABASE_URL;
  try {
    if (!databaseUrl) {
      say(`starting the embedded database in ${path.join(env.DATA_DIR, "pg")}`);
      // Continuous WAL archiving, for `npm run backup` and point-in-time recovery (docs/adr/0141).
      database = await startEmbeddedPostgres({ dataDir: env.DATA_DIR, walArchive: true });
      databaseUrl = database.url;
    }
    await runMigrations(databaseUrl);
    await promoteAdmins(databaseUrl, env.ADMIN_EMAILS);
  } catch (err) {
    await database?.stop().catch(() => {});
    releaseLock();
    fail(`Database: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (shuttingDown) return;

  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    AUTH_SECRET: env.AUTH_SECRET,
    DATA_DIR: env.DATA_DIR,
    PORT: String(env.PORT),
    REALTIME_PORT: String(env.REALTIME_PORT),
    PUBLIC_URL: env.PUBLIC_URL,
    NODE_ENV: dev ? "development" : "production",
    // The database is the embedded one of DATA_DIR: the scheduled backup may read its files (docs/adr/0141).
    KRUG_EMBEDDED_DB: database ? "1" : "",
  };
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  const nextBin = path.join("node_modules", "next", "dist", "bin", "next");

  if (!dev && !existsSync(path.join(distDir, "BUILD_ID"))) {
    say("no build found: building (first start only)…");
    const build = spawn(process.execPath, [nextBin, "build"], { stdio: "inherit", env: childEnv, detached: true });
    children.push(build);
    const code = await new Promise<number>((resolve) => build.on("exit", (c) => resolve(c ?? 1)));
    children.splice(children.indexOf(build), 1);
    if (shuttingDown) return;
    if (code !== 0) return shutdown(1, "the build failed");
  }

  const launch = (name: string, args: string[]) =>
    supervisor.start(name, process.execPath, args, { stdio: "inherit", env: { ...childEnv, KRUG_SERVICE: name } });
  launch("app", ["--import", "tsx", "scripts/next-server.ts", ...(dev ? ["--dev"] : [])]);
  launch("realtime", [
    "--conditions=react-server",
    ...(dev ? ["--watch-path=realtime", "--watch-path=lib/server", "--watch"] : []),
    "--import",
    "tsx",
    "realtime/main.ts",
  ]);
  say(`Krug is starting at http://localhost:${env.PORT} (realtime on ${env.REALTIME_PORT})`);
}

void main();
