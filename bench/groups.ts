// Group conversations benchmark (issue 41, "Speed"; docs/adr/0169): `npm run bench -- --only=groups`.
//  1. Delivery: one group of BENCH_GROUP_MEMBERS (500) people, each with one socket (frames=all) on one
//     sidecar (started as `npm start` starts it, bench/chat.ts), messages sent through the send verb at
//     BENCH_GROUP_RATE (20) a second for BENCH_GROUP_SECONDS (10): send → each member's socket, p50/p99/max,
//     lost and doubled deliveries. Then the same again with the sidecar killed (SIGKILL) halfway and started
//     again on its port: every socket reconnects with ?lastEventId=<the last id it saw>; none may be lost
//     or doubled across the restart (that run lasts BENCH_GROUP_RESTART_SECONDS, 30, killed halfway).
//  2. The database's cost of one message in groups of 5, 50 and 500 and in a one-to-one dialog, on ONE
//     connection (the house's method, bench/people-search.ts): that backend's CPU from /proc/<pid>/schedstat
//     around the send verb, and around the outbox sequencer's call that follows it (what a sidecar runs:
//     it writes the event's recipients); rows written per message from pg_stat_user_tables (n_tup_ins +
//     n_tup_upd, flushed with pg_stat_force_next_flush) and WAL bytes per message, over BENCH_GROUP_WRITES
//     messages each (the rate limiter's own counter rows, on its own pool, left out: the same for both kinds).
//  3. The dialog list of a member with 200 conversations, 50 of them groups (3 to 500 people, with
//     messages, half read), and of a member with 200 one-to-one dialogs only: Postgres CPU and wall per
//     GET dialogs page 0 (size 20) and per GET dialogs/unread, interleaved rounds on one connection.
// `--explain` prints EXPLAIN (ANALYZE, BUFFERS, WAL) of the send statements (rolled back) and of the list.
import { randomUUID } from "node:crypto";
import os from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { WebSocket } from "ws";
import { createDb, createSql, getDb, type Db } from "@/db/client";
import { freePort } from "@/db/embedded";
import { sequenceEvents } from "@/lib/server/events/outbox";
import type { ServiceCtx } from "@/lib/server/services/context";
import { countUnreadMessages, createDialog, listDialogs, markDialogRead } from "@/lib/server/services/dialogs/dialogs";
import { createGroup } from "@/lib/server/services/dialogs/groups";
import { sendMessage } from "@/lib/server/services/dialogs/messages";
import { openSocket, people, startSidecar, stats, type BenchFrame, type ChatTiming, type Person } from "./chat";
import { cpuSampler, perRequest } from "./cpu";
import { cpuNs } from "./people-search";

export type CostRow = { name: string; sendCpuMs: number; sequencerCpuMs: number; rows: number; walBytes: number; tables: string };
export type ListRow = { name: string; wallMs: number; pgCpuMs: number; rounds: number; calls: number };
export type GroupsReport = { delivery: ChatTiming[]; cost: CostRow[]; list: ListRow[]; machine: string };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A member's socket and what it has seen: the last event id (for resume) and the messages (by clientId). */
type Watcher = { p: Person; address: string; ws: WebSocket | null; lastId: number; seen: Set<string> };

/** The db of `p`'s context swapped for `db` (one connection, whose backend is measured). */
const on = (p: Person, db: Db): ServiceCtx => ({ ...p.ctx, db });

/** A db that records every statement it executes (to EXPLAIN exactly what a service verb ran). */
function recording(db: Db, into: SQL[]): Db {
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === "execute") return (q: SQL) => (into.push(q), target.execute(q));
      const v = Reflect.get(target, prop, receiver);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

const dialect = new PgDialect();
const textOf = (q: SQL) => dialect.sqlToQuery(q).sql;

async function explain(db: Db, title: string, q: SQL, rollback: boolean, generic = false): Promise<void> {
  if (rollback || generic) await db.execute(sql`begin`);
  try {
    // The plan the list's calls really run: a cached generic one (pg_prepared_statements above says which).
    if (generic) await db.execute(sql`set local plan_cache_mode = force_generic_plan`);
    const rows = await db.execute<{ "QUERY PLAN": string }>(sql`explain (analyze, buffers, wal) ${q}`);
    console.log(`\n--- EXPLAIN ANALYZE: ${title}\n${rows.map((r) => r["QUERY PLAN"]).join("\n")}`);
  } finally {
    if (rollback || generic) await db.execute(sql`rollback`);
  }
}

