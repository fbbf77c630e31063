import { beforeAll, describe, expect, it } from "vitest";
import { GET as countRoute } from "@/app/api/v1/friends/count/route";
import { GET as countsRoute } from "@/app/api/v1/friends/counts/route";
import { GET as requestsRoute } from "@/app/api/v1/friends/request/route";
import { GET as listRoute } from "@/app/api/v1/friends/route";
import { countFriendsByStatus, listFriends } from "@/lib/server/services/friends/lists";
import { ctxOf, signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { makeFriends, setAccount, setPair } from "./friends-support";

type Account = Awaited<ReturnType<typeof signedInAccount>>;

const list = (viewer: Account | null, query = "") =>
  call(listRoute, { token: viewer?.accessToken, path: `/api/v1/friends${query}`, headers: { "accept-language": "en" } });

let me: Account;
let friends: Account[];
let other: Account;

beforeAll(async () => {
  me = await signedInAccount({ firstName: "Mila", lastName: "Sokolova" });
  other = await signedInAccount({ firstName: "Oleg", lastName: "Kuznetsov" });
  friends = [];
  for (let i = 0; i < 7; i++) friends.push(await signedInAccount({ firstName: `Friend${"abcdefg"[i]}`, lastName: "Test" }));
  // Friendships made one minute apart: friends[6] is the newest.
  const base = Date.now() - 60 * 60_000;
  for (let i = 0; i < 7; i++) await makeFriends(me.id, friends[i].id, new Date(base + i * 60_000));
  const f0 = friends[0].id;
  await setAccount(f0, {
    city: "Kazan",
    country: "RU",
    birthDate: "1990-06-15",
    photo: "/storage/f0.webp",
    emojiStatus: "🙂",
    lastOnlineTime: new Date(),
  });
  // The other account has its own requests and blocks, which must never show up in my lists.
  const x = await signedInAccount();
  const y = await signedInAccount();
  await setPair(other.id, x.id, ["REQUEST_FROM", "REQUEST_TO"]);
  await setPair(other.id, y.id, ["BLOCKED", "REJECTING"]);
});

describe("GET friends", () => {
  it("pages my friends newest first, each with the friend's summary", async () => {
    const seen: number[] = [];
    for (let page = 0; page < 3; page++) {
      const res = await list(me, `?statusCode=FRIEND&page=${page}&size=3`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ totalElements: 7, totalPages: 3, size: 3, number: page });
      seen.push(...res.body.content.map((r: { friendId: number }) => r.friendId));
    }
    expect(seen).toEqual(friends.map((f) => f.id).reverse());

    const last = (await list(me, "?statusCode=FRIEND&page=2&size=3")).body.content;
    expect(last).toHaveLength(1);
    const [item] = last;
    expect(item).toEqual({
      id: expect.any(Number),
      friendId: friends[0].id,
      statusCode: "FRIEND",
      previousStatusCode: null,
      updatedAt: expect.any(String),
      account: {
        id: friends[0].id,
        firstName: "Frienda",
        lastName: "Test",
        fullName: "Frienda Test",
        photo: "/storage/f0.webp",
        // Stored as ids, titled in the request's language.
        city: "Kazan",
        cityId: 551487,
        country: "Russia",
        countryId: "RU",
        age: expect.any(Number),
        isOnline: true,
        lastOnlineTime: expect.any(String),
        emojiStatus: "🙂",
        isClosed: false,
        // A friend's month and day, for the "birthday today" mark (issue 27).
        birthday: expect.stringMatching(/^\d{2}-\d{2}$/),
      },
    });
    expect(item.account.age).toBeGreaterThanOrEqual(35);
    // Never a raw account row.
    expect(JSON.stringify(item)).not.toMatch(/email|password|Hash/i);
  });

  it("defaults to FRIEND, page 0, size 20; sorts oldest first on request", async () => {
    const res = await list(me);
    expect(res.body).toMatchObject({ totalElements: 7, size: 20, number: 0 });
    const asc = await list(me, "?sort=updatedAt,asc&size=2");
    expect(asc.body.content.map((r: { friendId: number }) => r.friendId)).toEqual([friends[0].id, friends[1].id]);
  });

  it("an empty page past the end, and an empty tab, are plain empty pages", async () => {
    expect((await list(me, "?page=5&size=3")).body).toMatchObject({ content: [], totalElements: 7, totalPages: 3, number: 5 });
    expect((await list(me, "?statusCode=BLOCKED")).body).toEqual({ content: [], totalElements: 0, totalPages: 0, size: 20, number: 0 });
  });

  it("hides a deleted friend from the list and the counts, and shows them again once restored", async () => {
    await setAccount(friends[3].id, { isDeleted: true });
    expect((await list(me)).body.totalElements).toBe(6);
    expect((await countFriendsByStatus({ ctx: me.ctx })).FRIEND).toBe(6);
    await setAccount(friends[3].id, { isDeleted: false });
    expect((await list(me)).body.totalElements).toBe(7);
  });

  it("lists every tab by its status", async () => {
    const x = await signedInAccount();
    await setPair(me.id, x.id, ["WATCHING", "SUBSCRIBED"]);
    const res = await list(me, "?statusCode=WATCHING");
    expect(res.body.content.map((r: { friendId: number; statusCode: string }) => [r.friendId, r.statusCode])).toEqual([[x.id, "WATCHING"]]);
    await setPair(me.id, x.id, [null, null]);
  });

  it("refuses bad parameters with 422 and the field named", async () => {
    for (const q of ["?statusCode=NOPE", "?statusCode=REJECTING", "?page=-1", "?page=x", "?size=0", "?size=101", "?size=2.5", "?sort=firstName,asc"]) {
      const res = await list(me, q);
      expect(res.status, q).toBe(422);
      expect(res.body.error.issues.length, q).toBeGreaterThan(0);
    }
  });

  it("has no way to read another account's lists: a crafted parameter is refused", async () => {
    for (const q of [`?accountId=${other.id}&statusCode=REQUEST_FROM`, `?friendId=${other.id}`, `?id=${other.id}&statusCode=BLOCKED`]) {
      const res = await list(me, q);
      expect(res.status, q).toBe(422);
      expect(res.body.error.issues[0].message).toBe("Unknown query parameter");
    }
    // The statuses another account holds are never in mine.
    expect((await list(me, "?statusCode=REQUEST_FROM")).body.totalElements).toBe(0);
    expect((await list(me, "?statusCode=BLOCKED")).body.totalElements).toBe(0);
    const reqs = await call(requestsRoute, { token: me.accessToken, path: `/api/v1/friends/request?accountId=${other.id}` });
    expect(reqs.status).toBe(422);
  });

  it("401 without a session", async () => {
    expect((await list(null)).status).toBe(401);
    expect((await call(requestsRoute, { path: "/api/v1/friends/request" })).status).toBe(401);
    expect((await call(countRoute, { path: "/api/v1/friends/count" })).status).toBe(401);
    expect((await call(countsRoute, { path: "/api/v1/friends/counts" })).status).toBe(401);
  });

  it("the service refuses a call without a viewer", async () => {
    await expect(listFriends({ ctx: ctxOf(null), input: {} })).rejects.toMatchObject({ code: "unauthorized" });
  });
});

