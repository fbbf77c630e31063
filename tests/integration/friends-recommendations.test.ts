import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as recommendationsRoute } from "@/app/api/v1/friends/recommendations/route";
import { getDb } from "@/db/client";
import { FRIEND_SAMPLE, listRecommendations } from "@/lib/server/services/friends/recommendations";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { makeFriends, setAccount, setPair } from "./friends-support";

type Account = Awaited<ReturnType<typeof signedInAccount>>;
type Rec = { id: number; mutualFriends: number; fullName: string; city: string | null };

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

async function recommend(viewer: Account, query = "?size=50"): Promise<Rec[]> {
  const res = await call(recommendationsRoute, { token: viewer.accessToken, path: `/api/v1/friends/recommendations${query}` });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.content;
}

/** Accounts straight into the table: many of them, fast (no password hashing). */
async function bulkAccounts(n: number, prefix: string): Promise<number[]> {
  const rows = await getDb().execute<{ id: string }>(sql`
    insert into accounts (email, password_hash, first_name, last_name)
    select ${prefix} || g || '@example.com', 'x', 'Bulk', 'User' || g from generate_series(1, ${n}) g
    returning id`);
  return rows.map((r) => Number(r.id));
}

let me: Account;
const p: Record<string, Account> = {};

beforeAll(async () => {
  me = await signedInAccount({ firstName: "Vera", lastName: "Lebedeva" });
  await setAccount(me.id, { city: "Kazan" });
  const names = ["f1", "f2", "f3", "c1", "c2", "c3", "c4", "c5", "s1", "x1", "x2", "x3", "x4", "x5", "x6", "z1", "z2"];
  for (const n of names) p[n] = await signedInAccount({ firstName: n.toUpperCase(), lastName: "Test" });
  for (const f of ["f1", "f2", "f3"]) await makeFriends(me.id, p[f].id);
  const links: [string, string[]][] = [
    ["c1", ["f1", "f2", "f3"]],
    ["c2", ["f1", "f2"]],
    ["c3", ["f1"]],
    ["c4", ["f2"]],
    ["c5", ["f3"]],
    ["s1", ["f1"]],
    ["x1", ["f1", "f2", "f3"]],
    ["x2", ["f1", "f2", "f3"]],
    ["x3", ["f1", "f2", "f3"]],
    ["x4", ["f1", "f2", "f3"]],
    ["x5", ["f1", "f2", "f3"]],
    ["x6", ["f1", "f2", "f3"]],
    ["f2", ["f1"]],
  ];
  for (const [who, theirFriends] of links) for (const f of theirFriends) await makeFriends(p[who].id, p[f].id);
  await setAccount(p.c2.id, { city: "Moscow", lastOnlineTime: minutesAgo(1) });
  await setAccount(p.c3.id, { city: "Kazan", lastOnlineTime: minutesAgo(300) });
  await setAccount(p.c4.id, { city: "Kazan", lastOnlineTime: minutesAgo(30) });
  await setAccount(p.c5.id, { city: "Moscow", lastOnlineTime: minutesAgo(0) });
  await setAccount(p.z1.id, { city: "Kazan", lastOnlineTime: minutesAgo(50) });
  await setAccount(p.z2.id, { city: "Moscow", lastOnlineTime: minutesAgo(0) });
  // Every way of being ruled out.
  await setPair(me.id, p.x1.id, ["REQUEST_TO", "REQUEST_FROM"]);
  await setPair(me.id, p.x2.id, ["REQUEST_FROM", "REQUEST_TO"]);
  await setPair(me.id, p.x3.id, ["BLOCKED", "REJECTING"]);
  await setPair(me.id, p.x4.id, ["REJECTING", "BLOCKED"]);
  await setAccount(p.x5.id, { isDeleted: true });
  await setPair(me.id, p.x6.id, ["BLOCKED", "BLOCKED"]);
  // A subscription is no reason to hide someone.
  await setPair(me.id, p.s1.id, ["SUBSCRIBED", "WATCHING"]);
});

