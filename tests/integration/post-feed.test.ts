import { sql, type SQL } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as newsRoute } from "@/app/api/v1/post/newsPosts/route";
import { GET as listRoute } from "@/app/api/v1/post/route";
import { createDb, createSql, databaseUrl, getDb } from "@/db/client";
import { DENSE_AUTHORS_MIN, FEED_WINDOW, feedPlan, listNewsPosts, wallPlan } from "@/lib/server/services/posts/list-posts";
import { readPostDtos } from "@/lib/server/services/posts/shared";
import { feedQuery } from "@/lib/validation/post";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { setPair } from "./friends-support";
import { newPost, setPublishDate } from "./post-support";

type Account = Awaited<ReturnType<typeof signedInAccount>>;
let me: Account;
let friend: Account;
let followed: Account;
let requested: Account;
let subscriber: Account;
let stranger: Account;
let blocked: Account;
const ids: Record<string, number> = {};

beforeAll(async () => {
  me = await signedInAccount({ firstName: "Мария", lastName: "Кошкина" });
  friend = await signedInAccount({ firstName: "Fedor", lastName: "Friend" });
  followed = await signedInAccount({ firstName: "Olga", lastName: "Followed" });
  requested = await signedInAccount({ firstName: "Roman", lastName: "Requested" });
  subscriber = await signedInAccount({ firstName: "Sergey", lastName: "Subscriber" });
  stranger = await signedInAccount({ firstName: "Stas", lastName: "Stranger" });
  blocked = await signedInAccount({ firstName: "Boris", lastName: "Blocked" });
  await setPair(me.id, friend.id, ["FRIEND", "FRIEND"]);
  await setPair(me.id, followed.id, ["SUBSCRIBED", "WATCHING"]);
  await setPair(me.id, requested.id, ["REQUEST_TO", "REQUEST_FROM"]);
  await setPair(me.id, subscriber.id, ["WATCHING", "SUBSCRIBED"]);
  await setPair(me.id, blocked.id, ["REJECTING", "BLOCKED"]);
  for (const [name, who] of Object.entries({ me, friend, followed, requested, subscriber, stranger, blocked })) {
    ids[name] = (await newPost(who.ctx, { title: `Пост ${name}`, postText: `<p>Текст от ${name}</p>` })).id;
  }
});

const feedIds = async (who: Account, query: string) => {
  const res = await call(newsRoute, { path: `/api/v1/post/newsPosts?${query}`, token: who.accessToken });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.content.map((p: { id: number }) => p.id) as number[];
};

describe("feed membership", () => {
  it("withFriends=true: own, friends', followed and requested accounts' posts; never subscribers', strangers' or across a block", async () => {
    const got = await feedIds(me, "withFriends=true&size=50&sort=time,desc&isDeleted=false");
    expect(new Set(got)).toEqual(new Set([ids.me, ids.friend, ids.followed, ids.requested]));
    // The original client's spelling of the same feed.
    const viaList = await call(listRoute, { path: "/api/v1/post?withFriends=true&size=50", token: me.accessToken });
    expect(new Set(viaList.body.content.map((p: { id: number }) => p.id))).toEqual(new Set(got));
  });

  it("withFriends=false: every visible post, but nothing across a block in either direction", async () => {
    const got = await feedIds(me, "size=50");
    for (const k of ["me", "friend", "followed", "requested", "subscriber", "stranger"]) expect(got).toContain(ids[k]);
    expect(got).not.toContain(ids.blocked);
    expect(await feedIds(blocked, "size=50")).not.toContain(ids.me);
  });

  it("a scheduled post enters no feed until its time, then enters by its publish time", async () => {
    const queued = await newPost(friend.ctx, { publishDate: new Date(Date.now() + 3600_000).toISOString() });
    expect(await feedIds(me, "withFriends=true&size=50")).not.toContain(queued.id);
    expect(await feedIds(friend, "withFriends=true&size=50")).not.toContain(queued.id);
    await setPublishDate(queued.id, new Date());
    expect((await feedIds(me, "withFriends=true&size=1"))[0]).toBe(queued.id);
  });

  it("is refused to the signed-out; a page below 0 is page 0, past the end is empty", async () => {
    expect((await call(newsRoute, { path: "/api/v1/post/newsPosts" })).status).toBe(401);
    expect(await feedIds(me, "withFriends=true&page=-1&size=2")).toEqual(await feedIds(me, "withFriends=true&page=0&size=2"));
    const past = await call(newsRoute, { path: "/api/v1/post/newsPosts?withFriends=true&page=500", token: me.accessToken });
    expect(past.body).toMatchObject({ content: [], number: 500, size: 5 });
    expect((await call(newsRoute, { path: "/api/v1/post/newsPosts?page=x", token: me.accessToken })).status).toBe(422);
    expect((await call(newsRoute, { path: "/api/v1/post/newsPosts?size=1000", token: me.accessToken })).status).toBe(422);
  });
});

