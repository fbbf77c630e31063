// `npm start` (production) and `npm run dev` (hot reload): database, migrations, Next and the realtime
// sidecar as one unit. A child that crashes is restarted with backoff (scripts/supervisor.ts); repeated
// crashes in a short time, or SIGTERM/SIGINT, stop everything, the database last.
import "./lib/runtime"; // first: the Node.js check, telemetry off (docs/adr/0160)
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "@/db/embedded";
import { createDb, createSql } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { EnvError, parseEnv } from "@/lib/server/env";
import { parseAdminEmails, promoteAdminEmails } from "@/lib/server/services/admin/promote";
import { markInUse, releasesDir, servingDistDir, buildIdOf } from "./releases";
import { Supervisor } from "./supervisor";

const dev = process.argv.includes("--dev");
/** NEXT_DIST_DIR: the plain build's directory; releases live beside it (scripts/releases.ts). */
const baseDist = process.env.NEXT_DIST_DIR || ".next";
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

/** With an external database: the pid of this instance, for `npm run restart` (several may share DATA_DIR). */
function pidFile(file: string): () => void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, String(process.pid));
  return () => rmSync(file, { force: true });
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
  if (env.FEDERATION_ALLOW_PRIVATE_ADDRESSES) say("WARNING: FEDERATION_ALLOW_PRIVATE_ADDRESSES=1 — the fediverse client reaches private, loopback and link-local addresses, this server's own network among them. Tests only; never in production.");

  for (const [name, port] of [
    ["PORT", env.PORT],
    ["REALTIME_PORT", env.REALTIME_PORT],
  ] as const) {
    if (!(await portIsFree(port))) fail(`Port ${port} (${name}) is already in use; stop what uses it or set ${name}`);
  }

  const releaseLock = env.DATABASE_URL ? pidFile(path.join(env.DATA_DIR, `krug.${env.PORT}.pid`)) : takeLock(env.DATA_DIR);
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
    if (existsSync(releasesDir(baseDist))) markInUse([], baseDist);
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
  // Krug's processes reach the embedded database over its Unix socket (docs/adr/0191).
  let appDatabaseUrl = databaseUrl;
  try {
    if (!databaseUrl) {
      say(`starting the embedded database in ${path.join(env.DATA_DIR, "pg")}`);
      // Continuous WAL archiving, for `npm run backup` and point-in-time recovery (docs/adr/0141).
      database = await startEmbeddedPostgres({ dataDir: env.DATA_DIR, walArchive: true });
      databaseUrl = database.url;
      appDatabaseUrl = database.appUrl;
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
    DATABASE_URL: appDatabaseUrl,
    AUTH_SECRET: env.AUTH_SECRET,
    DATA_DIR: env.DATA_DIR,
    PORT: String(env.PORT),
    REALTIME_PORT: String(env.REALTIME_PORT),
    PUBLIC_URL: env.PUBLIC_URL,
    NODE_ENV: dev ? "development" : "production",
    // The database is the embedded one of DATA_DIR: the scheduled backup may read its files (docs/adr/0141).
    KRUG_EMBEDDED_DB: database ? "1" : "",
  };
  // The newest build: a release of `npm run build:release`, or the plain one (docs/adr/0149).
  let distDir = servingDistDir(baseDist);
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

  // The web server has an IPC channel: a rolling restart asks its primary to replace the workers.
  const appOptions = (dist: string): SpawnOptions => ({
    stdio: ["inherit", "inherit", "inherit", "ipc"],
    env: { ...childEnv, KRUG_SERVICE: "app", NEXT_DIST_DIR: dist },
  });
  const launch = (name: string, args: string[]) =>
    supervisor.start(name, process.execPath, args, { stdio: "inherit", env: { ...childEnv, KRUG_SERVICE: name } });
  supervisor.start("app", process.execPath, ["--import", "tsx", "scripts/next-server.ts", ...(dev ? ["--dev"] : [])], appOptions(distDir));
  launch("realtime", [
    "--conditions=react-server",
    ...(dev ? ["--watch-path=realtime", "--watch-path=lib/server", "--watch"] : []),
    "--import",
    "tsx",
    "realtime/main.ts",
  ]);
  if (existsSync(releasesDir(baseDist))) markInUse([distDir], baseDist);
  say(`Krug is starting at http://localhost:${env.PORT} (realtime on ${env.REALTIME_PORT})${dev ? "" : `, build ${buildIdOf(distDir)} in ${distDir}`}`);

  // The rolling restart (docs/adr/0149): SIGHUP (`npm run restart`) takes the running Krug over to the
  // newest build one process at a time — each web worker replaced once its successor serves, then the
  // realtime sidecar, whose clients reconnect and resume from their last event id. Its progress and end
  // are written to DATA_DIR/rolling-restart.<PORT>.json for `npm run restart` to follow.
  const statusFile = path.join(env.DATA_DIR, `rolling-restart.${env.PORT}.json`);
  const status = (s: Record<string, unknown>) => writeFileSync(statusFile, JSON.stringify({ ...s, at: new Date().toISOString() }) + "\n");
  let rolling = false;
  const roll = async () => {
    if (dev) return say("a rolling restart is for the production server; development reloads by itself");
    if (rolling || shuttingDown) return say("a rolling restart is already under way (or Krug is stopping)");
    rolling = true;
    const t0 = Date.now();
    const target = servingDistDir(baseDist);
    const buildId = buildIdOf(target);
    const startedAt = new Date(t0).toISOString();
    status({ state: "rolling", startedAt, distDir: target, buildId });
    say(`rolling restart onto build ${buildId} in ${target}: the web workers one by one, then the realtime sidecar`);
    // The new release's migrations first (drizzle/ as it is now): the running code must bear them, as
    // with several instances started one after another (add, backfill, drop in a later release).
    const migrated = await runMigrations(databaseUrl!).then(
      () => null,
      (err: unknown) => (err instanceof Error ? err.message : String(err)),
    );
    if (migrated !== null) {
      say(`rolling restart stopped: the migrations failed: ${migrated}`);
      status({ state: "failed", startedAt, distDir: target, buildId, note: `migrations: ${migrated}` });
      rolling = false;
      return;
    }
    if (existsSync(releasesDir(baseDist))) markInUse([distDir, target], baseDist);
    supervisor.setOptions("app", appOptions(target));
    const app = supervisor.all.find((c) => c.name === "app")?.current;
    const web = app?.connected
      ? await askToRoll(app, target)
      : await supervisor.restart("app", STOP_GRACE_MS).then(() => ({ ok: true, note: "the web server was started again whole" }));
    if (!web.ok) {
      supervisor.setOptions("app", appOptions(distDir));
      if (existsSync(releasesDir(baseDist))) markInUse([distDir], baseDist);
      say(`rolling restart stopped: ${web.note}`);
      status({ state: "failed", startedAt, distDir: target, buildId, note: web.note });
      rolling = false;
      return;
    }
    const webMs = Date.now() - t0;
    distDir = target;
    await supervisor.restart("realtime", STOP_GRACE_MS);
    const sidecarUp = await portAnswers(env.REALTIME_PORT, 120_000);
    if (existsSync(releasesDir(baseDist))) markInUse([target], baseDist);
    const note = `${web.note} in ${(webMs / 1000).toFixed(1)} s; the realtime sidecar ${sidecarUp ? "back" : "NOT back"} after ${((Date.now() - t0 - webMs) / 1000).toFixed(1)} s`;
    say(`rolling restart done in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${note}`);
    status({ state: sidecarUp ? "done" : "failed", startedAt, distDir: target, buildId, note, ms: Date.now() - t0 });
    rolling = false;
  };
  process.on("SIGHUP", () => void roll());
}

/** Asks the web primary (scripts/next-server.ts) to replace its workers with ones on `distDir`. */
function askToRoll(app: ChildProcess, distDir: string): Promise<{ ok: boolean; note: string }> {
  return new Promise((resolve) => {
    const onMessage = (raw: unknown) => {
      const m = raw as { type?: string; ok?: boolean; note?: string } | null;
      if (m?.type !== "krug:rolled") return;
      done({ ok: !!m.ok, note: m.note ?? "" });
    };
    const onExit = () => done({ ok: false, note: "the web server exited during the roll (the supervisor starts it on the new build)" });
    const done = (r: { ok: boolean; note: string }) => {
      app.off("message", onMessage);
      app.off("exit", onExit);
      resolve(r);
    };
    app.on("message", onMessage);
    app.once("exit", onExit);
    app.send({ type: "krug:roll", distDir });
  });
}

/** Whether something accepts connections on 127.0.0.1:port within `ms`. */
async function portAnswers(port: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (up) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

void main();
