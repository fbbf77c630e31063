// Communities benchmark (issue 42, docs/adr/0170): Postgres CPU per call (the backend's schedstat, one
// connection, as bench/groups.ts) beside a trivial statement in the same run, on the generated graph and
// posts of the posts bench plus BENCH_COMMUNITIES communities (100,000): one of BENCH_COMMUNITY_MEMBERS
// members (every account, 100,000) and BENCH_COMMUNITY_POSTS posts spread over the communities of the
// median account. Measured: that account's news feed page 0 as a member of 20 communities (one of them the
// big one) beside the same account with its communities switched out of the feed (the home timeline's
// page, as before issue 42); a community's wall page 0; community search by three letters; and how soon a
// post in the big community is in its members' feeds (read at request time: at once).
// Kept between runs (table bench_communities records the parameters). `--explain` prints the plans.
import { sql, type SQL } from "drizzle-orm";
import { createDb, createSql, type Db } from "@/db/client";
import type { Viewer } from "@/lib/server/auth/viewer";
import { listCommunities } from "@/lib/server/services/communities/communities";
import type { ServiceCtx } from "@/lib/server/services/context";
import { communityFanoutMax, syncCommunityMember, timelinePlan } from "@/lib/server/services/posts/home-timeline";
import { communityWallPlan, FEED_WINDOW, feedPlan, listNewsPosts, listPosts } from "@/lib/server/services/posts/list-posts";
import { feedQuery } from "@/lib/validation/post";
import { createPost } from "@/lib/server/services/posts/write-posts";
import { ensureGraph, graphParamsFromEnv } from "./generate-graph";
import { cpuNs } from "./people-search";
import { ensurePosts, postParamsFromEnv } from "./posts";

type Params = { communities: number; members: number; posts: number; joined: number; graph: string };
export type CommunityRow = { name: string; pgCpuMs: number; wallMs: number; calls: number; note?: string };

const SYLLABLES = ["шах", "мат", "клуб", "кот", "дом", "сад", "лес", "рок", "джаз", "бег", "вело", "фото", "кино", "книг", "мор", "гор", "ski", "run", "art", "dev"];
const arr = (xs: string[]) => `(array[${xs.map((x) => `'${x}'`).join(",")}])`;

function paramsFromEnv(graph: string): Params {
  return {
    communities: Number(process.env.BENCH_COMMUNITIES ?? 100_000),
    members: Number(process.env.BENCH_COMMUNITY_MEMBERS ?? 100_000),
    posts: Number(process.env.BENCH_COMMUNITY_POSTS ?? 20_000),
    joined: 20,
    graph,
  };
}