describe("paging", () => {
  it("never repeats or skips a post when many share one publish time", async () => {
    const author = await signedInAccount();
    const reader = await signedInAccount();
    await setPair(reader.id, author.id, ["FRIEND", "FRIEND"]);
    const same = new Date(Date.now() - 60_000);
    const made: number[] = [];
    for (let i = 0; i < 13; i++) {
      const p = await newPost(author.ctx);
      await setPublishDate(p.id, same);
      made.push(p.id);
    }
    for (const [query, route] of [
      ["withFriends=true", newsRoute],
      [`accountIds=${author.id}`, listRoute],
    ] as const) {
      const seen: number[] = [];
      for (let page = 0; page < 5; page++) {
        const res = await call(route, { path: `/api/v1/post?${query}&size=3&page=${page}`, token: reader.accessToken });
        expect(res.body.totalElements).toBe(13);
        expect(res.body.totalPages).toBe(5);
        seen.push(...res.body.content.map((p: { id: number }) => p.id));
      }
      expect(seen).toEqual([...made].sort((x, y) => y - x));
    }
  });

  it("the wall has 3 a page by default, own scheduled posts first", async () => {
    const author = await signedInAccount();
    for (let i = 0; i < 4; i++) await newPost(author.ctx);
    const queued = await newPost(author.ctx, { publishDate: new Date(Date.now() + 86_400_000).toISOString() });
    const own = await call(listRoute, { path: `/api/v1/post?accountIds=${author.id}`, token: author.accessToken });
    expect(own.body).toMatchObject({ size: 3, totalElements: 5, totalPages: 2, number: 0 });
    expect(own.body.content[0]).toMatchObject({ id: queued.id, type: "QUEUED" });
    const other = await call(listRoute, { path: `/api/v1/post?accountId=${author.id}`, token: me.accessToken });
    expect(other.body).toMatchObject({ totalElements: 4 });
    expect((await call(listRoute, { path: `/api/v1/post?accountIds=abc`, token: me.accessToken })).status).toBe(422);
    expect((await call(listRoute, { path: `/api/v1/post?accountIds=${author.id}` })).status).toBe(401);
  });
});

describe("news search", () => {
  it("finds word forms in Russian and English, by author, tags and dates, combined with AND", async () => {
    const writer = await signedInAccount({ firstName: "Пётр", lastName: "Писатель" });
    const cat = await newPost(writer.ctx, { title: "Моя кошка", postText: "<p>Она любит спать на солнце</p>", tags: ["Животные"] });
    const dogs = await newPost(writer.ctx, { title: "Running dogs", postText: "<p>The dogs were running in the park</p>", tags: ["animals"] });
    const q = (query: string) => feedIds(me, `size=50&${query}`);
    expect(await q(`text=${encodeURIComponent("кошками")}`)).toEqual([cat.id]);
    expect(await q("text=dog")).toEqual([dogs.id]);
    expect(await q("text=run")).toEqual([dogs.id]);
    expect(await q(`author=${encodeURIComponent("Пётр Писатель")}`)).toEqual([dogs.id, cat.id]);
    expect(await q(`author=${encodeURIComponent("писатель")}&tags=${encodeURIComponent("животные")}`)).toEqual([cat.id]);
    expect(await q(`text=dog&tags=${encodeURIComponent("Животные")}`)).toEqual([]);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect(await q(`author=${encodeURIComponent("Писатель")}&dateFrom=${encodeURIComponent(future)}`)).toEqual([]);
    expect(await q(`author=${encodeURIComponent("Писатель")}&dateTo=${encodeURIComponent(future)}`)).toHaveLength(2);
    const bad = await call(newsRoute, { path: `/api/v1/post/newsPosts?dateFrom=2025-02-01T00:00:00Z&dateTo=2025-01-01T00:00:00Z`, token: me.accessToken });
    expect(bad.status).toBe(422);
  });

  it("a word matches tags as well as the title and the text (issue 40 item 17)", async () => {
    const writer = await signedInAccount();
    const tagged = await newPost(writer.ctx, { title: "Выходные", postText: "<p>Катались весь день по набережной</p>", tags: ["велосипед"] });
    const inText = await newPost(writer.ctx, { title: "Ремонт", postText: "<p>Починил велосипед во дворе</p>" });
    const other = await newPost(writer.ctx, { title: "Выходные 2", postText: "<p>Гуляли по набережной</p>", tags: ["прогулка"] });
    for (const word of ["велосипед", "Велосипеды", "велосипедом"]) {
      const got = await feedIds(me, `size=50&text=${encodeURIComponent(word)}`);
      expect(new Set(got), word).toEqual(new Set([tagged.id, inText.id]));
    }
    // With other filters, AND as before; a word of the text and a tag's are the same filter.
    expect(await feedIds(me, `size=50&text=${encodeURIComponent("велосипед")}&tags=${encodeURIComponent("велосипед")}`)).toEqual([tagged.id]);
    expect(await feedIds(me, `size=50&text=${encodeURIComponent("прогулка")}`)).toEqual([other.id]);
    expect(await feedIds(me, `size=50&text=${encodeURIComponent("самокат")}`)).toEqual([]);
  });

  it("ranks title matches above text matches", async () => {
    const writer = await signedInAccount();
    const inText = await newPost(writer.ctx, { title: "Про погоду", postText: "<p>Сегодня видел жирафа в зоопарке</p>" });
    const inTitle = await newPost(writer.ctx, { title: "Жираф", postText: "<p>Высокое животное с пятнами</p>" });
    expect(await feedIds(me, `text=${encodeURIComponent("жирафы")}`)).toEqual([inTitle.id, inText.id]);
  });
});

