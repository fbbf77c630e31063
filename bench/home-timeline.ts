// The home timeline at full scale (issue 28 section 2, docs/adr/0137), on the kept bench database:
//   node --conditions=react-server --import tsx bench/home-timeline.ts [fill] [cpu] [fanout]
// fill   — bench/timelines.ts (also run by the posts generator): the timelines of the accounts active in
//          the last 30 days (and the median account and the hub),
//          set-based inside Postgres, as the job would have left them (HOME_TIMELINE_N newest, horizon).
// cpu    — Postgres CPU per feed page 0 (the page's ids, its total and its DTOs, as a request runs them
//          after its session check), today's query against the timeline, interleaved rounds on one
//          connection whose backend's own CPU time is read from /proc: other sessions on the host do
//          not count. Medians of the rounds.
// parts  — the same Postgres CPU per statement of the timeline's page 0 (its ids, its DTOs, its state),
//          each run alone in rounds on one connection: where a page's cost is.
// backlog — Postgres CPU per feed page 1 of a reader with a timeline while 0, PENDING_MAX, 1,000 and 5,000 posts wait for their fan-out
//          (the job behind a burst), on the app's connection (JIT off, docs/adr/0159) and on one left at
//          the server's default (JIT on), interleaved rounds. Self-contained: it makes its own reader,
//          150 followed authors, their posts and the reader's timeline, and removes them after; any
//          migrated database will do (BENCH_DATABASE_URL=…/krug_bench, created when missing).
// fanout — a post of the hub (5,000 friends) from its commit until its fan-out job has written every
//          follower's row, while four connections read random active accounts' feeds; p50/p99.
// The database is migrated by the app's migrations first; nothing of the generated graph or posts is
// changed (the fan-out's posts are removed again).
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { createDb, createSql, type Db } from "@/db/client";
import type { Viewer } from "@/lib/server/auth/viewer";
import { getBoss, QUEUES, stopBoss } from "@/lib/server/jobs/boss";
import type { ServiceCtx } from "@/lib/server/services/context";
import { drainTimelines, PENDING_MAX, queueTimelineSync, timelinePlan } from "@/lib/server/services/posts/home-timeline";
import { postDtosQuery } from "@/lib/server/services/posts/shared";
import { FEED_PAGE_SIZE } from "@/lib/validation/post-page-sizes";
import { FEED_WINDOW, listNewsPosts, listNewsPostsByQuery } from "@/lib/server/services/posts/list-posts";
import { benchDatabaseUrl, prepareBenchDatabase } from "./database";
import { ensureTimelines } from "./timelines";

const url = benchDatabaseUrl();
process.env.DATABASE_URL = url;
const TYPICAL = Number(process.env.BENCH_TYPICAL_ID ?? 18573);
const HUB = Number(process.env.BENCH_HUB_ID ?? 100001);
const FOLLOWING = `('FRIEND', 'SUBSCRIBED', 'REQUEST_TO')`;


const viewer = (id: number): Viewer => ({ id, sessionId: "bench", role: "USER", isDeleted: false, language: "ru" });
const ctxOn = (db: Db, id: number): ServiceCtx => ({ viewer: viewer(id), db, requestId: "bench", ip: "127.0.0.1" });

/** CPU milliseconds of one Postgres backend so far (utime + stime, in 10 ms ticks). */
function backendMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) * 10;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