describe("GET friends/recommendations", () => {
  it("ranks by mutual friends, then same city, then recent activity", async () => {
    const recs = await recommend(me);
    const order = recs.map((r) => r.id);
    const expected = ["c1", "c2", "c4", "c3", "c5", "s1"].map((n) => p[n].id);
    expect(order.slice(0, 6)).toEqual(expected);
    expect(recs.slice(0, 6).map((r) => r.mutualFriends)).toEqual([3, 2, 1, 1, 1, 1]);
    // With no friend in common: same city first, then the most recently active.
    const zeros = recs.filter((r) => r.mutualFriends === 0).map((r) => r.id);
    expect(zeros.indexOf(p.z1.id)).toBeGreaterThanOrEqual(0);
    expect(zeros.indexOf(p.z1.id)).toBeLessThan(zeros.indexOf(p.z2.id));
    // Names keep letters only (one name schema, ADR 0050): "C1" is stored as "C".
    expect(recs[0]).toMatchObject({ id: p.c1.id, fullName: "C Test", mutualFriends: 3 });
    expect(recs[0]).toHaveProperty("isOnline");
  });

  it("never recommends me, my friends, pending requests either way, blocks either way, or deleted accounts", async () => {
    const ids = new Set((await recommend(me)).map((r) => r.id));
    expect(ids.has(me.id)).toBe(false);
    for (const n of ["f1", "f2", "f3", "x1", "x2", "x3", "x4", "x5", "x6"]) expect(ids.has(p[n].id), n).toBe(false);
  });

  it("gives each recommendation the viewer's side, so the card offers the action that fits", async () => {
    const recs = (await recommend(me)) as (Rec & { statusCode: string | null })[];
    expect(recs.find((r) => r.id === p.s1.id)?.statusCode).toBe("SUBSCRIBED");
    expect(recs.find((r) => r.id === p.c1.id)?.statusCode).toBeNull();
    // Seen from the other side, my subscription makes me their follower.
    const theirs = (await recommend(p.s1)) as (Rec & { statusCode: string | null })[];
    expect(theirs.find((r) => r.id === me.id)?.statusCode).toBe("WATCHING");
    expect(recs.every((r) => r.statusCode === null || r.statusCode === "SUBSCRIBED" || r.statusCode === "WATCHING")).toBe(true);
  });

  it("pages through the ranking", async () => {
    const all = await recommend(me);
    const res = await call(recommendationsRoute, { token: me.accessToken, path: "/api/v1/friends/recommendations?page=1&size=2" });
    expect(res.body).toMatchObject({ number: 1, size: 2, totalElements: all.length, totalPages: Math.ceil(all.length / 2) });
    expect(res.body.content.map((r: Rec) => r.id)).toEqual(all.slice(2, 4).map((r) => r.id));
  });

  it("a new account gets people of its city first, the most recently active first", async () => {
    const fresh = await signedInAccount();
    await setAccount(fresh.id, { city: "Kazan" });
    const recs = await recommend(fresh);
    expect(recs.every((r) => r.mutualFriends === 0)).toBe(true);
    const firstOther = recs.findIndex((r) => r.city !== "Kazan");
    expect(firstOther).toBeGreaterThan(0);
    expect(recs.slice(firstOther).some((r) => r.city === "Kazan")).toBe(false);
    expect(recs.map((r) => r.id)).not.toContain(p.x5.id);
  });

  it("shows exact mutual counts even beyond the sampled friends", async () => {
    const big = await signedInAccount();
    const friendIds = await bulkAccounts(FRIEND_SAMPLE + 20, `big-${big.id}-`);
    const [candidate] = await bulkAccounts(1, `cand-${big.id}-`);
    const ids = `{${friendIds.join(",")}}`;
    // Both the big account and the candidate are friends with every one of them.
    await getDb().execute(sql`
      insert into friendships (account_id, friend_id, status_code)
      select o, f, 'FRIEND'::friend_status from unnest(${ids}::bigint[]) f, unnest(array[${big.id}, ${candidate}]::bigint[]) o
      union all
      select f, o, 'FRIEND'::friend_status from unnest(${ids}::bigint[]) f, unnest(array[${big.id}, ${candidate}]::bigint[]) o`);
    const page = await listRecommendations({ ctx: big.ctx, input: { size: 5 } });
    expect(page.content[0]).toMatchObject({ id: candidate, mutualFriends: FRIEND_SAMPLE + 20 });
  });

  it("refuses unknown parameters and a too large page size; 401 without a session", async () => {
    const bad = await call(recommendationsRoute, { token: me.accessToken, path: `/api/v1/friends/recommendations?accountId=${p.f1.id}` });
    expect(bad.status).toBe(422);
    expect((await call(recommendationsRoute, { token: me.accessToken, path: "/api/v1/friends/recommendations?size=51" })).status).toBe(422);
    expect((await call(recommendationsRoute, { path: "/api/v1/friends/recommendations" })).status).toBe(401);
  });
});