/** The communities, the big one's members, and the median account's 20 communities with their posts. */
async function ensureCommunities(url: string, readerId: number, p: Params): Promise<{ big: number; joined: number[] }> {
  const db = createSql(url, { max: 1, onnotice: () => {} });
  try {
    await db`create table if not exists bench_communities (params text primary key, big bigint not null, joined bigint[] not null)`;
    const [done] = await db<{ big: string; joined: string[] }[]>`select big, joined from bench_communities where params = ${JSON.stringify({ ...p, readerId })}`;
    if (done) return { big: Number(done.big), joined: done.joined.map(Number) };
    const t0 = performance.now();
    const step = (m: string) => console.log(`  ${((performance.now() - t0) / 1000).toFixed(1)}s  ${m}`);
    console.log(`generating communities ${JSON.stringify(p)} …`);
    // Never TRUNCATE communities … CASCADE here: posts reference them (the posts bench's million would go).
    await db`delete from posts where community_id is not null`;
    await db`delete from community_members`;
    await db`delete from communities`;
    await db`delete from bench_communities`;
    await db`select setseed(0.42)`;
    await db`set synchronous_commit = off`;
    const [{ lo, hi }] = await db<{ lo: string; hi: string }[]>`select min(id) as lo, max(id) as hi from accounts`;
    const span = Number(hi) - Number(lo) + 1;
    const syl = arr(SYLLABLES);
    // Names of two or three syllables and a number: a three-letter search matches a few thousand.
    await db.unsafe(`
      insert into communities (name, description, type, wall, owner_id, members_count, created_at)
      select initcap(${syl}[1 + floor(random() * ${SYLLABLES.length})::int] || ${syl}[1 + floor(random() * ${SYLLABLES.length})::int])
               || case when random() < 0.5 then ' ' || ${syl}[1 + floor(random() * ${SYLLABLES.length})::int] else '' end || ' ' || g,
             'Сообщество номер ' || g,
             case when random() < 0.8 then 'OPEN' when random() < 0.5 then 'CLOSED' else 'PRIVATE' end,
             case when random() < 0.3 then 'ADMINS' else 'MEMBERS' end,
             ${lo} + floor(random() * ${span})::bigint, 1 + floor(power(random(), 4) * 5000)::int,
             now() - random() * interval '3 years'
      from generate_series(1, ${p.communities}) g`);
    step(`${p.communities} communities`);
    const [{ big }] = await db<{ big: string }[]>`select min(id) as big from communities`;
    await db`update communities set type = 'OPEN', wall = 'MEMBERS', name = 'Городские новости', members_count = 0 where id = ${big}`;
    await db.unsafe(`
      insert into community_members (community_id, account_id, status, role, since)
      select ${big}, a.id, 'MEMBER', 'MEMBER', now() - random() * interval '1 year'
      from (select id from accounts order by id limit ${p.members}) a`);
    await db`update community_members set role = 'OWNER' where community_id = ${big} and account_id = (select owner_id from communities where id = ${big})`;
    await db`update communities set members_count = (select count(*) from community_members where community_id = ${big}) where id = ${big}`;
    // As the joins would have on passing the line: read at request time (ADR 0188); the others are fanned out.
    await db`update communities set read_at_request = true where members_count > ${communityFanoutMax()}`;
    step(`community ${big} with ${p.members} members`);
    // The reader's other 19: open and closed ones, the reader a member.
    const others = await db<{ id: string }[]>`select id from communities where id <> ${big} and type <> 'PRIVATE' order by id limit ${p.joined - 1}`;
    const joined = [Number(big), ...others.map((o) => Number(o.id))];
    await db`insert into community_members (community_id, account_id, status, role) select unnest(${others.map((o) => Number(o.id))}::bigint[]), ${readerId}, 'MEMBER', 'MEMBER' on conflict do nothing`;
    // Posts over the 20, the big one a quarter of them, spread over the last 30 days; authors random accounts.
    await db.unsafe(`
      insert into posts (author_id, title, post_text, publish_date, time, community_id)
      select ${lo} + floor(random() * ${span})::bigint, 'Новости сообщества ' || g, '<p>Запись номер ' || g || ' на стене сообщества</p>', t, t,
             case when random() < 0.25 then ${big} else (array[${joined.join(",")}]::bigint[])[1 + floor(random() * ${joined.length})::int] end
      from generate_series(1, ${p.posts}) g, lateral (select now() - random() * interval '30 days' as t where g > 0) x`);
    step(`${p.posts} posts on their walls`);
    // As autovacuum leaves a live table: statistics, and the visibility map set (index-only scans skip the heap).
    await db`vacuum analyze communities`;
    await db`vacuum analyze community_members`;
    await db`vacuum analyze posts`;
    await db`insert into bench_communities (params, big, joined) values (${JSON.stringify({ ...p, readerId })}, ${big}, ${joined})`;
    return { big: Number(big), joined };
  } finally {
    await db.end({ timeout: 5 });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function ctxOn(id: number, db: Db): ServiceCtx {
  const viewer: Viewer = { id, sessionId: "bench", role: "USER", isDeleted: false, language: "ru" };
  return { viewer, db, requestId: "bench" };
}

export async function benchCommunities(url: string, opts: { explain: boolean }): Promise<CommunityRow[]> {
  const graph = await ensureGraph(url, graphParamsFromEnv());
  await ensurePosts(url, graph, postParamsFromEnv(graph), console.log);
  const reader = graph.typicalId;
  const { big, joined } = await ensureCommunities(url, reader, paramsFromEnv(JSON.stringify(graphParamsFromEnv())));
  const client = createSql(url, { max: 1 });
  const db = createDb(client);
  const rounds = Number(process.env.BENCH_COMMUNITY_ROUNDS ?? 7);
  const calls = Number(process.env.BENCH_COMMUNITY_CALLS ?? 50);
  try {
    const [{ pid }] = await db.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
    // Its members post on it (data made before this line kept the wall it drew).
    await db.execute(sql`update communities set wall = 'MEMBERS' where id = ${big}`);
    const me = ctxOn(reader, db);
    // As PUT communities/{id}/feed does: the switch, and the reader's timeline rows of each community (the 19
    // of up to 5,000 members are fanned out into it, the big one read at request time: ADR 0188).
    const setFeed = async (on: boolean) => {
      await db.execute(sql`update community_members set feed_off = ${!on} where account_id = ${reader}`);
      for (const c of joined) await db.transaction((tx) => syncCommunityMember(tx, c, reader));
    };
    const run = async (name: string, fn: () => Promise<unknown>, note?: string): Promise<CommunityRow> => {
      for (let i = 0; i < 20; i++) await fn();
      const cpu: number[] = [];
      const wall: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const c0 = cpuNs(pid)!;
        const w0 = performance.now();
        for (let i = 0; i < calls; i++) await fn();
        wall.push((performance.now() - w0) / calls);
        cpu.push((cpuNs(pid)! - c0) / 1e6 / calls);
      }
      return { name, pgCpuMs: median(cpu), wallMs: median(wall), calls: rounds * calls, note };
    };
    const rows: CommunityRow[] = [];
    rows.push(await run("trivial statement (select 1)", () => db.execute(sql`select 1`)));
    await setFeed(false);
    // The reader's timeline is built by the posts bench (ensureTimelines): this is the page before issue 42.
    rows.push(await run("feed page 0, communities switched out of the feed", () => listNewsPosts({ ctx: me, input: { withFriends: "true" } })));
    await setFeed(true);
    rows.push(await run(`feed page 0, a member of ${joined.length} communities (one of ${paramsFromEnv("").members})`, () => listNewsPosts({ ctx: me, input: { withFriends: "true" } })));
    rows.push(await run("feed page 10, the same member", () => listNewsPosts({ ctx: me, input: { withFriends: "true", page: "10" } })));
    rows.push(await run(`wall page 0 of the big community`, () => listPosts({ ctx: me, input: { communityId: String(big) } })));
    rows.push(await run(`wall page 0 of the big community, size 10`, () => listPosts({ ctx: me, input: { communityId: String(big), size: "10" } })));
    for (const q of ["шах", "клу", "art"]) rows.push(await run(`community search '${q}' (page 0 of 20)`, () => listCommunities({ ctx: me, input: { query: q } })));
    rows.push(await run("my communities (page 0 of 20)", () => listCommunities({ ctx: me, input: {} })));

    // A post in the big community, then the feeds of 200 of its members read at once: in each at the first read.
    const members = await db.execute<{ id: string }>(sql`select account_id as id from community_members where community_id = ${big} and status = 'MEMBER' order by random() limit 200`);
    const author = Number(members[0].id);
    const t0 = performance.now();
    const post = await createPost({ ctx: ctxOn(author, db), input: { title: "Срочная новость", postText: "<p>Перекрытие улицы завтра</p>", communityId: big } });
    const committed = performance.now();
    let seen = 0;
    const lags: number[] = [];
    for (const m of members) {
      const page = await listNewsPosts({ ctx: ctxOn(Number(m.id), db), input: { withFriends: "true", size: "5" } });
      if (page.content.some((c) => c.id === post.id)) {
        seen++;
        lags.push(performance.now() - committed);
      }
    }
    rows.push({
      name: "a post in the big community → its members' feeds",
      pgCpuMs: 0,
      wallMs: performance.now() - t0,
      calls: members.length,
      note: `in ${seen} of ${members.length} feeds at their first read after the commit (${(committed - t0).toFixed(1)} ms to commit; last read ${lags.length ? Math.max(...lags).toFixed(0) : "-"} ms after it)`,
    });
    if (opts.explain) {
      const plans: [string, SQL][] = [
        ["feed page 0 (member of 20), the home timeline's statement: ids", timelinePlan(reader, 0, 5, FEED_WINDOW).ids],
        ["feed page 0 (member of 20), the home timeline's statement: state", timelinePlan(reader, 0, 5, FEED_WINDOW).state],
        ["feed page 0 (member of 20), today's query: ids", feedPlan(reader, feedQuery.parse({ withFriends: "true" })).ids],
        ["feed page 0 (member of 20): total", feedPlan(reader, feedQuery.parse({ withFriends: "true" })).count],
        ["wall page 0: ids", communityWallPlan(reader, { communityId: big, page: 0, size: 3 }).ids],
        ["wall page 0: total", communityWallPlan(reader, { communityId: big, page: 0, size: 3 }).count],
      ];
      for (const [title, q] of plans) {
        const plan = await db.execute<{ "QUERY PLAN": string }>(sql`explain (analyze, buffers, costs off) ${q}`);
        console.log(`\n--- EXPLAIN ANALYZE: ${title}\n${plan.map((r) => r["QUERY PLAN"]).join("\n")}`);
      }
    }
    return rows;
  } finally {
    await client.end({ timeout: 5 });
  }
}

export function printCommunities(rows: CommunityRow[]): void {
  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(`\ncommunities  (one connection; Postgres CPU and wall in ms per call, median of rounds)`);
  console.log(`${"query".padEnd(width)}  ${"PG CPU".padStart(7)}  ${"wall".padStart(7)}  note`);
  for (const r of rows) console.log(`${r.name.padEnd(width)}  ${r.pgCpuMs.toFixed(3).padStart(7)}  ${r.wallMs.toFixed(3).padStart(7)}  ${r.note ?? ""}`);
}