// ---------------------------------------------------------------------------------------------------
// 1. Delivery to 500 sockets, and across a sidecar restart.

async function benchDelivery(crowd: Person[], groupId: number, port: number): Promise<{ timings: ChatTiming[]; stop: () => Promise<void> }> {
  const rate = Number(process.env.BENCH_GROUP_RATE ?? 20);
  const seconds = Number(process.env.BENCH_GROUP_SECONDS ?? 10);
  const s0 = performance.now();
  let sidecar = await startSidecar(port);
  console.log(`sidecar up in ${Math.round(performance.now() - s0)} ms (first start)`);
  const sentAt = new Map<string, number>();
  let latencies: number[] = [];
  /** In a run with a restart: when every socket had resumed, and the latencies of messages sent after it. */
  let resumedAt = Infinity;
  let afterResume: number[] = [];
  /** Per message, its first and last delivery: how long the fan-out to all the sockets took. */
  const spans = new Map<string, { first: number; last: number }>();
  let delivered = 0;
  let doubled = 0;
  const onFrame = (w: Watcher) => (f: BenchFrame) => {
    if (typeof f.id === "number" && f.id > w.lastId) w.lastId = f.id;
    const clientId = f.type === "MESSAGE" ? f.data?.clientId : undefined;
    const started = clientId ? sentAt.get(clientId) : undefined;
    if (started === undefined) return;
    if (w.seen.has(clientId!)) {
      doubled += 1;
      return;
    }
    w.seen.add(clientId!);
    delivered += 1;
    const now = performance.now();
    latencies.push(now - started);
    if (started > resumedAt) afterResume.push(now - started);
    const span = spans.get(clientId!);
    if (span) span.last = now;
    else spans.set(clientId!, { first: now, last: now });
  };
  const connect = async (w: Watcher, resume: boolean) => {
    const ws = await openSocket(port, w.p.token, onFrame(w), w.address, resume ? w.lastId : undefined);
    ws.on("error", () => {}); // a killed sidecar resets the connection: the close below handles it
    ws.on("close", () => {
      if (w.ws === ws) w.ws = null;
    });
    w.ws = ws;
  };
  // One socket per member, each from an address of its own (the sidecar caps sockets per address, ADR 40).
  const watchers: Watcher[] = crowd.map((p, i) => ({ p, address: `10.41.${i >> 8}.${i & 255}`, ws: null, lastId: 0, seen: new Set() }));
  const inBatches = async (ws: Watcher[], resume: boolean) => {
    for (let i = 0; i < ws.length; i += 100) await Promise.all(ws.slice(i, i + 100).map((w) => connect(w, resume)));
  };
  const o0 = performance.now();
  await inBatches(watchers, false);
  console.log(`${watchers.length} sockets open (READY) in ${Math.round(performance.now() - o0)} ms`);

  const run = async (label: string, seconds: number, restartAfter?: number): Promise<ChatTiming[]> => {
    latencies = [];
    afterResume = [];
    resumedAt = Infinity;
    delivered = 0;
    doubled = 0;
    sentAt.clear();
    spans.clear();
    for (const w of watchers) w.seen.clear();
    const total = rate * seconds;
    const sendTimes: number[] = [];
    let ok = 0;
    let failed = 0;
    let restartNote = "";
    let restarting: Promise<void> | null = null;
    // The sidecar's CPU per message (its process, when it is not restarted) and this process's (the 500
    // sockets' client and the sender share the machine), and this process's event-loop delay: a late
    // frame may be late here, not there.
    const sampler = restartAfter === undefined ? cpuSampler(sidecar.pid) : null;
    const cpu0 = sampler?.();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const t0 = performance.now();
    const inflight: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = t0 + (i * 1000) / rate;
      if (restartAfter !== undefined && !restarting && due - t0 >= restartAfter * 1000) {
        restarting = (async () => {
          const k0 = performance.now();
          process.kill(sidecar.pid, "SIGKILL");
          await sidecar.stop();
          const closeDeadline = Date.now() + 10_000;
          while (watchers.some((w) => w.ws !== null) && Date.now() < closeDeadline) await sleep(20);
          sidecar = await startSidecar(port);
          const k1 = performance.now();
          await inBatches(watchers.filter((w) => w.ws === null), true);
          const k2 = performance.now();
          resumedAt = k2;
          restartNote = `; killed at ${restartAfter}s, up again in ${Math.round(k1 - k0)} ms, all ${watchers.length} resumed (READY) ${Math.round(k2 - k0)} ms after the kill`;
        })();
      }
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      const sender = crowd[i % crowd.length];
      const clientId = randomUUID();
      const started = performance.now();
      sentAt.set(clientId, started);
      inflight.push(
        sendMessage({ ctx: sender.ctx, input: { dialogId: groupId, messageText: `group bench ${i}`, clientId } }).then(
          () => {
            ok += 1;
            sendTimes.push(performance.now() - started);
          },
          () => void (failed += 1),
        ),
      );
    }
    await Promise.all(inflight);
    await restarting;
    const expected = ok * watchers.length;
    const drainDeadline = Date.now() + 30_000;
    while (delivered < expected && Date.now() < drainDeadline) await sleep(50);
    loop.disable();
    const cpu1 = sampler?.();
    await sleep(1_000); // a late double would arrive now
    const perMessage = cpu0 && cpu1 ? perRequest(cpu0, cpu1, ok) : null;
    const cpuNote = perMessage ? `; CPU per message: sidecar ${perMessage.app.toFixed(1)} ms, bench process ${perMessage.bench.toFixed(1)} ms` : "";
    const loopNote = `; bench event-loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms`;
    const note = `${ok} messages × ${watchers.length} sockets: delivered ${delivered} of ${expected}, lost ${expected - delivered}, doubled ${doubled}, failed sends ${failed}; offered ${rate}/s${restartNote}${cpuNote}${loopNote}`;
    const out = [stats(`${label} send→each socket @${rate}/s`, latencies, note), stats(`${label} send (the verb, to commit and after) @${rate}/s`, sendTimes)];
    if (restartAfter === undefined) {
      out.push(stats(`${label} first→last socket of a message`, [...spans.values()].map((x) => x.last - x.first), "the fan-out's own spread over the sockets"));
    } else if (afterResume.length > 0) {
      out.push(stats(`${label} send→each socket, sent after all resumed`, afterResume, `${afterResume.length / watchers.length} messages`));
    }
    return out;
  };

  // Warm-up, not measured: the pool's connections and prepared statements, the JIT of the send path.
  for (let i = 0; i < 20; i++) await sendMessage({ ctx: crowd[i].ctx, input: { dialogId: groupId, messageText: `warm-up ${i}` } });
  await sleep(1_000);
  // The restart's run is longer (BENCH_GROUP_RESTART_SECONDS, 30): the sidecar is killed halfway, and
  // messages still go out after every socket has resumed.
  const restartSeconds = Number(process.env.BENCH_GROUP_RESTART_SECONDS ?? 30);
  const timings = [
    ...(await run(`group of ${crowd.length}:`, seconds)),
    ...(await run(`group of ${crowd.length}, sidecar restart:`, restartSeconds, restartSeconds / 2)),
  ];
  for (const w of watchers) w.ws?.terminate();
  return { timings, stop: () => sidecar.stop() };
}