describe("query plans", () => {
  type PlanNode = {
    "Node Type": string;
    "Index Name"?: string;
    "Actual Rows": number;
    "Actual Loops": number;
    Plans?: PlanNode[];
    "Relation Name"?: string;
  };
  const flatten = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(flatten)];

  async function explain(q: SQL): Promise<PlanNode[]> {
    const rows = await getDb().execute<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(sql`explain (analyze, format json) ${q}`);
    return flatten(rows[0]["QUERY PLAN"][0].Plan);
  }

  it("a text search reads posts and tags through their indexes, a tag's posts bounded (issue 40 item 17)", async () => {
    const reader = await signedInAccount();
    const writer = await signedInAccount();
    // 20,000 posts of ordinary words, each with one of 3,000 tags; "тандем" on 30 posts' tags and in 20 posts' text.
    await getDb().execute(sql`
      insert into posts (author_id, title, post_text, publish_date)
      select ${writer.id}, 'Заметка ' || g, '<p>обычный текст номер ' || g || (case when g % 1000 = 0 then ' тандем' else '' end) || '</p>',
             now() - (g || ' seconds')::interval
      from generate_series(1, 20000) g`);
    await getDb().execute(sql`insert into tags (name) select 'метка' || g from generate_series(1, 3000) g on conflict do nothing`);
    await getDb().execute(sql`insert into tags (name) values ('тандем') on conflict do nothing`);
    await getDb().execute(sql`
      insert into post_tags (post_id, tag_id)
      select p.id, t.id from posts p join tags t on lower(t.name) = 'метка' || (1 + p.id % 3000) where p.author_id = ${writer.id}`);
    await getDb().execute(sql`
      insert into post_tags (post_id, tag_id)
      select p.id, t.id from (select id from posts where author_id = ${writer.id} order by id limit 30) p, tags t where lower(t.name) = 'тандем'`);
    await getDb().execute(sql`vacuum analyze posts`);
    await getDb().execute(sql`analyze tags`);
    await getDb().execute(sql`analyze post_tags`);
    const q = feedQuery.parse({ text: "тандем", size: "50" });
    for (const which of ["ids", "count"] as const) {
      const nodes = await explain(feedPlan(reader.id, q)[which]);
      const scans = (rel: string) => nodes.filter((n) => n["Relation Name"] === rel || (n["Index Name"] ?? "").startsWith(rel));
      for (const n of [...scans("posts"), ...scans("tags")]) expect(n["Node Type"], `${which} ${JSON.stringify(n)}`).not.toBe("Seq Scan");
      const names = nodes.map((n) => n["Index Name"]).filter(Boolean);
      expect(names, which).toEqual(expect.arrayContaining(["posts_search_idx", "posts_pkey", "tags_search_idx", "post_tags_tag_idx"]));
    }
    const res = await listNewsPosts({ ctx: reader.ctx, input: { text: "тандем", size: "50" } });
    expect(res.totalElements).toBe(50);
  });

  it("the friends feed and the wall read indexes and never sort all friends' posts", async () => {
    const reader = await signedInAccount();
    // 40 followed authors with 150 posts each (6,000 posts), then statistics.
    await getDb().execute(sql`
      with authors as (
        insert into accounts (email, password_hash, first_name, last_name)
        select 'plan' || g || '-' || ${reader.id} || '@example.com', 'x', 'Plan', 'Author' || g from generate_series(1, 40) g
        returning id)
      , rel as (
        insert into friendships (account_id, friend_id, status_code)
        select ${reader.id}, id, 'FRIEND'::friend_status from authors union all select id, ${reader.id}, 'FRIEND'::friend_status from authors)
      insert into posts (author_id, title, post_text, publish_date)
      select a.id, 'Plan post', '<p>plan text here</p>', now() - (g || ' minutes')::interval - (a.id || ' seconds')::interval
      from authors a cross join generate_series(1, 150) g`);
    // VACUUM sets the visibility map, as autovacuum does on a live table: index-only scans then skip the heap.
    await getDb().execute(sql`vacuum analyze posts`);
    await getDb().execute(sql`analyze friendships`);
    await getDb().execute(sql`analyze accounts`);

    for (const page of [0, 10]) {
      const q = feedQuery.parse({ withFriends: "true", page: String(page) });
      const nodes = await explain(feedPlan(reader.id, q).ids);
      // The scans that ran (the dense branch's scan is in the plan, never executed).
      const postScans = nodes.filter((n) => n["Relation Name"] === "posts" && n["Actual Loops"] > 0);
      expect(postScans.length).toBeGreaterThan(0);
      for (const s of postScans) {
        expect(s["Node Type"], JSON.stringify(s)).toMatch(/Index( Only)? Scan/);
        expect(s["Index Name"]).toBe("posts_author_feed_idx");
      }
      // Each author's scan stops after offset + size rows: 41 authors × (page+1)·5 at most are read and sorted.
      const bound = 41 * (page + 1) * 5;
      const read = postScans.reduce((sum, s) => sum + s["Actual Rows"] * s["Actual Loops"], 0);
      expect(read).toBeLessThanOrEqual(bound);
      for (const sort of nodes.filter((n) => n["Node Type"] === "Sort")) expect(sort["Actual Rows"]).toBeLessThanOrEqual(bound);
      // Every check is answered by the index: no post row is read from the heap.
      for (const s of postScans) expect(s["Node Type"]).toBe("Index Only Scan");
      const res = await listNewsPosts({ ctx: reader.ctx, input: { withFriends: "true", page: String(page) } });
      expect(res.content).toHaveLength(5);
      // Feed totals are exact up to the client's reach (200 pages of 5) and capped there.
      expect(res.totalElements).toBe(FEED_WINDOW);
      const count = await explain(feedPlan(reader.id, q).count);
      const countScans = count.filter((n) => n["Relation Name"] === "posts" && n["Actual Loops"] > 0);
      for (const s of countScans) expect(s["Node Type"]).toBe("Index Only Scan");
      expect(countScans.reduce((sum, s) => sum + s["Actual Rows"] * s["Actual Loops"], 0)).toBeLessThanOrEqual(FEED_WINDOW);
    }

    const [author] = await getDb().execute<{ id: string }>(sql`select friend_id as id from friendships where account_id = ${reader.id} limit 1`);
    const wall = await explain(wallPlan(reader.id, { accountIds: [Number(author.id)], page: 2, size: 3 }).ids);
    const wallScans = wall.filter((n) => n["Relation Name"] === "posts");
    expect(wallScans.map((s) => s["Index Name"])).toEqual(["posts_author_feed_idx"]);
    expect(wall.some((n) => n["Node Type"] === "Sort")).toBe(false);

    // The global feed: posts_feed_idx read backwards, index-only. Its count stops at FEED_WINDOW rows
    // (the access path is the planner's: at this size a sequential scan). In both, each author is tested
    // against the hidden and the blocked accounts hashed once: no probe of accounts or friendships per post.
    const globalPlan = feedPlan(reader.id, feedQuery.parse({}));
    const global = await explain(globalPlan.ids);
    const globalScans = global.filter((n) => n["Relation Name"] === "posts");
    expect(globalScans.map((s) => [s["Index Name"], s["Node Type"]])).toEqual([["posts_feed_idx", "Index Only Scan"]]);
    expect(global.some((n) => n["Node Type"] === "Sort")).toBe(false);
    const globalCount = await explain(globalPlan.count);
    expect(globalCount.filter((n) => n["Relation Name"] === "posts").map((n) => n["Actual Rows"])).toEqual([FEED_WINDOW]);
    for (const n of [...global, ...globalCount].filter((x) => x["Relation Name"] === "accounts" || x["Relation Name"] === "friendships")) {
      expect(n["Actual Loops"], JSON.stringify(n)).toBeLessThanOrEqual(1);
    }
  });

  it("an account following very many reads the time index backwards once, with the same pages", async () => {
    const reader = await signedInAccount();
    // DENSE_AUTHORS_MIN followed authors with 3 posts each, a few of them at one publish time.
    await getDb().execute(sql`
      with authors as (
        insert into accounts (email, password_hash, first_name, last_name)
        select 'dense' || g || '-' || ${reader.id} || '@example.com', 'x', 'Dense', 'Author' || g
        from generate_series(1, ${DENSE_AUTHORS_MIN}) g
        returning id)
      , rel as (
        insert into friendships (account_id, friend_id, status_code)
        select ${reader.id}, id, 'SUBSCRIBED'::friend_status from authors
        union all select id, ${reader.id}, 'WATCHING'::friend_status from authors)
      insert into posts (author_id, title, post_text, publish_date)
      select a.id, 'Dense post', '<p>dense text here</p>', now() - ((a.id % 97) || ' minutes')::interval - (g || ' hours')::interval
      from authors a cross join generate_series(1, 3) g`);
    await getDb().execute(sql`vacuum analyze posts`);
    await getDb().execute(sql`analyze accounts`);
    await getDb().execute(sql`analyze friendships`);
    const [{ expected }] = await getDb().execute<{ expected: string[] }>(sql`
      select array_agg(id order by publish_date desc, id desc) as expected from (
        select p.id, p.publish_date from posts p
        where p.author_id in (select friend_id from friendships where account_id = ${reader.id}) and not p.is_deleted
        order by p.publish_date desc, p.id desc limit 55) s`);
    const seen: number[] = [];
    for (let page = 0; page < 11; page++) {
      const q = feedQuery.parse({ withFriends: "true", page: String(page) });
      const nodes = await explain(feedPlan(reader.id, q).ids);
      const postScans = nodes.filter((n) => n["Relation Name"] === "posts" && n["Actual Loops"] > 0);
      expect(postScans.map((n) => [n["Index Name"], n["Node Type"], n["Actual Loops"]])).toEqual([["posts_feed_idx", "Index Only Scan", 1]]);
      for (const sort of nodes.filter((n) => n["Node Type"] === "Sort")) expect(sort["Actual Rows"]).toBeLessThanOrEqual((page + 1) * 5);
      const res = await listNewsPosts({ ctx: reader.ctx, input: { withFriends: "true", page: String(page) } });
      seen.push(...res.content.map((p) => p.id));
      expect(res.totalElements).toBe(FEED_WINDOW);
    }
    expect(seen).toEqual(expected.map(Number));
  });

  it("the DTOs of a page are read by a statement Postgres plans once per connection, in the page's order", async () => {
    // docs/adr/0104: ids padded to a fixed number of parameters let the planner settle on one generic plan.
    const raw = createSql(databaseUrl(), { max: 1 });
    const db = createDb(raw);
    try {
      const page = feedPlan(me.id, feedQuery.parse({ withFriends: "true", size: "3" }));
      const expected = (await getDb().execute<{ id: string }>(page.ids)).map((r) => Number(r.id));
      expect(expected.length).toBe(3);
      for (let i = 0; i < 8; i++) expect((await readPostDtos(db, me.id, page.ids)).map((p) => p.id)).toEqual(expected);
      // This query's own text holds the pattern too, and it is a prepared statement as well: leave it out.
      const found = await raw<{ generic_plans: string; custom_plans: string }[]>`
        select generic_plans, custom_plans from pg_prepared_statements
        where statement like '%left join post_reactions r%' and statement not like '%pg_prepared_statements%'`;
      expect(found).toHaveLength(1);
      const [dtos] = found;
      // Postgres plans the first five executions for their values, then keeps the generic plan.
      expect(Number(dtos.custom_plans)).toBeLessThanOrEqual(5);
      expect(Number(dtos.generic_plans)).toBeGreaterThanOrEqual(3);
    } finally {
      await raw.end();
    }
  });
});