describe("GET friends/request, friends/count, friends/counts", () => {
  it("incoming requests: paged, newest first; count is their number", async () => {
    const askers: Account[] = [];
    for (let i = 0; i < 4; i++) askers.push(await signedInAccount());
    const base = Date.now() - 10 * 60_000;
    for (let i = 0; i < 4; i++) {
      await setPair(me.id, askers[i].id, ["REQUEST_FROM", "REQUEST_TO"]);
    }
    // Different times so the order is defined by updated_at, not only by the tie-breaker.
    const { getDb } = await import("@/db/client");
    const { sql } = await import("drizzle-orm");
    for (let i = 0; i < 4; i++) {
      await getDb().execute(sql`update friendships set updated_at = ${new Date(base + i * 1000).toISOString()}
        where account_id = ${me.id} and friend_id = ${askers[i].id}`);
    }
    const page0 = await call(requestsRoute, { token: me.accessToken, path: "/api/v1/friends/request?size=3" });
    expect(page0.status).toBe(200);
    expect(page0.body).toMatchObject({ totalElements: 4, totalPages: 2, size: 3, number: 0 });
    expect(page0.body.content.map((r: { friendId: number }) => r.friendId)).toEqual([askers[3].id, askers[2].id, askers[1].id]);
    expect(page0.body.content[0]).toMatchObject({ statusCode: "REQUEST_FROM", account: { id: askers[3].id, fullName: "Ivan Petrov" } });
    const page1 = await call(requestsRoute, { token: me.accessToken, path: "/api/v1/friends/request?size=3&page=1" });
    expect(page1.body.content.map((r: { friendId: number }) => r.friendId)).toEqual([askers[0].id]);

    const count = await call(countRoute, { token: me.accessToken, path: "/api/v1/friends/count" });
    expect(count.body).toEqual({ count: 4 });
    // The requests of other accounts are theirs alone.
    expect((await call(countRoute, { token: other.accessToken, path: "/api/v1/friends/count" })).body).toEqual({ count: 1 });

    // Declining one through the service lowers the count.
    const { removeFriendRelation } = await import("@/lib/server/services/friends/actions");
    await removeFriendRelation({ ctx: me.ctx, input: { id: askers[0].id } });
    expect((await call(countRoute, { token: me.accessToken, path: "/api/v1/friends/count" })).body).toEqual({ count: 3 });
    for (const a of askers) await setPair(me.id, a.id, [null, null]);
  });

  it("counts: one number per tab, REJECTING never among them", async () => {
    const people: Account[] = [];
    for (let i = 0; i < 5; i++) people.push(await signedInAccount());
    await setPair(me.id, people[0].id, ["REQUEST_FROM", "REQUEST_TO"]);
    await setPair(me.id, people[1].id, ["REQUEST_TO", "REQUEST_FROM"]);
    await setPair(me.id, people[2].id, ["SUBSCRIBED", "WATCHING"]);
    await setPair(me.id, people[3].id, ["WATCHING", "SUBSCRIBED"]);
    await setPair(me.id, people[4].id, ["BLOCKED", "BLOCKED"]);
    const blocker = await signedInAccount();
    await setPair(me.id, blocker.id, ["REJECTING", "BLOCKED"]);
    const res = await call(countsRoute, { token: me.accessToken, path: "/api/v1/friends/counts" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ REQUEST_FROM: 1, REQUEST_TO: 1, WATCHING: 1, BLOCKED: 1, SUBSCRIBED: 1, FRIEND: 7 });
    expect((await call(countsRoute, { token: me.accessToken, path: "/api/v1/friends/counts?accountId=1" })).status).toBe(422);
    expect((await call(countRoute, { token: me.accessToken, path: "/api/v1/friends/count?accountId=1" })).status).toBe(422);
  });
});
