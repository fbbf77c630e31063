// Friends benchmark: p50/p95 of the friend list, the counts and the recommendations, measured through
// the service verbs (SQL + mapping, as a request pays them) on the generated graph, for the 5,000-friend
// hub, an account with the median number of friends, and a newcomer with none.
// `--explain` also prints EXPLAIN (ANALYZE, BUFFERS) of the underlying queries for the hub.
import { sql, type SQL } from "drizzle-orm";
import { getDb } from "@/db/client";
import type { Viewer } from "@/lib/server/auth/viewer";
import type { ServiceCtx } from "@/lib/server/services/context";
import { countFriendsByStatus, countIncomingRequests, listCountQuery, listFriends, listPageQuery, tabCountsQuery } from "@/lib/server/services/friends/lists";
import {
  friendsOfFriendsQuery,
  listRecommendations,
  mutualCountsQuery,
  nearbyAndActiveQuery,
} from "@/lib/server/services/friends/recommendations";
import { ensureGraph, graphParamsFromEnv } from "./generate-graph";

export type Timing = { name: string; p50: number; p95: number; p99: number; max: number; runs: number };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export async function measure(name: string, runs: number, fn: () => Promise<unknown>): Promise<Timing> {
  for (let i = 0; i < 3; i++) await fn(); // warm the cache and the prepared statements
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 100) / 100;
  return { name, p50: round(percentile(times, 50)), p95: round(percentile(times, 95)), p99: round(percentile(times, 99)), max: round(times[times.length - 1]), runs };
}

/**
 * Reference only, never served: the exact, unbounded friends-of-friends ranking (every friend of every
 * friend, counted). Measured next to the bounded query to show what the bound saves.
 */
function exactFriendsOfFriendsQuery(me: number): SQL {
  return sql`
    select g.friend_id as candidate, count(*) as mutual
    from friendships f
    join friendships g on g.account_id = f.friend_id and g.status_code = 'FRIEND'
    where f.account_id = ${me} and f.status_code = 'FRIEND' and g.friend_id <> ${me}
      and g.friend_id not in (select r.friend_id from friendships r where r.account_id = ${me}
                              and r.status_code in ('FRIEND', 'REQUEST_TO', 'REQUEST_FROM', 'BLOCKED', 'REJECTING'))
      and g.friend_id not in (select a.id from accounts a where a.is_deleted or a.is_blocked)
    group by g.friend_id
    order by mutual desc, candidate
    limit 100`;
}

function ctxFor(id: number): ServiceCtx {
  const viewer: Viewer = { id, sessionId: "bench", role: "USER", isDeleted: false, language: "ru" };
  return { viewer, db: getDb(), requestId: "bench" };
}

async function explain(title: string, query: SQL): Promise<void> {
  const rows = await getDb().execute<{ "QUERY PLAN": string }>(sql`explain (analyze, buffers, costs off) ${query}`);
  console.log(`\n--- EXPLAIN ANALYZE: ${title}\n${rows.map((r) => r["QUERY PLAN"]).join("\n")}`);
}

/**
 * How close the bounded ranking comes to the exact one for `me`: the share of the exact top 100 it
 * finds, and the share of their mutual friends its own top 100 holds (robust to ties at the cut).
 */
async function quality(ctx: ServiceCtx, me: number): Promise<string> {
  const exact = await getDb().execute<{ candidate: string; mutual: string }>(exactFriendsOfFriendsQuery(me));
  const served = [
    ...(await listRecommendations({ ctx, input: { page: 0, size: 50 } })).content,
    ...(await listRecommendations({ ctx, input: { page: 1, size: 50 } })).content,
  ];
  const exactIds = new Set(exact.map((r) => Number(r.candidate)));
  const found = served.filter((r) => exactIds.has(r.id)).length;
  const exactMass = exact.reduce((n, r) => n + Number(r.mutual), 0);
  const servedMass = served.reduce((n, r) => n + r.mutualFriends, 0);
  const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
  return `recall@100 ${pct(found / Math.max(1, exact.length))}, mutual friends captured ${pct(servedMass / Math.max(1, exactMass))}`;
}

