// Fediverse delivery benchmark (issue 43, "Done when"; docs/adr/0175): `npm run bench -- --only=federation`
// (only when named: it needs no generated data, and its dead-server run waits minutes).
// One post of a local person with BENCH_FEDERATION_FOLLOWERS (10,000) remote followers spread evenly over
// BENCH_FEDERATION_SERVERS (500) servers, published through the posts service and delivered by the job
// process's share of federation exactly as it runs (createKrugFederation + startFederationWorkers: the
// outbox relay, Fedify's fan-out and its 8 delivery workers on the Postgres queue), into a stand-in for the
// 500 servers: a child process listening on 500 ports of 127.0.0.1 (each port a host of its own for Fedify,
// its circuit breaker and its connection pool) that counts what arrives, per server, without checking
// signatures, and answers 202. Every follower's server offers a shared inbox (`/inbox`), as the common servers do.
//   1. All servers answer: time from the post's commit until every server has its delivery (the first, p50, p90, max
//      over the servers), HTTP requests that arrived in all, Postgres CPU per delivered activity (the
//      schedstat of every backend of the bench's database, sampled every 100 ms, as bench/groups.ts reads
//      one backend), this process's CPU (relay, fan-out, signing, sending) and the stand-in's.
//   2. The trivial baseline of the same run: the same number of POSTs of a body as large, one per server,
//      8 at a time (Fedify's workers), by plain fetch — no queue, no signature, no database; and the
//      Postgres CPU of a trivial statement (`select 1`) on one connection, as the other benches report it.
//   3. BENCH_FEDERATION_DEAD (10) of the servers accept the connection and never answer: time until the
//      other servers all have the next post (waiting at most BENCH_FEDERATION_DEAD_WAIT seconds, 330).
// The commit itself is timed too (createPost, with the 10,000 remote subscribers' friendship rows that the
// Follow path writes), beside the same call by an author with no subscriber (median of 5).
// The database is made fresh from the migrations on the bench's Postgres (krug_bench_federation, dropped
// first), with pg-boss's schema (the post's timeline job is queued; nobody works it here).
import { spawn, type ChildProcess } from "node:child_process";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { closeDb, createDb, createSql, getDb, getSql, type Db } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import type { Viewer } from "@/lib/server/auth/viewer";
import { createKrugFederation, startFederationWorkers } from "@/lib/server/federation/federation";
import { ensureActorKeys } from "@/lib/server/federation/keys";
import { getBoss, stopBoss } from "@/lib/server/jobs/boss";
import { createAccount } from "@/lib/server/services/accounts/create-account";
import type { ServiceCtx } from "@/lib/server/services/context";
import { createPost } from "@/lib/server/services/posts/write-posts";
import { BENCH_WRITE_LIMITS } from "./app";
import { cpuNs } from "./people-search";

export type DeliveryRow = {
  name: string;
  /** Servers that were to get the post, and how many had it when the run ended. */
  servers: number;
  reached: number;
  /** From the commit until each server's first POST: the first server's, then over the servers. */
  firstMs: number;
  p50Ms: number;
  p90Ms: number;
  maxMs: number;
  requests: number;
  pgCpuMsPerDelivery: number | null;
  benchCpuMsPerDelivery: number;
  standInCpuMsPerRequest: number;
  note?: string;
};
export type FederationReport = { followers: number; servers: number; commit: { name: string; ms: number; pgCpuMs: number | null }[]; rows: DeliveryRow[]; trivialSelectPgCpuMs: number | null };

const DB_NAME = "krug_bench_federation";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const epochMs = () => performance.timeOrigin + performance.now();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const quantile = (xs: number[], q: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] : NaN);

// ---------------------------------------------------------------------------------------------------
// The stand-in servers: a child process of its own (its CPU apart from the sender's), plain JavaScript.
// Counts POSTs per port and per post (the `/post/<id>` its body names), the first arrival's time (epoch ms,
// high resolution), requests to a shared inbox and to a personal one; ports set dead take the request and
// never answer (the server's own request timeout off).