// ---------------------------------------------------------------------------------------------------
// 2. The database's cost of one message.

type TableStat = { relname: string; ins: number; upd: number };

async function tableStats(db: Db): Promise<Map<string, TableStat>> {
  const rows = await db.execute<{ relname: string; ins: string; upd: string }>(sql`
    select relname, n_tup_ins as ins, n_tup_upd as upd from pg_stat_user_tables`);
  return new Map(rows.map((r) => [r.relname, { relname: r.relname, ins: Number(r.ins), upd: Number(r.upd) }]));
}

/** This backend's pending table counters, flushed now (PG 15+), then a fresh snapshot. */
async function flushedStats(db: Db): Promise<Map<string, TableStat>> {
  await db.execute(sql`select pg_stat_force_next_flush()`);
  await db.execute(sql`select 1`);
  await db.execute(sql`select pg_stat_clear_snapshot()`);
  return tableStats(db);
}

const walLsn = async (db: Db) => (await db.execute<{ lsn: string }>(sql`select pg_current_wal_lsn()::text as lsn`))[0].lsn;

async function benchCost(
  url: string,
  kinds: { name: string; sender: Person; dialogId: number }[],
  opts: { explain: boolean },
): Promise<CostRow[]> {
  const client = createSql(url, { max: 1 });
  const db = createDb(client);
  const rounds = Number(process.env.BENCH_GROUP_ROUNDS ?? 7);
  const calls = Number(process.env.BENCH_GROUP_CALLS ?? 30);
  const writes = Number(process.env.BENCH_GROUP_WRITES ?? 100);
  try {
    const [{ pid }] = await db.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
    let n = 0;
    const send = (k: (typeof kinds)[number]) => sendMessage({ ctx: on(k.sender, db), input: { dialogId: k.dialogId, messageText: `cost ${n++}` } });
    // Warm-up: statements prepared, generic plans settled, caches warm; events sequenced.
    for (let i = 0; i < 30; i++) for (const k of kinds) await send(k);
    await sequenceEvents(db);
    const sendCpu = new Map<string, number[]>(kinds.map((k) => [k.name, []]));
    const seqCpu = new Map<string, number[]>(kinds.map((k) => [k.name, []]));
    for (let r = 0; r < rounds; r++) {
      for (const k of r % 2 ? [...kinds].reverse() : kinds) {
        let s = 0;
        let q = 0;
        for (let i = 0; i < calls; i++) {
          const c0 = cpuNs(pid)!;
          await send(k);
          const c1 = cpuNs(pid)!;
          await sequenceEvents(db);
          const c2 = cpuNs(pid)!;
          s += c1 - c0;
          q += c2 - c1;
        }
        sendCpu.get(k.name)!.push(s / 1e6 / calls);
        seqCpu.get(k.name)!.push(q / 1e6 / calls);
      }
    }
    const out: CostRow[] = [];
    for (const k of kinds) {
      const before = await flushedStats(db);
      const lsn0 = await walLsn(db);
      for (let i = 0; i < writes; i++) {
        await send(k);
        await sequenceEvents(db);
      }
      const lsn1 = await walLsn(db);
      const after = await flushedStats(db);
      const [{ bytes }] = await db.execute<{ bytes: string }>(sql`select pg_wal_lsn_diff(${lsn1}::pg_lsn, ${lsn0}::pg_lsn) as bytes`);
      const perTable: string[] = [];
      let rows = 0;
      for (const [name, a] of after) {
        if (name === "rate_limits") continue;
        const b = before.get(name) ?? { relname: name, ins: 0, upd: 0 };
        const ins = (a.ins - b.ins) / writes;
        const upd = (a.upd - b.upd) / writes;
        if (ins + upd === 0) continue;
        rows += ins + upd;
        perTable.push(`${name} ${[ins ? `+${+ins.toFixed(2)}` : "", upd ? `~${+upd.toFixed(2)}` : ""].filter(Boolean).join(" ")}`);
      }
      out.push({
        name: k.name,
        sendCpuMs: median(sendCpu.get(k.name)!),
        sequencerCpuMs: median(seqCpu.get(k.name)!),
        rows,
        walBytes: Number(bytes) / writes,
        tables: perTable.sort().join(", "),
      });
    }
    if (opts.explain) {
      for (const k of kinds) {
        const captured: SQL[] = [];
        await sendMessage({ ctx: { ...k.sender.ctx, db: recording(db, captured) }, input: { dialogId: k.dialogId, messageText: "explain" } });
        const write = captured.find((q) => textOf(q).trimStart().startsWith("with gate as"));
        if (write) await explain(db, `send to ${k.name} (rolled back)`, write, true);
        await explain(db, `the outbox sequencer after it (rolled back)`, sql`select outbox_sequence(100)`, true);
      }
    }
    return out;
  } finally {
    await client.end({ timeout: 5 });
  }
}