export async function benchFriends(url: string, opts: { explain: boolean }): Promise<Timing[]> {
  const graph = await ensureGraph(url, graphParamsFromEnv());
  console.log(`graph: ${JSON.stringify(graph.stats)}`);
  const runs = Math.max(5, Number(process.env.BENCH_RUNS ?? 50));
  const hub = ctxFor(graph.hubId);
  const typical = ctxFor(graph.typicalId);
  const newcomer = ctxFor(graph.newcomerId);
  const [{ n }] = await getDb().execute<{ n: string }>(sql`
    select count(*) as n from friendships where account_id = ${graph.hubId} and status_code = 'FRIEND'`);
  const lastPage = Math.max(0, Math.ceil(Number(n) / 20) - 1);

  const timings = [
    await measure("hub: GET friends (FRIEND, page 0, size 20)", runs, () => listFriends({ ctx: hub, input: { statusCode: "FRIEND", size: 20 } })),
    await measure(`hub: GET friends (FRIEND, last page ${lastPage}, size 20)`, runs, () =>
      listFriends({ ctx: hub, input: { statusCode: "FRIEND", page: lastPage, size: 20 } }),
    ),
    await measure("hub: GET friends/request (page 0, size 20)", runs, () => listFriends({ ctx: hub, input: { statusCode: "REQUEST_FROM" } })),
    await measure("hub: GET friends/count", runs, () => countIncomingRequests({ ctx: hub })),
    await measure("hub: GET friends/counts (six tabs)", runs, () => countFriendsByStatus({ ctx: hub })),
    await measure("hub: GET friends/recommendations", runs, () => listRecommendations({ ctx: hub, input: {} })),
    await measure(`median account (${graph.stats.medianFriends} friends): GET friends`, runs, () => listFriends({ ctx: typical, input: {} })),
    await measure("median account: GET friends/recommendations", runs, () => listRecommendations({ ctx: typical, input: {} })),
    await measure("newcomer (no friends): GET friends/recommendations", runs, () => listRecommendations({ ctx: newcomer, input: {} })),
    await measure("reference, not served: hub exact unbounded friends-of-friends", Math.min(runs, 10), () =>
      getDb().execute(exactFriendsOfFriendsQuery(graph.hubId)),
    ),
  ];

  console.log(`\nrecommendation quality vs the exact ranking — hub: ${await quality(hub, graph.hubId)}; median account: ${await quality(typical, graph.typicalId)}`);

  if (opts.explain) {
    const [row] = await getDb().execute<{ city_id: number | null; city: string | null }>(sql`select city_id, city from accounts where id = ${graph.hubId}`);
    const city = { cityId: row.city_id, city: row.city };
    await explain("hub friend list, page 0", listPageQuery(graph.hubId, "FRIEND", 0, 20, "updatedAt,desc"));
    await explain("hub friend count", listCountQuery(graph.hubId, "FRIEND"));
    await explain("hub tab counts", tabCountsQuery(graph.hubId));
    await explain("hub recommendations: friends of friends", friendsOfFriendsQuery(graph.hubId, city));
    const shortlist = await getDb().execute<{ summary_id: string }>(friendsOfFriendsQuery(graph.hubId, city));
    await explain("hub recommendations: exact mutual counts", mutualCountsQuery(graph.hubId, shortlist.map((r) => Number(r.summary_id))));
    await explain("newcomer recommendations: same city, recently active", nearbyAndActiveQuery(graph.newcomerId, city, [], 100));
    await explain("reference: exact unbounded friends of friends", exactFriendsOfFriendsQuery(graph.hubId));
  }
  return timings;
}

export function printTimings(title: string, timings: Timing[]): void {
  const width = Math.max(...timings.map((t) => t.name.length));
  console.log(`\n${title}  (ms, ${timings[0]?.runs ?? 0} runs each)`);
  console.log(`${"query".padEnd(width)}  ${"p50".padStart(8)}  ${"p95".padStart(8)}  ${"p99".padStart(8)}  ${"max".padStart(8)}`);
  for (const t of timings) {
    console.log(`${t.name.padEnd(width)}  ${t.p50.toFixed(2).padStart(8)}  ${t.p95.toFixed(2).padStart(8)}  ${t.p99.toFixed(2).padStart(8)}  ${t.max.toFixed(2).padStart(8)}`);
  }
}