async function cpu() {
  const client = createSql(url, { max: 1 });
  const db = createDb(client);
  const [{ pid }] = await db.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 9);
  const calls = Number(process.env.BENCH_CALLS ?? 400);
  const input = { withFriends: "true" };
  for (const [name, id] of [["median account", TYPICAL], ["hub", HUB]] as const) {
    const [{ followed }] = await db.execute<{ followed: string }>(sql.raw(
      `select count(*) as followed from friendships where account_id = ${id} and status_code in ${FOLLOWING}`));
    const today = () => listNewsPostsByQuery(ctxOn(db, id), id, input);
    const timeline = () => listNewsPosts({ ctx: ctxOn(db, id), input });
    const a = await today();
    const b = await timeline();
    if (JSON.stringify(a.content.map((p) => p.id)) !== JSON.stringify(b.content.map((p) => p.id))) throw new Error(`${name}: pages differ`);
    for (let i = 0; i < 50; i++) {
      // Both statements' generic plans settle on the connection (docs/adr/0104).
      await today();
      await timeline();
    }
    const per: Record<string, number[]> = { today: [], timeline: [] };
    const wall: Record<string, number[]> = { today: [], timeline: [] };
    for (let r = 0; r < rounds; r++) {
      for (const [k, fn] of (r % 2 ? [["timeline", timeline], ["today", today]] : [["today", today], ["timeline", timeline]]) as [string, () => Promise<unknown>][]) {
        const c0 = backendMs(pid);
        const w0 = performance.now();
        for (let i = 0; i < calls; i++) await fn();
        wall[k].push((performance.now() - w0) / calls);
        per[k].push((backendMs(pid) - c0) / calls);
      }
    }
    console.log(`${name} ${id} (follows ${followed}), feed page 0, ${rounds} rounds × ${calls} calls, median of rounds:`);
    console.log(`  today's query: Postgres CPU ${median(per.today).toFixed(3)} ms/page (rounds ${per.today.map((x) => x.toFixed(2)).join(" ")}), service wall ${median(wall.today).toFixed(2)} ms`);
    console.log(`  home timeline: Postgres CPU ${median(per.timeline).toFixed(3)} ms/page (rounds ${per.timeline.map((x) => x.toFixed(2)).join(" ")}), service wall ${median(wall.timeline).toFixed(2)} ms`);
  }
  await client.end();
}

async function parts() {
  const client = createSql(url, { max: 1 });
  const db = createDb(client);
  const [{ pid }] = await db.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 9);
  const calls = Number(process.env.BENCH_CALLS ?? 400);
  for (const [name, id] of [["median account", TYPICAL], ["hub", HUB]] as const) {
    const plan = timelinePlan(id, 0, FEED_PAGE_SIZE, FEED_WINDOW);
    const ids = (await db.execute<{ id: string }>(plan.ids)).map((r) => Number(r.id));
    const statements: [string, () => Promise<unknown>][] = [
      ["ids", () => db.execute(plan.ids)],
      ["DTOs", () => db.execute(postDtosQuery(id, ids))],
      ["state", () => db.execute(plan.state)],
      ["select 1", () => db.execute(sql`select 1`)],
    ];
    for (let i = 0; i < 50; i++) for (const [, fn] of statements) await fn();
    const per: Record<string, number[]> = Object.fromEntries(statements.map(([k]) => [k, []]));
    for (let r = 0; r < rounds; r++) {
      for (const [k, fn] of r % 2 ? [...statements].reverse() : statements) {
        const c0 = backendMs(pid);
        for (let i = 0; i < calls; i++) await fn();
        per[k].push((backendMs(pid) - c0) / calls);
      }
    }
    console.log(`${name} ${id}, the timeline's page 0 (${ids.length} posts) statement by statement, ${rounds} rounds × ${calls} calls, median of rounds:`);
    for (const [k] of statements) console.log(`  ${k.padEnd(9)} Postgres CPU ${median(per[k]).toFixed(3)} ms (rounds ${per[k].map((x) => x.toFixed(2)).join(" ")})`);
  }
  await client.end();
}

