// Privacy settings (issue 26 section 3, docs/adr/0125): GET/PUT account/privacy, and the table of
// viewer (self, friend, friend of a friend, stranger, staff, blocked) × setting × path — the API, the
// page-data services, the socket, people search, recommendations, notifications and the public shell.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as accountRoute } from "@/app/api/v1/account/[id]/route";
import { GET as privacyGet, PUT as privacyPut } from "@/app/api/v1/account/privacy/route";
import { GET as searchRoute } from "@/app/api/v1/account/search/route";
import { POST as sendRoute } from "@/app/api/v1/dialogs/[id]/messages/route";
import { GET as dialogRoute } from "@/app/api/v1/dialogs/[id]/route";
import { POST as createDialogRoute } from "@/app/api/v1/dialogs/route";
import { POST as requestRoute } from "@/app/api/v1/friends/[id]/request/route";
import { GET as recommendationsRoute } from "@/app/api/v1/friends/recommendations/route";
import { GET as newsRoute } from "@/app/api/v1/post/newsPosts/route";
import { GET as postRoute } from "@/app/api/v1/post/[id]/route";
import { GET as wallRoute } from "@/app/api/v1/post/route";
import { getDb } from "@/db/client";
import { createDialog } from "@/lib/server/services/dialogs/dialogs";
import { getProfileFriends } from "@/lib/server/services/profiles/profile-friends";
import { getPublicProfile } from "@/lib/server/services/profiles/public-profile";
import { createRealtimeServer, type RealtimeServer } from "@/realtime/server";
import { makeFriends, setAccount, setPair } from "./friends-support";
import { ctxOf, signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { TestSocket, type Frame } from "./helpers/ws-client";
import { newPost } from "./post-support";

vi.stubEnv("RATE_LIMIT_PRIVACY", "12/10m");
afterAll(() => vi.unstubAllEnvs());

type Account = Awaited<ReturnType<typeof signedInAccount>>;
type Who = "self" | "friend" | "fof" | "stranger" | "staff" | "blocked";
const VIEWERS: Who[] = ["self", "friend", "fof", "stranger", "staff", "blocked"];

let server: RealtimeServer;
beforeAll(async () => {
  server = await createRealtimeServer({ port: 0 });
});
afterAll(async () => {
  await server.close();
});

/**
 * A fresh cast around one owner: a friend, a friend of that friend (no friendship with the owner), a
 * stranger, a moderator and someone the owner blocked. Names are unique per cast so searches find only it.
 */
async function cast() {
  const tag = randomUUID().replace(/\D/g, "").slice(0, 6).split("").map((d) => "абвгдежзий"[Number(d)]).join("");
  const owner = await signedInAccount({ firstName: "Приватный", lastName: `Хозяин${tag}` });
  const [friend, fof, stranger, staff, blocked] = await Promise.all(
    ["Друг", "Знакомый", "Незнакомец", "Модератор", "Заблокированный"].map((firstName) => signedInAccount({ firstName, lastName: `Гость${tag}` })),
  );
  await makeFriends(owner.id, friend.id);
  await makeFriends(friend.id, fof.id);
  await setPair(owner.id, blocked.id, ["BLOCKED", "REJECTING"]);
  await getDb().execute(sql`update accounts set role = 'MODERATOR' where id = ${staff.id}`);
  await setAccount(owner.id, { city: "Москва", country: "Россия", birthDate: "1990-05-17" });
  await getDb().execute(sql`update accounts set about = 'Обо мне', last_online_time = now() where id = ${owner.id}`);
  const people: Record<Who, Account> = { self: owner, friend, fof, stranger, staff, blocked };
  return { owner, tag, people };
}

const put = (who: Account, body: unknown) => call(privacyPut, { method: "PUT", token: who.accessToken, body });
const viewAccount = (who: Account, id: number) => call(accountRoute, { token: who.accessToken, params: { id: String(id) } });
const wall = (who: Account, id: number) => call(wallRoute, { token: who.accessToken, path: `/api/v1/post?accountIds=${id}&page=0&size=5` });

describe("GET / PUT account/privacy", () => {
  it("answers the open defaults, changes any of the four, and refuses what it does not know with a 400 in the envelope", async () => {
    const me = await signedInAccount();
    expect((await call(privacyGet, { token: me.accessToken })).body).toEqual({
      profileVisibility: "ALL",
      messagesFrom: "ALL",
      friendRequestsFrom: "ALL",
      searchable: true,
      fediverse: false,
      fediverseName: null,
    });
    const changed = await put(me, { profileVisibility: "FRIENDS", searchable: false });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ profileVisibility: "FRIENDS", messagesFrom: "ALL", friendRequestsFrom: "ALL", searchable: false, fediverse: false, fediverseName: null });
    expect((await call(privacyGet, { token: me.accessToken })).body).toMatchObject({ profileVisibility: "FRIENDS", searchable: false });

    for (const body of [{ profileVisibility: "NOBODY" }, { messagesFrom: "FRIENDS_OF_FRIENDS" }, { friendRequestsFrom: "FRIENDS" }, { searchable: "no" }, { hidden: true }, {}]) {
      const res = await put(me, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ code: "bad_request", message: expect.any(String) });
      expect(res.body.requestId).toEqual(expect.any(String));
    }
    const bad = await put(me, { messagesFrom: "X" });
    expect(bad.body.error.issues).toEqual([{ path: "messagesFrom", message: expect.any(String) }]);
    // Nothing of the refused bodies was stored.
    expect((await call(privacyGet, { token: me.accessToken })).body).toEqual({ profileVisibility: "FRIENDS", messagesFrom: "ALL", friendRequestsFrom: "ALL", searchable: false, fediverse: false, fediverseName: null });
  });

  it("needs a session, and a deleted account cannot change its settings", async () => {
    expect((await call(privacyGet)).status).toBe(401);
    expect((await call(privacyPut, { method: "PUT", body: { searchable: false } })).status).toBe(401);
    const me = await signedInAccount();
    await setAccount(me.id, { isDeleted: true });
    expect((await put(me, { searchable: false })).status).toBe(403);
  });

  it("is a repeatable write with a per-account limit (429 with Retry-After)", async () => {
    const me = await signedInAccount();
    for (let i = 0; i < 12; i++) expect((await put(me, { searchable: i % 2 === 0 })).status).toBe(200);
    const refused = await put(me, { searchable: true });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another account has its own budget.
    expect((await put(await signedInAccount(), { searchable: false })).status).toBe(200);
  });
});

