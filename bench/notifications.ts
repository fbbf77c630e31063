// Notifications benchmark (issue 12). On the generated graph (bench/generate-graph.ts: the hub has
// BENCH_HUB_FRIENDS, default 5,000 friends):
//  - the POST fan-out: the time of the whole publishing transaction (post row + set-based notification
//    insert + one shared NOTIFICATION event + the feeds' POST_PUBLISHED event) for an author with ~150
//    friends and for the hub (5,000);
//    target ≤ 100 ms at 5,000;
//  - the bell at BENCH_NOTIFICATIONS rows (default 1,000,000, generated in Postgres, kept between runs):
//    GET notifications/page page 0 and GET notifications/count for a heavy receiver and a typical one;
//    target p99 ≤ 10 ms.
// `--explain` prints EXPLAIN (ANALYZE, BUFFERS) of every statement the services run for page 0, the
// count and one fan-out to each author (auto_explain, with the time of each trigger), as sent.
import { sql } from "drizzle-orm";
import { createDb, createSql, getDb, type Db } from "@/db/client";
import type { Viewer } from "@/lib/server/auth/viewer";
import type { ServiceCtx } from "@/lib/server/services/context";
import { countNotifications, pageNotifications } from "@/lib/server/services/notifications/list";
import { announce } from "@/lib/server/services/posts/write-posts";
import { measure, type Timing } from "./friends";
import { ensureGraph, graphParamsFromEnv } from "./generate-graph";
import { flushAsyncCommits } from "./bulk";

function ctxFor(id: number, db: Db = getDb()): ServiceCtx {
  const viewer: Viewer = { id, sessionId: "bench", role: "USER", isDeleted: false, language: "ru" };
  return { viewer, db, requestId: "bench" };
}

/**
 * Runs `fn` on a connection of its own with auto_explain reporting every top-level statement's plan
 * (analyze, buffers, triggers) back as a notice, and prints them under `title`.
 */
async function explainAll(url: string, title: string, fn: (db: Db) => Promise<unknown>): Promise<void> {
  const plans: string[] = [];
  const client = createSql(url, { max: 1, onnotice: (n) => void plans.push(String(n.message)) });
  try {
    const db = createDb(client);
    await client.unsafe(`load 'auto_explain'`);
    for (const [k, v] of Object.entries({ log_min_duration: "0", log_analyze: "on", log_buffers: "on", log_triggers: "on", log_timing: "on", log_level: "notice" })) {
      await client.unsafe(`set auto_explain.${k} = '${v}'`);
    }
    await fn(db);
    await client.unsafe(`set auto_explain.log_min_duration = '-1'`);
  } finally {
    await client.end();
  }
  console.log(`\n--- ${title}: ${plans.length} statements`);
  for (const p of plans) console.log(p.replace(/^duration: [\d.]+ ms\s+plan:\n/, ""));
}

async function ensureNotifications(url: string, rows: number, heavyId: number, log: (m: string) => void) {
  const db = createSql(url, { max: 1, onnotice: () => {} });
  try {
    await db`create table if not exists bench_notifications (params text primary key)`;
    const key = JSON.stringify({ rows, heavyId });
    // The graph and the posts generators empty the table: the marker alone does not prove the rows are there.
    const [done] = await db`select 1 as one from bench_notifications where params = ${key}
                            and exists (select 1 from notifications where receiver_id = ${heavyId})`;
    if (done) return log(`notifications ${key} already generated`);
    const started = performance.now();
    log(`generating ${rows} notifications …`);
    await db`truncate notifications, bench_notifications`;
    await db`set synchronous_commit = off`;
    const [{ lo, hi }] = await db<{ lo: string; hi: string }[]>`select min(id) as lo, max(id) as hi from accounts`;
    const span = Number(hi) - Number(lo) + 1;
    // 2% of the rows belong to one heavy receiver (a popular account), the rest spread evenly; a third unread.
    await db.unsafe(`
      insert into notifications (receiver_id, author_id, notification_type, content, sent_time, is_read)
      select case when g % 50 = 0 then ${heavyId} else ${lo} + floor(random() * ${span})::bigint end,
             ${lo} + floor(random() * ${span})::bigint,
             (array['POST','LIKE','POST_COMMENT','FRIEND_REQUEST','MESSAGE'])[1 + floor(random() * 5)::int]::notification_type,
             'запись ' || g, now() - random() * interval '90 days', random() > 0.33
      from generate_series(1, ${rows}) g`);
    // As autovacuum keeps a live table: the visibility map lets the count be an index-only scan.
    await flushAsyncCommits(db);
    await db`vacuum analyze notifications`;
    await db`insert into bench_notifications (params) values (${key})`;
    log(`  ${((performance.now() - started) / 1000).toFixed(1)}s  ${rows} notifications`);
  } finally {
    await db.end();
  }
}