// ---------------------------------------------------------------------------------------------------
// 3. The dialog list.

/** The viewer's list with 150 one-to-one dialogs and 50 groups (3 to 500 people, with messages, half read). */
async function mixedList(viewer: Person, crowd: Person[], partners: Person[]): Promise<void> {
  const sizes = [3, 5, 8, 12, 20, 30, 50, 100, 200, 500];
  for (let g = 0; g < 50; g++) {
    const size = sizes[g % sizes.length];
    const owner = crowd[(g * 7) % crowd.length];
    const pool = crowd.filter((p) => p !== owner);
    const from = Math.min(g % 50, pool.length - (size - 2));
    const others = pool.slice(from, from + size - 2);
    const group = await createGroup({ ctx: owner.ctx, input: { title: `list bench ${g} (${size})`, memberIds: [viewer.id, ...others.map((p) => p.id)] } });
    for (const [i, who] of [owner, others[0] ?? owner, viewer].entries()) {
      await sendMessage({ ctx: who.ctx, input: { dialogId: group.id, messageText: `group ${g} message ${i}` } });
    }
    await sendMessage({ ctx: owner.ctx, input: { dialogId: group.id, messageText: `group ${g} after` } });
    if (g % 2 === 0) await markDialogRead({ ctx: viewer.ctx, input: { id: group.id } });
  }
  await personalList(viewer, partners);
}