describe("profileVisibility = FRIENDS: a closed profile", () => {
  // Who sees the page beyond name and photo. Staff get no exception outside the admin area.
  const SEES: Record<Who, boolean> = { self: true, friend: true, fof: false, stranger: false, staff: false, blocked: false };

  it("every path: GET account/{id}, the wall, the profile's friends, news search, the single post, people search, recommendations, the public shell", async () => {
    const { owner, tag, people } = await cast();
    const post = await newPost(owner.ctx, { title: `Закрытая запись ${tag}` });
    // Open first: everyone (but the blocked one) reads the wall, as before the setting existed.
    expect((await wall(people.stranger, owner.id)).body.content).toHaveLength(1);
    expect((await put(owner, { profileVisibility: "FRIENDS" })).status).toBe(200);

    for (const who of VIEWERS) {
      const viewer = people[who];
      const sees = SEES[who];
      const label = `${who} sees=${sees}`;

      const account = await viewAccount(viewer, owner.id);
      expect(account.status, label).toBe(200);
      expect(account.body, label).toMatchObject({ id: owner.id, firstName: "Приватный", isClosed: !sees });
      if (sees) {
        expect(account.body, label).toMatchObject({ about: "Обо мне", city: expect.any(String), age: expect.any(Number) });
      } else {
        expect(account.body, label).toMatchObject({
          about: null,
          city: null,
          cityId: null,
          country: null,
          countryId: null,
          age: null,
          birthDate: null,
          phone: null,
          profileCover: null,
          emojiStatus: null,
          isOnline: false,
          lastOnlineTime: null,
        });
      }

      const posts = await wall(viewer, owner.id);
      if (sees) {
        expect(posts.status, label).toBe(200);
        expect(posts.body.content.map((p: { id: number }) => p.id), label).toEqual([post.id]);
      } else {
        expect(posts.status, label).toBe(403);
        expect(posts.body.error, label).toMatchObject({ code: "forbidden", message: "Это закрытый профиль: его видят только друзья" });
      }

      // The page's data (profile/[id]/page.tsx reads the friends block through this verb).
      const friends = getProfileFriends({ ctx: ctxOf(viewer.viewer), input: { id: owner.id } });
      if (sees) expect((await friends).friends.map((f) => f.id), label).toEqual([people.friend.id]);
      else await expect(friends, label).rejects.toMatchObject({ code: "forbidden" });

      const news = await call(newsRoute, { token: viewer.accessToken, path: `/api/v1/post/newsPosts?text=${encodeURIComponent(`Закрытая запись ${tag}`)}` });
      expect(news.status, label).toBe(200);
      expect(news.body.content.map((p: { id: number }) => p.id), label).toEqual(sees ? [post.id] : []);

      const single = await call(postRoute, { token: viewer.accessToken, params: { id: String(post.id) } });
      expect(single.status, label).toBe(sees ? 200 : 404);

      // People search still finds the name, with nothing else.
      if (who !== "self") {
        const found = await call(searchRoute, { token: viewer.accessToken, path: `/api/v1/account/search?author=${encodeURIComponent(`Хозяин${tag}`)}` });
        expect(found.status, label).toBe(200);
        const hit = found.body.content.find((a: { id: number }) => a.id === owner.id);
        expect(hit, label).toMatchObject({ firstName: "Приватный", isClosed: !sees, about: sees ? "Обо мне" : null });
      }
    }

    // Recommendations: the friend of a friend is offered the owner's name and photo only.
    const recs = await call(recommendationsRoute, { token: people.fof.accessToken, path: "/api/v1/friends/recommendations" });
    expect(recs.body.content.find((r: { id: number }) => r.id === owner.id)).toMatchObject({ isClosed: true, city: null, age: null, emojiStatus: null, mutualFriends: 1 });

    // The public shell (signed out, crawlers): name and photo, the closed state.
    expect(await getPublicProfile({ ctx: ctxOf(), input: { id: owner.id } })).toMatchObject({ firstName: "Приватный", city: null, about: null, isClosed: true });

    // Opening it again restores every path.
    await put(owner, { profileVisibility: "ALL" });
    expect((await wall(people.stranger, owner.id)).body.content).toHaveLength(1);
    expect((await viewAccount(people.staff, owner.id)).body).toMatchObject({ isClosed: false, about: "Обо мне" });
    expect(await getPublicProfile({ ctx: ctxOf(), input: { id: owner.id } })).toMatchObject({ about: "Обо мне", isClosed: false });
  });

  it("notifications and the feeds' live event: a closed page's new post reaches friends, not subscribers", async () => {
    const { owner, people } = await cast();
    // The stranger follows the owner (their subscription: SUBSCRIBED / WATCHING).
    await setPair(people.stranger.id, owner.id, ["SUBSCRIBED", "WATCHING"]);
    const heard = async (postId: number) => {
      const rows = await getDb().execute<{ receiver_id: string }>(sql`select receiver_id from notifications where post_id = ${postId} and notification_type = 'POST'`);
      return rows.map((r) => Number(r.receiver_id)).sort((a, b) => a - b);
    };
    const liveTo = async (postId: number) => {
      const rows = await getDb().execute<{ recipients: string[] }>(sql`select recipients from events where type = 'POST_PUBLISHED' and (payload->>'postId')::bigint = ${postId}`);
      return rows.flatMap((r) => r.recipients.map(Number)).sort((a, b) => a - b);
    };
    const open = await newPost(owner.ctx);
    expect(await heard(open.id)).toEqual([people.friend.id, people.stranger.id].sort((a, b) => a - b));
    await put(owner, { profileVisibility: "FRIENDS" });
    const closed = await newPost(owner.ctx);
    expect(await heard(closed.id)).toEqual([people.friend.id]);
    const live = await liveTo(closed.id);
    expect(live).toContain(people.friend.id);
    expect(live).not.toContain(people.stranger.id);
    // Nor does the follower's friends feed carry it.
    const feed = await call(newsRoute, { token: people.stranger.accessToken, path: "/api/v1/post/newsPosts?withFriends=true" });
    expect(feed.body.content.map((p: { id: number }) => p.id)).not.toContain(closed.id);
    expect(feed.body.content.map((p: { id: number }) => p.id)).not.toContain(open.id);
  });
});

