// Posts benchmark (issue 9): p50/p95/p99 through the service verbs (SQL + mapping, as a request pays
// them) on the generated graph plus BENCH_POSTS posts (default 1,000,000) with tags and reactions:
// the friends feed page 0 and 10, the global feed, a wall, a news search by word, a tag prefix and a
// reaction write. The posts are generated inside Postgres (generate_series) and kept between runs
// (table bench_posts records the parameters). `--explain` prints the plans of the feed and the wall.
// For the issue's scale: BENCH_ACCOUNTS=100000 BENCH_EDGES_PER_ACCOUNT=75 (≈150 friends) BENCH_POSTS=1000000.
import { sql, type SQL } from "drizzle-orm";
import postgres from "postgres";
import { getDb } from "@/db/client";
import type { Viewer } from "@/lib/server/auth/viewer";
import type { ServiceCtx } from "@/lib/server/services/context";
import { feedPlan, listNewsPosts, listPosts, wallPlan, type Plan } from "@/lib/server/services/posts/list-posts";
import { setPostReaction } from "@/lib/server/services/posts/reactions";
import { postDtosQuery, visibleTo } from "@/lib/server/services/posts/shared";
import { suggestTags } from "@/lib/server/services/posts/tags";
import { feedQuery } from "@/lib/validation/post";
import { REACTION_TYPES } from "@/lib/validation/reactions";
import { flushAsyncCommits, withoutSecondaryIndexes } from "./bulk";
import { measure, type Timing } from "./friends";
import { ensureGraph, graphParamsFromEnv, type Graph } from "./generate-graph";
import { ensureTimelines } from "./timelines";

type PostParams = { posts: number; tags: number; reactionsPerPost: number; graph: string };

const WORDS_RU = ["кошка", "собака", "город", "погода", "работа", "музыка", "книга", "море", "дорога", "праздник", "друзья", "кино", "футбол", "осень", "весна", "снег"];
const WORDS_EN = ["travel", "coffee", "garden", "river", "mountain", "summer", "story", "photo", "weekend", "concert", "family", "recipe"];
const arr = (xs: string[]) => `array[${xs.map((x) => `'${x}'`).join(",")}]`;