const STAND_IN = `
const http = require("node:http");
const now = () => performance.timeOrigin + performance.now();
const n = Number(process.env.STAND_IN_SERVERS);
let dead = new Set();
const runs = new Map();
const run = (key) => {
  let r = runs.get(key);
  if (!r) runs.set(key, (r = { first: {}, posts: {}, shared: 0, personal: 0, bytes: 0 }));
  return r;
};
let deadRequests = 0;
let other = 0;
function onRequest(req, res) {
  const port = req.socket.localPort;
  if (dead.has(port)) {
    deadRequests++;
    req.pause();
    return;
  }
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    if (req.method !== "POST") {
      other++;
      res.writeHead(404).end();
      return;
    }
    const at = now();
    const body = Buffer.concat(chunks);
    const key = (/\\/post\\/([A-Za-z0-9-]+)/.exec(body.toString("utf8")) || [, "?"])[1];
    const r = run(key);
    r.posts[port] = (r.posts[port] || 0) + 1;
    if (r.first[port] === undefined) r.first[port] = at;
    r.bytes += body.length;
    if (req.url === "/inbox") r.shared++;
    else r.personal++;
    res.writeHead(202).end();
  });
}
const ports = [];
let open = 0;
for (let i = 0; i < n; i++) {
  const server = http.createServer(onRequest);
  server.requestTimeout = 0;
  server.listen(0, "127.0.0.1", () => {
    ports[i] = server.address().port;
    if (++open === n) process.send({ type: "ports", ports });
  });
}
process.on("message", (m) => {
  if (m.type === "dead") dead = new Set(m.ports);
  if (m.type === "report") {
    const u = process.cpuUsage();
    process.send({ type: "report", id: m.id, run: runs.get(m.key) || null, deadRequests, other, cpuMs: (u.user + u.system) / 1000 });
  }
});
process.on("disconnect", () => process.exit(0));
`;

type StandInRun = { first: Record<string, number>; posts: Record<string, number>; shared: number; personal: number; bytes: number };
type StandInReport = { run: StandInRun | null; deadRequests: number; other: number; cpuMs: number };

type StandIn = {
  ports: number[];
  setDead(ports: number[]): void;
  report(key: string): Promise<StandInReport>;
  stop(): Promise<void>;
};

async function startStandIn(servers: number): Promise<StandIn> {
  const child: ChildProcess = spawn(process.execPath, ["-e", STAND_IN], {
    env: { ...process.env, STAND_IN_SERVERS: String(servers) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const waiting = new Map<number, (r: StandInReport) => void>();
  let seq = 0;
  const ports = await new Promise<number[]>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the stand-in servers exited (${code})`)));
    child.on("message", (m: { type: string; ports?: number[]; id?: number } & StandInReport) => {
      if (m.type === "ports") resolve(m.ports!);
      if (m.type === "report") {
        waiting.get(m.id!)?.(m);
        waiting.delete(m.id!);
      }
    });
  });
  return {
    ports,
    setDead: (dead) => child.send({ type: "dead", ports: dead }),
    report: (key) =>
      new Promise((resolve) => {
        const id = ++seq;
        waiting.set(id, resolve);
        child.send({ type: "report", id, key });
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}

// ---------------------------------------------------------------------------------------------------
// Postgres CPU: every backend of the bench's database (pg_stat_activity, read on a connection to another
// database so that it is not one of them), its schedstat every 100 ms; a backend that ends keeps the last
// figure read (at most 100 ms of an idle connection's time lost).

type PgCpu = { total(): Promise<number | null>; stop(): void };

function pgCpuSampler(admin: postgres.Sql): PgCpu {
  const seen = new Map<number, number>();
  let ok = true;
  const sample = async () => {
    const rows = await admin<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${DB_NAME}`;
    for (const { pid } of rows) {
      const ns = cpuNs(pid);
      if (ns === null) ok = false;
      else seen.set(pid, Math.max(ns, seen.get(pid) ?? 0));
    }
  };
  let busy: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    busy = busy.then(sample).catch(() => {});
  }, 100);
  return {
    async total() {
      busy = busy.then(sample).catch(() => {});
      await busy;
      if (!ok) return null;
      let sum = 0;
      for (const ns of seen.values()) sum += ns;
      return sum / 1e6;
    },
    stop: () => clearInterval(timer),
  };
}