/** One-to-one dialogs of the viewer with each partner: the partner wrote, the viewer answered half and read half. */
async function personalList(viewer: Person, partners: Person[]): Promise<void> {
  for (const [i, p] of partners.entries()) {
    const { dialog } = await createDialog({ ctx: p.ctx, input: { recipientId: viewer.id } });
    await sendMessage({ ctx: p.ctx, input: { dialogId: dialog.id, messageText: `hello ${i}` } });
    if (i % 2 === 0) await sendMessage({ ctx: viewer.ctx, input: { dialogId: dialog.id, messageText: `answer ${i}` } });
    if (i % 4 === 1) await markDialogRead({ ctx: viewer.ctx, input: { id: dialog.id } });
  }
}

async function benchList(url: string, lists: { name: string; viewer: Person }[], opts: { explain: boolean }): Promise<ListRow[]> {
  const client = createSql(url, { max: 1 });
  const db = createDb(client);
  const rounds = Number(process.env.BENCH_GROUP_ROUNDS ?? 9);
  const calls = Number(process.env.BENCH_GROUP_LIST_CALLS ?? 100);
  try {
    const [{ pid }] = await db.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
    const fns: [string, () => Promise<unknown>][] = lists.flatMap(({ name, viewer }) => [
      [`${name}: GET dialogs (page 0, size 20)`, () => listDialogs({ ctx: on(viewer, db), input: { page: 0, size: 20 } })],
      [`${name}: GET dialogs/unread`, () => countUnreadMessages({ ctx: on(viewer, db) })],
    ]);
    for (let i = 0; i < 50; i++) for (const [, fn] of fns) await fn();
    const wall = new Map<string, number[]>(fns.map(([k]) => [k, []]));
    const cpu = new Map<string, number[]>(fns.map(([k]) => [k, []]));
    for (let r = 0; r < rounds; r++) {
      for (const [k, fn] of r % 2 ? [...fns].reverse() : fns) {
        const c0 = cpuNs(pid)!;
        const w0 = performance.now();
        for (let i = 0; i < calls; i++) await fn();
        wall.get(k)!.push((performance.now() - w0) / calls);
        cpu.get(k)!.push((cpuNs(pid)! - c0) / 1e6 / calls);
      }
    }
    if (opts.explain) {
      // Which statements Postgres plans again on every call (custom plans) and which run a cached generic plan.
      const plans = await db.execute<{ generic_plans: string; custom_plans: string; statement: string }>(
        sql`select generic_plans, custom_plans, left(regexp_replace(statement, '\s+', ' ', 'g'), 90) as statement from pg_prepared_statements order by custom_plans desc`,
      );
      for (const p of plans) console.log(`prepared: generic ${p.generic_plans}, custom ${p.custom_plans}: ${p.statement}`);
      for (const { name, viewer } of lists) {
        const captured: SQL[] = [];
        const ctx = { ...viewer.ctx, db: recording(db, captured) };
        await listDialogs({ ctx, input: { page: 0, size: 20 } });
        await countUnreadMessages({ ctx });
        for (const [i, q] of captured.entries()) await explain(db, `${name}: list statement ${i + 1} (generic plan)`, q, false, true);
      }
    }
    return fns.map(([k]) => ({ name: k, wallMs: median(wall.get(k)!), pgCpuMs: median(cpu.get(k)!), rounds, calls }));
  } finally {
    await client.end({ timeout: 5 });
  }
}

// ---------------------------------------------------------------------------------------------------

/** Fresh statistics for the tables the bench just filled, as a server's autovacuum would have them. */
async function analyze(): Promise<void> {
  await getDb().execute(sql`analyze accounts, dialogs, dialog_members, messages, message_hides, events, event_recipients, notifications`);
}