describe("messagesFrom = FRIENDS", () => {
  const open = (who: Account) => TestSocket.open(server.port, { token: who.accessToken });
  async function nextOf(socket: TestSocket, ...types: string[]): Promise<Frame> {
    for (;;) {
      const f = await socket.next();
      if (types.includes(f.type)) return f;
    }
  }

  it("a non-friend is refused before typing (account and dialog say so), by POST, by a new dialog and on the socket; a friend writes", async () => {
    const { owner, people } = await cast();
    // Dialogs that existed before the setting: the stranger's, the friend's and the staff's.
    const dialogs = {} as Record<Who, number>;
    for (const who of ["friend", "stranger", "staff"] as const) {
      dialogs[who] = (await createDialog({ ctx: people[who].ctx, input: { recipientId: owner.id } })).dialog.id;
    }
    await put(owner, { messagesFrom: "FRIENDS" });
    const before = await getDb().execute<{ n: string }>(sql`select count(*) as n from notifications where receiver_id = ${owner.id} and notification_type = 'MESSAGE'`);

    for (const who of ["friend", "fof", "stranger", "staff", "blocked"] as const) {
      const viewer = people[who];
      const allowed = who === "friend";
      const label = `${who} allowed=${allowed}`;
      expect((await viewAccount(viewer, owner.id)).body.canMessage, label).toBe(allowed);
      if (who === "fof" || who === "blocked") {
        // No dialog yet: making one is refused as well (the blocked one by the block).
        const made = await call(createDialogRoute, { method: "POST", token: viewer.accessToken, body: { recipientId: owner.id } });
        expect(made.status, label).toBe(403);
        if (who === "fof") expect(made.body.error.message, label).toBe("Этот пользователь принимает сообщения только от друзей");
        continue;
      }
      const dialog = await call(dialogRoute, { token: viewer.accessToken, params: { id: String(dialogs[who]) } });
      expect(dialog.body, label).toMatchObject({ canWrite: allowed, messagesFriendsOnly: !allowed });
      const sent = await call(sendRoute, { method: "POST", token: viewer.accessToken, params: { id: String(dialogs[who]) }, body: { messageText: "Привет" } });
      expect(sent.status, label).toBe(allowed ? 201 : 403);
      if (!allowed) expect(sent.body.error, label).toMatchObject({ code: "forbidden", message: "Этот пользователь принимает сообщения только от друзей" });
    }

    // The socket path: the same verb, the same refusal, nothing delivered.
    const socket = await open(people.stranger);
    socket.send({ type: "MESSAGE", data: { dialogId: dialogs.stranger, messageText: "через сокет" } });
    expect((await nextOf(socket, "MESSAGE_REJECTED", "MESSAGE")).data).toMatchObject({ status: 403, code: "forbidden", messageKey: "chatErrors.messagesFriendsOnly" });
    socket.send({ type: "MESSAGE", data: { recipientId: owner.id, messageText: "по получателю" } });
    expect((await nextOf(socket, "MESSAGE_REJECTED", "MESSAGE")).data).toMatchObject({ status: 403, messageKey: "chatErrors.messagesFriendsOnly" });
    await socket.close();

    // Notifications: the friend's message rang the bell once; the refused ones stored nothing.
    const after = await getDb().execute<{ n: string }>(sql`select count(*) as n from notifications where receiver_id = ${owner.id} and notification_type = 'MESSAGE'`);
    expect(Number(after[0].n) - Number(before[0].n)).toBe(1);
    const [stored] = await getDb().execute<{ n: string }>(sql`select count(*) as n from messages where recipient_id = ${owner.id}`);
    expect(Number(stored.n)).toBe(1);

    // Self: one's own setting never stops one from writing to others.
    const out = await createDialog({ ctx: owner.ctx, input: { recipientId: people.stranger.id } });
    expect(out.dialog.canWrite).toBe(true);
  });
});