// ---------------------------------------------------------------------------------------------------
// The data.

async function freshDatabase(serverUrl: string): Promise<string> {
  const admin = new URL(serverUrl);
  admin.pathname = "/postgres";
  const a = createSql(admin.toString(), { max: 1, onnotice: () => {} });
  try {
    await a.unsafe(`drop database if exists ${DB_NAME} with (force)`);
    await a.unsafe(`create database ${DB_NAME}`);
  } finally {
    await a.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${DB_NAME}`;
  await runMigrations(url.toString());
  return url.toString();
}

async function localPerson(db: Db, firstName: string, federating: boolean): Promise<{ id: number; ctx: ServiceCtx }> {
  const row = await createAccount({
    ctx: { viewer: null, db, requestId: "bench", ip: "127.0.0.1" },
    input: { email: `bench-fedi-${firstName.toLowerCase()}-${Date.now()}@example.com`, password: "Secret-pass1!", firstName, lastName: "Bench" },
  });
  if (federating) {
    await db.execute(sql`update accounts set fediverse = true where id = ${row.id}`);
    await ensureActorKeys(db, row.id);
  }
  const viewer: Viewer = { id: row.id, sessionId: "bench", role: "USER", isDeleted: false, language: "ru" };
  return { id: row.id, ctx: { viewer, db, requestId: "bench", ip: "127.0.0.1" } };
}

/**
 * `followers` remote accounts of `ports.length` servers (follower g on server g mod servers), each as the
 * Follow path leaves it: an account, its remote_actors row (a personal inbox and the server's shared inbox),
 * the friendship rows of a subscription (SUBSCRIBED, WATCHING) and its fediverse_followers row. Bulk SQL.
 */
async function remoteFollowers(db: Db, authorId: number, ports: number[], followers: number, tag: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      create temporary table bench_remote on commit drop as
      select g, (${`{${ports.join(",")}}`}::int[])[1 + g % ${ports.length}] as port from generate_series(0, ${followers - 1}) g`);
    await tx.execute(sql`
      insert into accounts (email, password_hash, first_name, last_name, searchable, messages_from, friend_requests_from, language)
      select 'remote-' || ${tag} || '-' || g || '@fediverse.invalid', '!', 'Remote ' || g, '', false, 'FRIENDS', 'FRIENDS_OF_FRIENDS', 'ru'
      from bench_remote order by g`);
    await tx.execute(sql`
      insert into remote_actors (account_id, uri, inbox, shared_inbox, host, handle)
      select a.id, 'http://127.0.0.1:' || r.port || '/users/u' || r.g, 'http://127.0.0.1:' || r.port || '/users/u' || r.g || '/inbox',
             'http://127.0.0.1:' || r.port || '/inbox', '127.0.0.1:' || r.port, 'u' || r.g || '@127.0.0.1:' || r.port
      from bench_remote r join accounts a on a.email = 'remote-' || ${tag} || '-' || r.g || '@fediverse.invalid'`);
    await tx.execute(sql`
      insert into friendships (account_id, friend_id, status_code)
      select a.id, ${authorId}, 'SUBSCRIBED'::friend_status from accounts a where a.email like ${`remote-${tag}-%`}
      union all
      select ${authorId}, a.id, 'WATCHING'::friend_status from accounts a where a.email like ${`remote-${tag}-%`}`);
    await tx.execute(sql`
      insert into fediverse_followers (account_id, follower_id)
      select ${authorId}, id from accounts where email like ${`remote-${tag}-%`}`);
  });
  await db.execute(sql`analyze accounts`);
  await db.execute(sql`analyze remote_actors`);
  await db.execute(sql`analyze friendships`);
  await db.execute(sql`analyze fediverse_followers`);
}

// ---------------------------------------------------------------------------------------------------
// The runs.

type Measured = { commitMs: number; commitPgCpuMs: number | null; bodyBytes: number; row: DeliveryRow };