export async function ensurePosts(url: string, graph: Graph, p: PostParams, log: (m: string) => void) {
  const db = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await db`create table if not exists bench_posts (params text primary key, done boolean not null default false)`;
    const [row] = await db`select 1 as one from bench_posts where params = ${JSON.stringify(p)} and done`;
    if (row) {
      log(`posts ${JSON.stringify(p)} already generated`);
      return await ensureTimelines(url, graph, log);
    }
    const started = performance.now();
    const step = (m: string) => log(`  ${((performance.now() - started) / 1000).toFixed(1)}s  ${m}`);
    log(`generating posts ${JSON.stringify(p)} …`);
    await db`truncate posts, tags, notifications, bench_posts restart identity cascade`;
    // The home timelines were of the old posts (docs/adr/0137): filled again below.
    await db`truncate home_timeline, home_timeline_state, home_timeline_pending, home_timeline_authors`;
    await db`insert into bench_posts (params) values (${JSON.stringify(p)})`;
    await db`select setseed(0.17)`;
    await db`set synchronous_commit = off`;
    await db`set maintenance_work_mem = '1GB'`;
    await db`set work_mem = '256MB'`;
    await db`set session_replication_role = replica`.catch(() => step("not a superuser: foreign keys checked per row"));
    const [{ lo, hi }] = await db<{ lo: string; hi: string }[]>`select min(id) as lo, max(id) as hi from accounts`;
    const span = Number(hi) - Number(lo) + 1;
    const types = arr([...REACTION_TYPES]);
    await withoutSecondaryIndexes(db, ["posts", "post_tags", "post_reactions", "tags"], async (tx) => {
      // The reactions first (ids 1..posts are the posts' ids), so the posts are inserted with their
      // counts: counting afterwards would update every post row, rewriting each index entry again.
      await tx.unsafe(`
        create temp table bench_reactions on commit drop as
        select distinct on (g, a) g as post_id, a as account_id, (${types})[1 + floor(power(random(), 3) * ${REACTION_TYPES.length})::int] as reaction_type
        from generate_series(1, ${p.posts}) g,
             lateral (select ${lo} + floor(random() * ${span})::bigint as a from generate_series(1, ${p.reactionsPerPost}) where g > 0) r`);
      step("reactions drawn");
      // Authors uniform over accounts, so every account has ~posts/accounts posts; a year of history.
      await tx.unsafe(`
        insert into posts (id, author_id, title, post_text, publish_date, time, like_amount, reaction_counts)
        overriding system value
        select s.g, ${lo} + floor(random() * ${span})::bigint,
               initcap((${arr(WORDS_RU)})[1 + floor(random() * ${WORDS_RU.length})::int]) || ' ' || s.g,
               '<p>' || (${arr(WORDS_RU)})[1 + floor(random() * ${WORDS_RU.length})::int] || ' и '
                 || (${arr(WORDS_RU)})[1 + floor(random() * ${WORDS_RU.length})::int] || ', '
                 || (${arr(WORDS_EN)})[1 + floor(random() * ${WORDS_EN.length})::int] || ' — запись номер ' || s.g || '</p>',
               s.t, s.t, coalesce(c.total, 0), coalesce(c.counts, '{}'::jsonb)
        from (select g, now() - random() * interval '365 days' as t from generate_series(1, ${p.posts}) g) s
        left join (
          select post_id, sum(n)::int as total, jsonb_object_agg(reaction_type, n) as counts
          from (select post_id, reaction_type, count(*) as n from bench_reactions group by 1, 2) x group by post_id
        ) c on c.post_id = s.g
        order by s.g`);
      await tx.unsafe(`select setval(pg_get_serial_sequence('posts', 'id'), ${p.posts})`);
      step(`${p.posts} posts`);
      await tx.unsafe(`insert into post_reactions (post_id, account_id, reaction_type) select * from bench_reactions order by 1, 2`);
      step("reactions");
      await tx.unsafe(`
        create temp table bench_post_tags on commit drop as
        select distinct g as post_id, 1 + floor(power(random(), 2) * ${p.tags})::bigint as tag_id
        from generate_series(1, ${p.posts}) g, generate_series(1, 2) k`);
      await tx.unsafe(`
        insert into tags (id, name, posts_count) overriding system value
        select g, 'tag' || g, coalesce(c.n, 0)
        from generate_series(1, ${p.tags}) g left join (select tag_id, count(*) as n from bench_post_tags group by tag_id) c on c.tag_id = g`);
      await tx.unsafe(`select setval(pg_get_serial_sequence('tags', 'id'), ${p.tags})`);
      await tx.unsafe(`insert into post_tags (post_id, tag_id) select * from bench_post_tags order by 1, 2`);
      step("tags");
    });
    step("indexes");
    await db`set session_replication_role = origin`.catch(() => undefined);
    await flushAsyncCommits(db);
    await db`vacuum (analyze) posts`;
    await db`vacuum (analyze) post_tags`;
    await db`vacuum (analyze) tags`;
    await db`vacuum (analyze) post_reactions`;
    await db`update bench_posts set done = true where params = ${JSON.stringify(p)}`;
    step("done");
    await ensureTimelines(url, graph, log);
  } finally {
    await db.end({ timeout: 5 });
  }
}

export function postParamsFromEnv(graph: Graph): PostParams {
  return {
    posts: Math.floor(Number(process.env.BENCH_POSTS ?? 1_000_000)),
    tags: Math.floor(Number(process.env.BENCH_TAGS ?? 5_000)),
    reactionsPerPost: Math.floor(Number(process.env.BENCH_REACTIONS_PER_POST ?? 2)),
    graph: JSON.stringify(graph.stats.accounts),
  };
}

function ctxFor(id: number): ServiceCtx {
  const viewer: Viewer = { id, sessionId: "bench", role: "USER", isDeleted: false, language: "ru" };
  return { viewer, db: getDb(), requestId: "bench" };
}

async function explain(title: string, query: SQL): Promise<void> {
  const rows = await getDb().execute<{ "QUERY PLAN": string }>(sql`explain (analyze, buffers, costs off) ${query}`);
  console.log(`\n--- EXPLAIN ANALYZE: ${title}\n${rows.map((r) => r["QUERY PLAN"]).join("\n")}`);
}