describe("friendRequestsFrom = FRIENDS_OF_FRIENDS", () => {
  it("only someone with a mutual friend may ask; the others are told before (canRequestFriend) and refused after, with no notification", async () => {
    const { owner, people } = await cast();
    await put(owner, { friendRequestsFrom: "FRIENDS_OF_FRIENDS" });
    const requests = async () =>
      Number((await getDb().execute<{ n: string }>(sql`select count(*) as n from notifications where receiver_id = ${owner.id} and notification_type = 'FRIEND_REQUEST'`))[0].n);

    for (const who of ["fof", "stranger", "staff"] as const) {
      const allowed = who === "fof";
      const label = `${who} allowed=${allowed}`;
      expect((await viewAccount(people[who], owner.id)).body.canRequestFriend, label).toBe(allowed);
      const before = await requests();
      const res = await call(requestRoute, { method: "POST", token: people[who].accessToken, params: { id: String(owner.id) } });
      expect(res.status, label).toBe(allowed ? 200 : 403);
      if (!allowed) expect(res.body.error.message, label).toBe("Этот пользователь принимает заявки в друзья только от друзей своих друзей");
      expect(await requests(), label).toBe(before + (allowed ? 1 : 0));
    }
    // The friend already is one; the blocked one is refused by the block, as before.
    expect((await call(requestRoute, { method: "POST", token: people.blocked.accessToken, params: { id: String(owner.id) } })).status).toBe(403);

    // The owner asking a stranger first: the stranger's "yes" (a request back) is never refused.
    await call(requestRoute, { method: "POST", token: owner.accessToken, params: { id: String(people.stranger.id) } });
    const back = await call(requestRoute, { method: "POST", token: people.stranger.accessToken, params: { id: String(owner.id) } });
    expect(back.status).toBe(200);
    expect(back.body.statusCode).toBe("FRIEND");
  });

  it("recommendations of people with no friend in common leave out whoever takes requests from friends of friends only", async () => {
    const [lonely, picky] = await Promise.all([signedInAccount(), signedInAccount()]);
    await getDb().execute(sql`update accounts set last_online_time = now() + interval '1 hour' where id = ${picky.id}`);
    const recs = async () => (await call(recommendationsRoute, { token: lonely.accessToken, path: "/api/v1/friends/recommendations?size=20" })).body.content.map((r: { id: number }) => r.id);
    expect(await recs()).toContain(picky.id);
    await put(picky, { friendRequestsFrom: "FRIENDS_OF_FRIENDS" });
    expect(await recs()).not.toContain(picky.id);
  });
});