async function deliveryRun(opts: {
  name: string;
  author: { ctx: ServiceCtx };
  standIn: StandIn;
  live: number[];
  pg: PgCpu;
  waitMs: number;
  note?: string;
}): Promise<Measured> {
  const { standIn, live, pg } = opts;
  const stand0 = await standIn.report("-");
  const pg0 = await pg.total();
  const cpu0 = process.cpuUsage();
  const t0 = epochMs();
  const post = await createPost({ ctx: opts.author.ctx, input: { title: opts.name, postText: `<p>${opts.name}: one post to every remote follower</p>` } });
  const committed = epochMs();
  const pg1 = await pg.total();
  const key = String(post.id);
  const liveSet = new Set(live.map(String));
  let report = await standIn.report(key);
  const reachedLive = (r: StandInReport) => (r.run ? Object.keys(r.run.first).filter((p) => liveSet.has(p)).length : 0);
  const deadline = committed + opts.waitMs;
  while (reachedLive(report) < live.length && epochMs() < deadline) {
    await sleep(100);
    report = await standIn.report(key);
  }
  const pg2 = await pg.total();
  const cpu1 = process.cpuUsage(cpu0);
  // Doubles and late personal-inbox requests would come now.
  await sleep(2_000);
  report = await standIn.report(key);
  const run = report.run ?? { first: {}, posts: {}, shared: 0, personal: 0, bytes: 0 };
  const arrivals = Object.entries(run.first)
    .filter(([p]) => liveSet.has(p))
    .map(([, at]) => at - committed);
  const reached = arrivals.length;
  const requests = run.shared + run.personal;
  const deliveries = Math.max(1, reached);
  const doubled = Object.values(run.posts).filter((n) => n > 1).length;
  const notes = [
    `${run.shared} to shared inboxes, ${run.personal} to personal ones; servers with more than one: ${doubled}; ${Math.round(run.bytes / Math.max(1, requests))} bytes a body`,
    opts.note,
  ].filter(Boolean);
  return {
    commitMs: committed - t0,
    commitPgCpuMs: pg0 !== null && pg1 !== null ? pg1 - pg0 : null,
    bodyBytes: Math.round(run.bytes / Math.max(1, requests)),
    row: {
      name: opts.name,
      servers: live.length,
      reached,
      firstMs: Math.min(...arrivals),
      p50Ms: quantile(arrivals, 0.5),
      p90Ms: quantile(arrivals, 0.9),
      maxMs: reached === live.length ? Math.max(...arrivals) : NaN,
      requests,
      pgCpuMsPerDelivery: pg1 !== null && pg2 !== null ? (pg2 - pg1) / deliveries : null,
      benchCpuMsPerDelivery: (cpu1.user + cpu1.system) / 1000 / deliveries,
      standInCpuMsPerRequest: (report.cpuMs - stand0.cpuMs) / Math.max(1, requests),
      note: notes.join("; "),
    },
  };
}

