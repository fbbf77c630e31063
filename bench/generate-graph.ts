// Builds the friends benchmark graph inside Postgres with generate_series (no rows cross the wire):
// BENCH_ACCOUNTS accounts (default 100,000) with skewed popularity, about 2 × BENCH_EDGES_PER_ACCOUNT
// friends each on average, and one "hub" account with BENCH_HUB_FRIENDS friends (default 5,000) drawn in
// proportion to their own popularity (as real friends are), plus some of every other relation.
// The graph is kept between runs (table bench_graph records its parameters) and rebuilt when they change.
// Run alone: node --conditions=react-server --import tsx bench/generate-graph.ts
import { pathToFileURL } from "node:url";
import postgres from "postgres";
import { createSql } from "@/db/client";
import { accountNameLatin } from "@/lib/server/search/name-latin";
import { flushAsyncCommits, withoutSecondaryIndexes } from "./bulk";

export type GraphParams = { accounts: number; hubFriends: number; edgesPerAccount: number; skew: number };
export type Graph = { hubId: number; typicalId: number; newcomerId: number; stats: Record<string, number> };

export function graphParamsFromEnv(): GraphParams {
  const num = (name: string, fallback: number) => {
    const v = Number(process.env[name] ?? fallback);
    if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number`);
    return v;
  };
  return {
    accounts: Math.floor(num("BENCH_ACCOUNTS", 100_000)),
    hubFriends: Math.floor(num("BENCH_HUB_FRIENDS", 5_000)),
    edgesPerAccount: Math.floor(num("BENCH_EDGES_PER_ACCOUNT", 20)),
    // Target of each generated edge is id ≈ N · random()^skew: above 1, low ids are popular.
    skew: num("BENCH_SKEW", 1.5),
  };
}

const CITIES = [
  "Moscow", "Saint Petersburg", "Novosibirsk", "Yekaterinburg", "Kazan", "Nizhny Novgorod", "Chelyabinsk", "Samara",
  "Omsk", "Rostov-on-Don", "Ufa", "Krasnoyarsk", "Voronezh", "Perm", "Volgograd", "Krasnodar", "Saratov", "Tyumen",
  "Tolyatti", "Izhevsk", "Barnaul", "Ulyanovsk", "Irkutsk", "Khabarovsk", "Yaroslavl", "Vladivostok", "Makhachkala",
  "Tomsk", "Orenburg", "Kemerovo",
];
const FIRST = ["Anna", "Ivan", "Maria", "Pavel", "Olga", "Sergey", "Elena", "Dmitry", "Irina", "Alexey", "Natalia", "Nikolay", "Tatiana", "Mikhail", "Svetlana", "Andrey"];
const LAST = ["Ivanov", "Smirnov", "Kuznetsov", "Popov", "Vasiliev", "Petrov", "Sokolov", "Mikhailov", "Novikov", "Fedorov", "Morozov", "Volkov", "Alekseev", "Lebedev", "Semenov", "Egorov"];

const textArray = (xs: string[]) => `array[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(",")}]`;

async function existing(sql: postgres.Sql, params: GraphParams): Promise<Graph | null> {
  // A row is written when generation starts (stats null) and completed at the end, so an interrupted
  // run is recognised as ours and simply regenerated.
  await sql`create table if not exists bench_graph (
    params text primary key, hub_id bigint, typical_id bigint, newcomer_id bigint,
    stats jsonb, created_at timestamptz not null default now())`;
  const [row] = await sql<{ hub_id: string; typical_id: string; newcomer_id: string; stats: Record<string, number> }[]>`
    select hub_id, typical_id, newcomer_id, stats from bench_graph where params = ${JSON.stringify(params)} and stats is not null`;
  if (row) return { hubId: Number(row.hub_id), typicalId: Number(row.typical_id), newcomerId: Number(row.newcomer_id), stats: row.stats };
  const [marker] = await sql`select 1 as one from bench_graph limit 1`;
  const [anyAccount] = await sql`select 1 as one from accounts limit 1`;
  // Only a database this generator filled (or an empty one) is ever emptied.
  if (anyAccount && !marker) {
    throw new Error("the benchmark database holds accounts it did not create; point BENCH_DATABASE_URL at an empty database");
  }
  return null;
}

/** The graph for `params`, generated unless the database already holds it. */
export async function ensureGraph(url: string, params: GraphParams, log: (m: string) => void = console.log): Promise<Graph> {
  const sql = createSql(url, { max: 1, onnotice: () => {} });
  try {
    const found = await existing(sql, params);
    if (found) {
      log(`graph ${JSON.stringify(params)} already generated`);
      return found;
    }
    return await generate(sql, params, log);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function generate(sql: postgres.Sql, p: GraphParams, log: (m: string) => void): Promise<Graph> {
  const started = performance.now();
  const step = (m: string) => log(`  ${((performance.now() - started) / 1000).toFixed(1)}s  ${m}`);
  log(`generating graph ${JSON.stringify(p)} …`);
  await sql`truncate accounts, notifications, event_recipients, bench_graph restart identity cascade`;
  await sql`insert into bench_graph (params) values (${JSON.stringify(p)})`;
  await sql`select setseed(0.42)`;
  await sql`set synchronous_commit = off`;
  await sql`set maintenance_work_mem = '1GB'`;
  await sql`set work_mem = '256MB'`;
  // The rows are consistent by construction; skipping the per-row FK triggers makes the load several
  // times faster. Needs a superuser (the machine's postgres user is one); without it we just go slower.
  await sql`set session_replication_role = replica`.catch(() => step("not a superuser: foreign keys checked per row"));

  await sql.unsafe(`
    insert into accounts (email, password_hash, first_name, last_name, city, country, birth_date, last_online_time, is_deleted, deletion_timestamp)
    select 'bench-' || g || '@bench.invalid', '!', (${textArray(FIRST)})[1 + g % ${FIRST.length}],
           (${textArray(LAST)})[1 + (g / ${FIRST.length}) % ${LAST.length}],
           (${textArray(CITIES)})[1 + floor(power(random(), 2) * ${CITIES.length})::int], 'RU',
           date '1960-01-01' + floor(random() * 17000)::int,
           case when random() < 0.97 then now() - power(random(), 3) * interval '120 days' end,
           d, case when d then now() end
    from (select g, random() < 0.01 as d from generate_series(1, ${p.accounts}) g) s`);
  const [{ base }] = await sql<{ base: string }[]>`select min(id) as base from accounts`;
  step(`${p.accounts} accounts`);

  // Both sides of every edge, in primary-key order (the key index grows at its right edge), with the
  // secondary index built once afterwards (bench/bulk.ts).
  await withoutSecondaryIndexes(sql, ["friendships"], (tx) =>
    tx.unsafe(`
      insert into friendships (account_id, friend_id, status_code, created_at, updated_at)
      with e as (
        select distinct least(a, b) as a, greatest(a, b) as b from (
          select ${base} + g as a, ${base} + floor(power(random(), ${p.skew}) * ${p.accounts})::bigint as b
          from generate_series(0, ${p.accounts - 1}) g, generate_series(1, ${p.edgesPerAccount}) k
        ) s where a <> b
      ), t as (select a, b, now() - random() * interval '730 days' as at from e)
      select x, y, 'FRIEND'::friend_status, at, at from (
        select a as x, b as y, at from t union all select b, a, at from t
      ) both_sides
      order by x, y`),
  );
  step("friendships between accounts");

  const [{ id: hubId }] = await sql<{ id: string }[]>`
    insert into accounts (email, password_hash, first_name, last_name, city, country, birth_date, last_online_time)
    values ('bench-hub@bench.invalid', '!', 'Hub', 'Benchmark', ${CITIES[0]}, 'RU', '1990-01-01', now()) returning id`;
  // Weighted sampling without replacement (Efraimidis–Spirakis): popular accounts are likelier friends.
  await sql.unsafe(`
    create temp table hub_friends as
    select id from (select account_id as id, count(*) as d from friendships group by account_id) deg
    order by -ln(1 - random()) / (d + 1) limit ${p.hubFriends}`);
  await sql.unsafe(`
    insert into friendships (account_id, friend_id, status_code, created_at, updated_at)
    with t as (select id, now() - random() * interval '730 days' as at from hub_friends)
    select ${hubId}, id, 'FRIEND'::friend_status, at, at from t union all select id, ${hubId}, 'FRIEND'::friend_status, at, at from t`);
  // Some of every other relation, with accounts that are not friends of the hub.
  const others: [string, string, number][] = [
    ["REQUEST_FROM", "REQUEST_TO", 200],
    ["REQUEST_TO", "REQUEST_FROM", 150],
    ["WATCHING", "SUBSCRIBED", 250],
    ["SUBSCRIBED", "WATCHING", 120],
    ["BLOCKED", "REJECTING", 80],
  ];
  const total = others.reduce((n, [, , k]) => n + k, 0);
  await sql.unsafe(`
    create temp table hub_others as
    select id, row_number() over () as rn from (
      select id from accounts where id <> ${hubId} and not is_deleted and id not in (select id from hub_friends)
      order by random() limit ${total}) r`);
  let from = 0;
  for (const [hubSide, otherSide, k] of others) {
    await sql.unsafe(`
      insert into friendships (account_id, friend_id, status_code, created_at, updated_at)
      with t as (select id, now() - random() * interval '365 days' as at from hub_others where rn > ${from} and rn <= ${from + k})
      select ${hubId}, id, '${hubSide}'::friend_status, at, at from t union all select id, ${hubId}, '${otherSide}'::friend_status, at, at from t`);
    from += k;
  }
  step(`hub ${hubId}: ${p.hubFriends} friends and ${total} other relations`);

  const [{ id: newcomerId }] = await sql<{ id: string }[]>`
    insert into accounts (email, password_hash, first_name, last_name, city, country, last_online_time)
    values ('bench-newcomer@bench.invalid', '!', 'New', 'Comer', ${CITIES[0]}, 'RU', now()) returning id`;
  // People search (docs/adr/0132, 0136): the cross-script keys of the generated names, and their search
  // tokens, which the accounts' insert trigger would write but does not fire under the replica role above.
  const names = await sql<{ first_name: string; last_name: string }[]>`select distinct first_name, last_name from accounts`;
  await sql`
    update accounts a set name_latin = v.key
    from unnest(${sql.array(names.map((n) => n.first_name))}::text[], ${sql.array(names.map((n) => n.last_name))}::text[],
                ${sql.array(names.map((n) => accountNameLatin(n.first_name, n.last_name)))}::text[]) as v(f, l, key)
    where a.first_name = v.f and a.last_name = v.l`;
  await sql`
    insert into account_search_tokens (account_id, token, kinds, listed, searchable)
    select a.id, t.token, t.kinds, not a.is_deleted and not a.is_blocked, a.searchable
    from accounts a, account_name_tokens(a.first_name, a.last_name, a.name_latin) t
    on conflict do nothing`;
  step("search keys and tokens");
  await sql`set session_replication_role = origin`.catch(() => undefined);
  await flushAsyncCommits(sql);
  await sql`vacuum (analyze) accounts`;
  await sql`vacuum (analyze) friendships`;
  await sql`vacuum (analyze) account_search_tokens`;
  step("vacuum analyze");

  const [stats] = await sql<{ rows: string; avg: string; median: string; max: string; fof: string }[]>`
    with deg as (select account_id, count(*) as d from friendships where status_code = 'FRIEND' group by account_id)
    select (select count(*) from friendships) as rows,
           avg(d)::numeric(10, 1) as avg,
           percentile_disc(0.5) within group (order by d) as median,
           max(d) as max,
           (select sum(d) from deg where account_id in (select id from hub_friends)) as fof
    from deg`;
  const [{ id: typicalId }] = await sql<{ id: string }[]>`
    select account_id as id from friendships where status_code = 'FRIEND' and account_id <> ${hubId}
    group by account_id having count(*) = ${Number(stats.median)} order by account_id limit 1`;
  const graph: Graph = {
    hubId: Number(hubId),
    typicalId: Number(typicalId),
    newcomerId: Number(newcomerId),
    stats: {
      accounts: p.accounts + 2,
      friendshipRows: Number(stats.rows),
      avgFriends: Number(stats.avg),
      medianFriends: Number(stats.median),
      maxFriends: Number(stats.max),
      hubFriendOfFriendRows: Number(stats.fof),
      generationSeconds: Math.round((performance.now() - started) / 1000),
    },
  };
  await sql`
    update bench_graph set hub_id = ${graph.hubId}, typical_id = ${graph.typicalId}, newcomer_id = ${graph.newcomerId},
      stats = ${sql.json(graph.stats)}
    where params = ${JSON.stringify(p)}`;
  step("done");
  return graph;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { benchDatabaseUrl, prepareBenchDatabase } = await import("./database");
  const url = benchDatabaseUrl();
  await prepareBenchDatabase(url);
  const graph = await ensureGraph(url, graphParamsFromEnv());
  console.log(JSON.stringify(graph, null, 2));
}