async function backlog() {
  const admin = createDb(createSql(url, { max: 1 }));
  const off = createSql(url, { max: 1 });
  const on = createSql(url, { max: 1, connection: { jit: "on" } });
  const sides = [["JIT off (the app's)", createDb(off)], ["JIT on (server default)", createDb(on)]] as const;
  const pids = await Promise.all(sides.map(async ([, db]) => (await db.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`))[0].pid));
  const tag = `backlog-${Date.now()}`;
  const [{ id: reader }] = await admin.execute<{ id: string }>(sql`
    insert into accounts (email, password_hash, first_name, last_name) values (${`${tag}-reader@bench.invalid`}, '!', 'Backlog', 'Reader') returning id`);
  const readerId = Number(reader);
  const authors = (await admin.execute<{ id: string }>(sql`
    insert into accounts (email, password_hash, first_name, last_name)
    select ${tag} || '-' || g || '@bench.invalid', '!', 'Backlog', 'Author' || g from generate_series(1, 300) g returning id`)).map((r) => Number(r.id));
  const followed = authors.slice(0, 150);
  const ids = `{${authors.join(",")}}`;
  const cleanup = async () => {
    await admin.execute(sql`delete from home_timeline_pending where author_id = any(${ids}::bigint[])`);
    await admin.execute(sql`delete from posts where author_id = any(${ids}::bigint[])`);
  };
  try {
    await admin.execute(sql`
      insert into friendships (account_id, friend_id, status_code)
      select ${readerId}, id, 'SUBSCRIBED'::friend_status from unnest(${`{${followed.join(",")}}`}::bigint[]) id
      union all select id, ${readerId}, 'WATCHING'::friend_status from unnest(${`{${followed.join(",")}}`}::bigint[]) id`);
    await admin.execute(sql`
      insert into posts (author_id, title, post_text, publish_date)
      select a, 'Backlog post', '<p>before the burst</p>', now() - interval '1 day' - (g || ' minutes')::interval
      from unnest(${`{${followed.join(",")}}`}::bigint[]) a cross join generate_series(1, 20) g`);
    await admin.execute(sql`insert into home_timeline_state (account_id, visited_at) values (${readerId}, now()) on conflict do nothing`);
    await drainTimelines(admin);
    await admin.execute(sql`analyze`);
    const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
    const calls = Number(process.env.BENCH_CALLS ?? 20);
    const input = { withFriends: "true", page: process.env.BENCH_PAGE ?? "1" };
    for (const waiting of (process.env.BENCH_BACKLOGS ?? `0,${PENDING_MAX},1000,5000`).split(",").map(Number)) {
      await admin.execute(sql`delete from home_timeline_pending where author_id = any(${ids}::bigint[])`);
      if (waiting > 0) {
        // A burst by all 300 authors (half of them followed): the trigger puts each post in the pending set.
        await admin.execute(sql`
          insert into posts (author_id, title, post_text, publish_date)
          select ${sql.raw(`('${ids}'::bigint[])`)}[1 + g % 300], 'Burst post', '<p>in the burst</p>', now() - (g || ' seconds')::interval
          from generate_series(1, ${waiting}) g`);
      }
      await admin.execute(sql`analyze home_timeline_pending`);
      const [{ pending }] = await admin.execute<{ pending: string }>(sql`select count(*) as pending from home_timeline_pending`);
      const page = (db: Db) => listNewsPosts({ ctx: ctxOn(db, readerId), input });
      const first = await page(sides[0][1]);
      const second = await page(sides[1][1]);
      if (JSON.stringify(first.content.map((p) => p.id)) !== JSON.stringify(second.content.map((p) => p.id))) throw new Error("pages differ");
      const [{ usable }] = await admin.execute<{ usable: boolean }>(sql`with st as (${timelinePlan(readerId, 1, FEED_PAGE_SIZE, FEED_WINDOW).state}) select usable from st`);
      // Each connection plans its statements afresh for this backlog (a new generic plan after five calls).
      for (const [, db] of sides) {
        await db.execute(sql`discard plans`);
        for (let i = 0; i < 8; i++) await page(db);
      }
      const per: number[][] = sides.map(() => []);
      for (let r = 0; r < rounds; r++) {
        for (const i of r % 2 ? [1, 0] : [0, 1]) {
          const c0 = backendMs(pids[i]);
          for (let k = 0; k < calls; k++) await page(sides[i][1]);
          per[i].push((backendMs(pids[i]) - c0) / calls);
        }
      }
      console.log(`${pending} posts waiting for their fan-out, the reader's feed page ${input.page} (${usable ? "from the timeline" : "today's query"}), ${rounds} rounds × ${calls} pages, median of rounds:`);
      sides.forEach(([name], i) => console.log(`  ${name.padEnd(24)} Postgres CPU ${median(per[i]).toFixed(2)} ms/page (rounds ${per[i].map((x) => x.toFixed(1)).join(" ")})`));
    }
  } finally {
    await cleanup();
    await admin.execute(sql`delete from accounts where id = any(${`{${[readerId, ...authors].join(",")}}`}::bigint[])`);
    await off.end();
    await on.end();
  }
}

async function fanout() {
  const load = createDb(createSql(url, { max: 4 }));
  const probe = createDb(createSql(url, { max: 1 }));
  const writer = createDb(createSql(url, { max: 2 }));
  const readers = (await load.execute<{ account_id: string }>(sql`
    select account_id from home_timeline_state where built order by random() limit 2000`)).map((r) => Number(r.account_id));
  let stop = false;
  let reads = 0;
  const loops = Array.from({ length: 4 }, async () => {
    while (!stop) {
      const id = readers[Math.floor(Math.random() * readers.length)];
      await listNewsPosts({ ctx: ctxOn(load, id), input: { withFriends: "true" } });
      reads++;
    }
  });
  // The worker as start-jobs.ts runs it (only this queue: the bench must not run the app's other jobs).
  const boss = await getBoss();
  await boss.work(QUEUES.timeline, { pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 2, batchSize: 50 }, async () => {
    await drainTimelines(writer);
  });
  const posts = Number(process.env.BENCH_FANOUTS ?? 25);
  const latencies: number[] = [];
  const made: number[] = [];
  let rows = 0;
  const r0 = reads;
  const l0 = performance.now();
  try {
    // One post more first, not counted: the worker's first fetch after it started (pg-boss's queue and
    // LISTEN set-up) is not what a running app's worker does for a post.
    for (let i = -1; i < posts; i++) {
      const id = await writer.transaction(async (tx) => {
        const [p] = await tx.execute<{ id: string }>(sql`
          insert into posts (author_id, title, post_text) values (${HUB}, ${`bench fan-out ${i}`}, '<p>bench fan-out</p>') returning id`);
        await queueTimelineSync(tx, Number(p.id));
        return Number(p.id);
      });
      const committed = performance.now();
      made.push(id);
      for (;;) {
        const [{ pending }] = await probe.execute<{ pending: boolean }>(sql`select exists (select 1 from home_timeline_pending where post_id = ${id}) as pending`);
        if (!pending) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      if (i >= 0) latencies.push(performance.now() - committed);
      const [{ n }] = await probe.execute<{ n: string }>(sql`select count(*) as n from home_timeline where post_id = ${id}`);
      rows = Number(n);
      await new Promise((r) => setTimeout(r, 300 + Math.random() * 700));
    }
  } finally {
    stop = true;
    await Promise.all(loops);
    const readRate = ((reads - r0) / ((performance.now() - l0) / 1000)).toFixed(0);
    await writer.execute(sql`delete from home_timeline where post_id = any(${`{${made.join(",")}}`}::bigint[])`);
    await writer.execute(sql`delete from home_timeline_pending where post_id = any(${`{${made.join(",")}}`}::bigint[])`);
    await writer.execute(sql`delete from posts where id = any(${`{${made.join(",")}}`}::bigint[])`);
    await stopBoss();
    console.log(`fan-out of a hub post (${rows} follower timelines) from commit to the last row, ${latencies.length} posts, ${readRate} feed reads/s alongside:`);
    console.log(`  p50 ${pct(latencies, 50).toFixed(0)} ms, p99 ${pct(latencies, 99).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms`);
    console.log(`  each (ms): ${latencies.map((l) => l.toFixed(0)).join(" ")}`);
  }
}

async function main() {
  const what = process.argv.slice(2);
  await prepareBenchDatabase(url);
  if (what.includes("fill")) await ensureTimelines(url, { typicalId: TYPICAL, hubId: HUB }, console.log);
  if (what.includes("cpu")) await cpu();
  if (what.includes("parts")) await parts();
  if (what.includes("backlog")) await backlog();
  if (what.includes("fanout")) await fanout();
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