export async function benchPosts(url: string, opts: { explain: boolean }): Promise<Timing[]> {
  const graph = await ensureGraph(url, graphParamsFromEnv());
  await ensurePosts(url, graph, postParamsFromEnv(graph), console.log);
  const runs = Math.max(5, Number(process.env.BENCH_RUNS ?? 50));
  const me = ctxFor(graph.typicalId);
  const hub = ctxFor(graph.hubId);
  const [{ friend }] = await getDb().execute<{ friend: string }>(sql`
    select friend_id as friend from friendships where account_id = ${graph.typicalId} and status_code = 'FRIEND' limit 1`);
  const [{ n: followed }] = await getDb().execute<{ n: string }>(sql`
    select count(*) as n from friendships where account_id = ${graph.typicalId} and status_code in ('FRIEND', 'SUBSCRIBED', 'REQUEST_TO')`);
  const [{ n: total }] = await getDb().execute<{ n: string }>(sql`select count(*) as n from posts`);
  console.log(`posts: ${total}; median account ${graph.typicalId} follows ${followed} accounts`);
  const [{ ids }] = await getDb().execute<{ ids: string[] }>(sql`select array_agg(id) as ids from (
      select p.id from posts p tablesample system (5)
      where ${visibleTo(graph.typicalId, { ownQueued: false })} limit 500) s`);
  let i = 0;

  const timings = [
    await measure("median account: feed withFriends page 0", runs, () => listNewsPosts({ ctx: me, input: { withFriends: "true" } })),
    await measure("median account: feed withFriends page 10", runs, () => listNewsPosts({ ctx: me, input: { withFriends: "true", page: "10" } })),
    await measure(`hub (${graphParamsFromEnv().hubFriends} friends): feed withFriends page 0`, runs, () => listNewsPosts({ ctx: hub, input: { withFriends: "true" } })),
    await measure("median account: global feed page 0", runs, () => listNewsPosts({ ctx: me, input: {} })),
    await measure("median account: a friend's wall page 0", runs, () => listPosts({ ctx: me, input: { accountIds: friend } })),
    await measure("news search by word ('кошками')", runs, () => listNewsPosts({ ctx: me, input: { text: "кошками" } })),
    await measure("news search by word, withFriends", runs, () => listNewsPosts({ ctx: me, input: { text: "кошками", withFriends: "true" } })),
    await measure("tag prefix ('tag1')", runs, () => suggestTags({ ctx: me, input: { name: "tag1" } })),
    await measure("reaction write (set, alternating types)", runs, () =>
      setPostReaction({ ctx: me, input: { id: Number(ids[i++ % ids.length]), body: { reactionType: REACTION_TYPES[i % 69] } } }),
    ),
  ];
  if (opts.explain) {
    const plans: [string, Plan][] = [
      ["friends feed page 0", feedPlan(graph.typicalId, feedQuery.parse({ withFriends: "true" }))],
      ["friends feed page 10", feedPlan(graph.typicalId, feedQuery.parse({ withFriends: "true", page: "10" }))],
      ["hub feed page 0", feedPlan(graph.hubId, feedQuery.parse({ withFriends: "true" }))],
      ["hub feed page 10", feedPlan(graph.hubId, feedQuery.parse({ withFriends: "true", page: "10" }))],
      ["global feed page 0", feedPlan(graph.typicalId, feedQuery.parse({}))],
      ["global feed page 10", feedPlan(graph.typicalId, feedQuery.parse({ page: "10" }))],
      ["wall page 0", wallPlan(graph.typicalId, { accountIds: [Number(friend)], page: 0, size: 3 })],
      ["search 'кошками'", feedPlan(graph.typicalId, feedQuery.parse({ text: "кошками" }))],
      ["search 'кошками' withFriends", feedPlan(graph.typicalId, feedQuery.parse({ text: "кошками", withFriends: "true" }))],
    ];
    for (const [title, p] of plans) {
      await explain(`${title}: ids`, p.ids);
      await explain(`${title}: total`, p.count);
    }
    const [friends] = plans;
    const pageIds = (await getDb().execute<{ id: string }>(friends[1].ids)).map((r) => Number(r.id));
    await explain("friends feed page 0: the DTOs of the page", postDtosQuery(graph.typicalId, pageIds));
    // Reposts (docs/adr/0130): the originals of a page's reposts, one more statement of the same shape.
    await explain("friends feed page 0: the originals of its reposts", postDtosQuery(graph.typicalId, pageIds, { originals: true }));
  }
  return timings;
}