export async function benchGroups(url: string, opts: { explain: boolean }): Promise<GroupsReport> {
  const secret = process.env.AUTH_SECRET!;
  const size = Number(process.env.BENCH_GROUP_MEMBERS ?? 500);
  const load = () => os.loadavg().map((x) => x.toFixed(1)).join(" ");
  const load0 = load();
  const t0 = performance.now();
  const crowd = await people(size, secret);
  const owner = crowd[0];
  const big = await createGroup({ ctx: owner.ctx, input: { title: `bench group of ${size}`, memberIds: crowd.slice(1).map((p) => p.id) } });
  console.log(`group ${big.id} of ${big.membersCount} people made (${Math.round(performance.now() - t0)} ms with the accounts)`);

  // BENCH_GROUP_PARTS (delivery,cost,list by default) runs some of the three, to measure one change quickly.
  const parts = new Set((process.env.BENCH_GROUP_PARTS ?? "delivery,cost,list").split(","));
  let timings: ChatTiming[] = [];
  if (parts.has("delivery")) {
    const port = await freePort();
    const delivery = await benchDelivery(crowd, big.id, port);
    // The sidecar stops here: the cost below is measured without its fan-out (the bench runs the sequencer).
    await delivery.stop();
    timings = delivery.timings;
  }

  const g5 = await createGroup({ ctx: owner.ctx, input: { title: "bench group of 5", memberIds: crowd.slice(1, 5).map((p) => p.id) } });
  const g50 = await createGroup({ ctx: owner.ctx, input: { title: "bench group of 50", memberIds: crowd.slice(1, 50).map((p) => p.id) } });
  const pair = (await createDialog({ ctx: owner.ctx, input: { recipientId: crowd[1].id } })).dialog;
  await analyze();
  const cost = parts.has("cost")
    ? await benchCost(
        url,
        [
          { name: "one-to-one", sender: owner, dialogId: pair.id },
          { name: "group of 5", sender: owner, dialogId: g5.id },
          { name: "group of 50", sender: owner, dialogId: g50.id },
          { name: `group of ${size}`, sender: owner, dialogId: big.id },
        ],
        opts,
      )
    : [];

  if (!parts.has("list")) return { delivery: timings, cost, list: [], machine: `${os.cpus().length} CPUs, load ${load0} before, ${load()} after` };
  const t1 = performance.now();
  const [mixed, personal] = await people(2, secret);
  const partners = await people(350, secret);
  await mixedList(mixed, crowd, partners.slice(0, 150));
  await personalList(personal, partners.slice(150));
  console.log(`dialog lists made (${Math.round(performance.now() - t1)} ms)`);
  await analyze();
  const list = await benchList(
    url,
    [
      { name: "200 dialogs, 50 groups", viewer: mixed },
      { name: "200 one-to-one dialogs", viewer: personal },
    ],
    opts,
  );
  return { delivery: timings, cost, list, machine: `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), load ${load0} before, ${load()} after` };
}

export function printGroups(r: GroupsReport): void {
  const d = r.delivery;
  const w = Math.max(...d.map((t) => t.name.length));
  console.log(`\ngroup conversations: delivery  (ms)`);
  console.log(`${"measure".padEnd(w)}  ${"p50".padStart(8)}  ${"p99".padStart(8)}  ${"max".padStart(8)}  ${"n".padStart(7)}  note`);
  for (const t of d) {
    console.log(`${t.name.padEnd(w)}  ${t.p50.toFixed(1).padStart(8)}  ${t.p99.toFixed(1).padStart(8)}  ${t.max.toFixed(1).padStart(8)}  ${String(t.runs).padStart(7)}  ${t.note ?? ""}`);
  }
  const c = Math.max(...r.cost.map((x) => x.name.length));
  console.log(`\ngroup conversations: the database's cost of one message  (one connection; Postgres CPU in ms, median of rounds)`);
  console.log(`${"dialog".padEnd(c)}  ${"send CPU".padStart(8)}  ${"seq CPU".padStart(8)}  ${"rows".padStart(7)}  ${"WAL B".padStart(8)}  rows per table (+ inserted, ~ updated)`);
  for (const x of r.cost) {
    console.log(
      `${x.name.padEnd(c)}  ${x.sendCpuMs.toFixed(3).padStart(8)}  ${x.sequencerCpuMs.toFixed(3).padStart(8)}  ${x.rows.toFixed(2).padStart(7)}  ${Math.round(x.walBytes).toString().padStart(8)}  ${x.tables}`,
    );
  }
  const l = Math.max(...r.list.map((x) => x.name.length));
  console.log(`\ngroup conversations: the dialog list  (one connection; ms per call, median of ${r.list[0]?.rounds ?? 0} rounds × ${r.list[0]?.calls ?? 0} calls)`);
  console.log(`${"query".padEnd(l)}  ${"wall".padStart(7)}  ${"PG CPU".padStart(7)}`);
  for (const x of r.list) console.log(`${x.name.padEnd(l)}  ${x.wallMs.toFixed(3).padStart(7)}  ${x.pgCpuMs.toFixed(3).padStart(7)}`);
  console.log(`machine: ${r.machine}`);
}