describe("searchable = false", () => {
  it("not in others' people search nor recommendations (friends still find them), whatever their role", async () => {
    const { owner, tag, people } = await cast();
    await put(owner, { searchable: false });
    const search = (who: Account) => call(searchRoute, { token: who.accessToken, path: `/api/v1/account/search?author=${encodeURIComponent(`Хозяин${tag}`)}` });
    for (const who of ["friend", "fof", "stranger", "staff", "blocked"] as const) {
      const found = (await search(people[who])).body.content.map((a: { id: number }) => a.id);
      expect(found.includes(owner.id), who).toBe(who === "friend");
    }
    // By a short prefix and by place too (other indexes, the same rule).
    const short = await call(searchRoute, { token: people.stranger.accessToken, path: `/api/v1/account/search?firstName=${encodeURIComponent("Пр")}&size=100` });
    expect(short.body.content.map((a: { id: number }) => a.id)).not.toContain(owner.id);
    const recs = await call(recommendationsRoute, { token: people.fof.accessToken, path: "/api/v1/friends/recommendations" });
    expect(recs.body.content.map((r: { id: number }) => r.id)).not.toContain(owner.id);

    await put(owner, { searchable: true });
    expect((await search(people.stranger)).body.content.map((a: { id: number }) => a.id)).toContain(owner.id);
    expect((await call(recommendationsRoute, { token: people.fof.accessToken, path: "/api/v1/friends/recommendations" })).body.content.map((r: { id: number }) => r.id)).toContain(owner.id);
  });
});