/** The floor: one POST per server of a body as large, 8 at a time, by plain fetch. */
async function plainPosts(standIn: StandIn, ports: number[], bodyBytes: number): Promise<DeliveryRow> {
  const stand0 = await standIn.report("-");
  const cpu0 = process.cpuUsage();
  const body = JSON.stringify({ id: "http://127.0.0.1/post/baseline", pad: "x".repeat(Math.max(0, bodyBytes - 60)) });
  const t0 = epochMs();
  let next = 0;
  const worker = async () => {
    while (next < ports.length) {
      const port = ports[next++];
      const res = await fetch(`http://127.0.0.1:${port}/inbox`, { method: "POST", headers: { "content-type": "application/activity+json" }, body });
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  const cpu1 = process.cpuUsage(cpu0);
  const report = await standIn.report("baseline");
  const run = report.run!;
  const arrivals = Object.values(run.first).map((at) => at - t0);
  const requests = run.shared + run.personal;
  return {
    name: "trivial baseline: plain POSTs, one per server, 8 at a time",
    servers: ports.length,
    reached: arrivals.length,
    firstMs: Math.min(...arrivals),
    p50Ms: quantile(arrivals, 0.5),
    p90Ms: quantile(arrivals, 0.9),
    maxMs: Math.max(...arrivals),
    requests,
    pgCpuMsPerDelivery: 0,
    benchCpuMsPerDelivery: (cpu1.user + cpu1.system) / 1000 / arrivals.length,
    standInCpuMsPerRequest: (report.cpuMs - stand0.cpuMs) / Math.max(1, requests),
    note: `no queue, no signature, no database; ${Math.round(run.bytes / Math.max(1, requests))} bytes a body`,
  };
}

/** Postgres CPU of `select 1` on one connection (the other benches' trivial statement): median of 7 rounds × 200. */
async function trivialStatement(url: string): Promise<number | null> {
  const client = createSql(url, { max: 1 });
  const db = createDb(client);
  try {
    const [{ pid }] = await db.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
    for (let i = 0; i < 50; i++) await db.execute(sql`select 1`);
    const per: number[] = [];
    for (let r = 0; r < 7; r++) {
      const c0 = cpuNs(pid);
      for (let i = 0; i < 200; i++) await db.execute(sql`select 1`);
      const c1 = cpuNs(pid);
      if (c0 === null || c1 === null) return null;
      per.push((c1 - c0) / 1e6 / 200);
    }
    return median(per);
  } finally {
    await client.end({ timeout: 5 });
  }
}

export async function benchFederation(serverUrl: string): Promise<FederationReport> {
  const followers = Number(process.env.BENCH_FEDERATION_FOLLOWERS ?? 10_000);
  const servers = Number(process.env.BENCH_FEDERATION_SERVERS ?? 500);
  const deadCount = Number(process.env.BENCH_FEDERATION_DEAD ?? 10);
  const deadWaitMs = Number(process.env.BENCH_FEDERATION_DEAD_WAIT ?? 330) * 1000;
  const url = await freshDatabase(serverUrl);
  console.log(`database ${DB_NAME}: made from the migrations`);
  // The services (the rate limiter, pg-boss's timeline job) read DATABASE_URL, as in the job process.
  process.env.DATABASE_URL = url;
  process.env.LOG_LEVEL ??= "warn";
  process.env.AUTH_SECRET ??= `bench-${Date.now()}-secret-of-at-least-32-characters`;
  Object.assign(process.env, BENCH_WRITE_LIMITS);
  await getBoss();
  const adminUrl = new URL(serverUrl);
  adminUrl.pathname = "/postgres";
  const admin = createSql(adminUrl.toString(), { max: 1, onnotice: () => {} });
  const pg = pgCpuSampler(admin);
  // The 500 servers, and 5 more for the warm-up post (so the measured servers' connections start cold).
  const standIn = await startStandIn(servers + 5);
  const measured = standIn.ports.slice(0, servers);
  const warmPorts = standIn.ports.slice(servers);
  const stop = new AbortController();
  try {
    // The job process's federation, on its pool (getDb/getSql), as getFederation makes it.
    const db = getDb();
    const instance = createKrugFederation({ db, sql: getSql(), origin: "http://127.0.0.1:9", allowPrivateAddress: true });
    const author = await localPerson(db, "Author", true);
    const warm = await localPerson(db, "Warm", true);
    const quiet = await localPerson(db, "Quiet", false);
    const l0 = performance.now();
    await remoteFollowers(db, author.id, measured, followers, "m");
    await remoteFollowers(db, warm.id, warmPorts, 10, "w");
    console.log(`${followers} remote followers on ${servers} servers (and 10 on 5 for the warm-up) in ${Math.round(performance.now() - l0)} ms`);
    await startFederationWorkers(instance, stop.signal);

    // Warm-up, not measured: Fedify's code, its tables (made on first use), the signing keys' import.
    for (let i = 0; i < 2; i++) await deliveryRun({ name: `warm-up ${i}`, author: warm, standIn, live: warmPorts, pg, waitMs: 60_000 });

    // The commit's baseline: the same call by an author with no subscriber.
    const quietMs: number[] = [];
    const quietPg: number[] = [];
    for (let i = 0; i < 5; i++) {
      const p0 = await pg.total();
      const t0 = performance.now();
      await createPost({ ctx: quiet.ctx, input: { title: `quiet ${i}`, postText: "<p>nobody follows me</p>" } });
      quietMs.push(performance.now() - t0);
      const p1 = await pg.total();
      if (p0 !== null && p1 !== null) quietPg.push(p1 - p0);
    }

    // Connections left open by the warm-up and the baseline close (the servers' keep-alive is 5 s).
    await sleep(6_000);
    console.log(`run 1: one post to ${followers} followers on ${servers} servers …`);
    const live = await deliveryRun({ name: `one post → ${followers} followers on ${servers} servers, all answer`, author, standIn, live: measured, pg, waitMs: 120_000 });
    console.log(`  ${JSON.stringify(live)}`);
    await sleep(6_000);
    const baseline = await plainPosts(standIn, measured, live.bodyBytes);

    await sleep(6_000);
    // Dead servers spread over the order in which the fan-out queues them (every servers/dead-th).
    const dead = Array.from({ length: deadCount }, (_, i) => measured[Math.floor(((i + 0.5) * servers) / deadCount)]);
    standIn.setDead(dead);
    console.log(`run 2: ${deadCount} of the ${servers} servers never answer (waiting at most ${deadWaitMs / 1000} s for the others) …`);
    const withDead = await deliveryRun({
      name: `one post → ${followers} followers, ${deadCount} of ${servers} servers never answer`,
      author,
      standIn,
      live: measured.filter((p) => !dead.includes(p)),
      pg,
      waitMs: deadWaitMs,
      note: `time until the ${servers - deadCount} that answer have it`,
    });
    console.log(`  ${JSON.stringify(withDead)}`);
    const deadReport = await standIn.report("-");
    withDead.row.note += `; ${deadReport.deadRequests} requests held by the dead servers`;

    const trivial = await trivialStatement(url);
    return {
      followers,
      servers,
      commit: [
        { name: "createPost, author with no subscriber (median of 5)", ms: median(quietMs), pgCpuMs: quietPg.length ? median(quietPg) : null },
        { name: `createPost, author with ${followers} remote subscribers (run 1)`, ms: live.commitMs, pgCpuMs: live.commitPgCpuMs },
        { name: `createPost, the same author (run 2)`, ms: withDead.commitMs, pgCpuMs: withDead.commitPgCpuMs },
      ],
      rows: [baseline, live.row, withDead.row],
      trivialSelectPgCpuMs: trivial,
    };
  } finally {
    // The stand-in first: its held requests fail, and Fedify queues their retries while its pool is still
    // open; then the workers stop, then the pools close.
    await standIn.stop();
    await sleep(3_000);
    stop.abort();
    pg.stop();
    await sleep(500);
    await stopBoss();
    await closeDb();
    await admin.end({ timeout: 5 });
  }
}

export function printFederation(r: FederationReport, log: (line: string) => void): void {
  const f = (x: number | null, d = 1) => (x === null || Number.isNaN(x) ? "—" : x.toFixed(d));
  log(`\nfediverse delivery (${r.followers} remote followers on ${r.servers} servers, shared inboxes; times from the post's commit):`);
  log("| run | servers reached | first ms | p50 ms | p90 ms | all ms | HTTP requests | Postgres CPU ms / delivery | sender CPU ms / delivery | stand-in CPU ms / request |");
  log("|---|---|---|---|---|---|---|---|---|---|");
  for (const x of r.rows) {
    log(`| ${x.name} | ${x.reached} of ${x.servers} | ${f(x.firstMs, 0)} | ${f(x.p50Ms, 0)} | ${f(x.p90Ms, 0)} | ${f(x.maxMs, 0)} | ${x.requests} | ${f(x.pgCpuMsPerDelivery, 2)} | ${f(x.benchCpuMsPerDelivery, 2)} | ${f(x.standInCpuMsPerRequest, 2)} |`);
  }
  for (const x of r.rows) if (x.note) log(`  ${x.name}: ${x.note}`);
  log(`trivial statement (select 1) on one connection: Postgres CPU ${f(r.trivialSelectPgCpuMs, 3)} ms a call`);
  for (const c of r.commit) log(`${c.name}: ${f(c.ms)} ms, Postgres CPU ${f(c.pgCpuMs)} ms`);
}