/**
 * One publishing transaction: the post row and its announcement, as createPost pays for it (the POST
 * notifications with their shared event, and the feeds' POST_PUBLISHED event).
 */
async function publish(authorId: number, db: Db = getDb()) {
  await db.transaction(async (tx) => {
    const [row] = await tx.execute<{ id: string }>(sql`
      insert into posts (author_id, title, post_text) values (${authorId}, 'bench', '<p>bench post</p>') returning id`);
    await announce(tx, { id: Number(row.id), authorId });
  });
}

export async function benchNotifications(url: string, o: { explain: boolean }): Promise<Timing[]> {
  const graph = await ensureGraph(url, graphParamsFromEnv());
  const rows = Math.floor(Number(process.env.BENCH_NOTIFICATIONS ?? 1_000_000));
  const runs = Math.floor(Number(process.env.BENCH_RUNS ?? 50));
  const db = getDb();
  const [mid] = await db.execute<{ account_id: string; n: string }>(sql`
    select account_id, count(*) as n from friendships where status_code = 'FRIEND'
    group by account_id having count(*) between 120 and 180 limit 1`);
  const typicalAuthor = mid ? Number(mid.account_id) : graph.typicalId;
  const friendsOf = async (id: number) =>
    Number((await db.execute<{ n: string }>(sql`select count(*) as n from friendships where account_id = ${id} and status_code in ('FRIEND', 'WATCHING')`))[0].n);

  await ensureNotifications(url, rows, graph.hubId, console.log);
  const timings: Timing[] = [];
  timings.push(await measure(`page 0, heavy receiver`, runs, () => pageNotifications({ ctx: ctxFor(graph.hubId), input: { page: "0", size: "20" } })));
  timings.push(await measure(`count, heavy receiver`, runs, () => countNotifications({ ctx: ctxFor(graph.hubId) })));
  timings.push(await measure(`page 0, typical receiver`, runs, () => pageNotifications({ ctx: ctxFor(graph.typicalId), input: { page: "0", size: "20" } })));
  timings.push(await measure(`count, typical receiver`, runs, () => countNotifications({ ctx: ctxFor(graph.typicalId) })));
  if (o.explain) {
    await explainAll(url, "page 0, heavy receiver", (d) => pageNotifications({ ctx: ctxFor(graph.hubId, d), input: { page: "0", size: "20" } }));
    await explainAll(url, "count, heavy receiver", (d) => countNotifications({ ctx: ctxFor(graph.hubId, d) }));
  }
  // Fan-out last (it adds rows): 10 runs each, the posts and their notifications are removed after.
  const fanRuns = Math.min(runs, 10);
  timings.push(await measure(`POST fan-out to ${await friendsOf(typicalAuthor)} (publishing transaction)`, fanRuns, () => publish(typicalAuthor)));
  timings.push(await measure(`POST fan-out to ${await friendsOf(graph.hubId)} (publishing transaction)`, fanRuns, () => publish(graph.hubId)));
  if (o.explain) {
    await explainAll(url, `POST fan-out to ${await friendsOf(typicalAuthor)}`, (d) => publish(typicalAuthor, d));
    await explainAll(url, `POST fan-out to ${await friendsOf(graph.hubId)}`, (d) => publish(graph.hubId, d));
  }
  await db.execute(sql`delete from posts where title = 'bench' and post_text = '<p>bench post</p>'`);
  return timings;
}
