import { beforeAll, describe, expect, it } from "vitest";
import { PUT as approveRoute } from "@/app/api/v1/friends/[id]/approve/route";
import { POST as requestRoute } from "@/app/api/v1/friends/[id]/request/route";
import { DELETE as removeRoute } from "@/app/api/v1/friends/[id]/route";
import { PUT as blockRoute } from "@/app/api/v1/friends/block/[id]/route";
import { POST as subscribeRoute } from "@/app/api/v1/friends/subscribe/[id]/route";
import { PUT as unblockRoute } from "@/app/api/v1/friends/unblock/[id]/route";
import { ctxOf, signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { eventsAfter, expectAllMirrored, friendshipRowCount, lastEventId, setAccount, setPair, sidesOf, VERBS, type Pair } from "./friends-support";

type Account = Awaited<ReturnType<typeof signedInAccount>>;
type Route = typeof requestRoute;

const ROUTES: Record<string, { route: Route; method: string }> = {
  request: { route: requestRoute, method: "POST" },
  approve: { route: approveRoute, method: "PUT" },
  subscribe: { route: subscribeRoute, method: "POST" },
  remove: { route: removeRoute, method: "DELETE" },
  block: { route: blockRoute, method: "PUT" },
  unblock: { route: unblockRoute, method: "PUT" },
};
type Verb = keyof typeof ROUTES;

function act(verb: Verb, actor: Pick<Account, "accessToken">, target: number | string, headers: Record<string, string> = {}) {
  const { route, method } = ROUTES[verb];
  return call(route, { method, token: actor.accessToken, params: { id: String(target) }, headers });
}

let a: Account;
let b: Account;

beforeAll(async () => {
  a = await signedInAccount({ firstName: "Anna", lastName: "Ivanova" });
  b = await signedInAccount({ firstName: "Boris", lastName: "Orlov" });
  await setAccount(a.id, { photo: "/storage/a.webp" });
});

/** Runs an accepted action from a stored start state and checks both sides, the answer and the one event. */
async function expectMove(verb: Verb, start: Pair, end: Pair, eventType: string) {
  await setPair(a.id, b.id, start);
  const since = await lastEventId();
  const res = await act(verb, a, b.id);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toEqual({
    id: end[0] === null ? null : expect.any(Number),
    friendId: b.id,
    statusCode: end[0],
    previousStatusCode: start[0],
  });
  expect(await sidesOf(a.id, b.id)).toEqual(end);
  const events = await eventsAfter(since);
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({ type: eventType, recipients: [b.id] });
  expect(events[0].data).toEqual({
    authorId: a.id,
    receiverId: b.id,
    author: { id: a.id, firstName: "Anna", lastName: "Ivanova", photo: "/storage/a.webp" },
    statusCode: end[1],
    previousStatusCode: start[1],
  });
  await expectAllMirrored();
}

/** Runs a refused action and checks the status, the message, and that nothing changed. */
async function expectRefusal(verb: Verb, start: Pair, status: number, message: string, headers: Record<string, string> = { "accept-language": "en" }) {
  await setPair(a.id, b.id, start);
  const since = await lastEventId();
  const res = await act(verb, a, b.id, headers);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.message).toBe(message);
  expect(res.body.requestId).toBeTruthy();
  expect(await sidesOf(a.id, b.id)).toEqual(start);
  expect(await eventsAfter(since)).toEqual([]);
}

describe("POST friends/{id}/request", () => {
  it("sends a request: REQUEST_TO for me, REQUEST_FROM for them, FRIEND_REQUEST to them", () =>
    expectMove("request", [null, null], ["REQUEST_TO", "REQUEST_FROM"], "FRIEND_REQUEST"));
  it("asking someone who asked me makes us friends (FRIEND_APPROVE)", () =>
    expectMove("request", ["REQUEST_FROM", "REQUEST_TO"], ["FRIEND", "FRIEND"], "FRIEND_APPROVE"));
  it("turns my subscription into a request", () =>
    expectMove("request", ["SUBSCRIBED", "WATCHING"], ["REQUEST_TO", "REQUEST_FROM"], "FRIEND_REQUEST"));
  it("turns their subscription into a request they can approve", () =>
    expectMove("request", ["WATCHING", "SUBSCRIBED"], ["REQUEST_TO", "REQUEST_FROM"], "FRIEND_REQUEST"));
  it("refuses a second request with the spec's reply", () =>
    expectRefusal("request", ["REQUEST_TO", "REQUEST_FROM"], 409, "request already sent!"));
  it("refuses when they blocked me with the spec's reply", () => expectRefusal("request", ["REJECTING", "BLOCKED"], 403, "Blocked!"));
  it("refuses when both blocked each other with the spec's reply", () => expectRefusal("request", ["BLOCKED", "BLOCKED"], 403, "Blocked!"));
  it("refuses when I blocked them", () => expectRefusal("request", ["BLOCKED", "REJECTING"], 409, "You have blocked this user!"));
  it("refuses between friends, in the request's language", async () => {
    await expectRefusal("request", ["FRIEND", "FRIEND"], 409, "You are already friends with this user!");
    await expectRefusal("request", ["FRIEND", "FRIEND"], 409, "Вы уже друзья с этим пользователем!", { "accept-language": "ru" });
  });
});

describe("PUT friends/{id}/approve", () => {
  it("accepts an incoming request", () => expectMove("approve", ["REQUEST_FROM", "REQUEST_TO"], ["FRIEND", "FRIEND"], "FRIEND_APPROVE"));
  it("404 without any relation", () => expectRefusal("approve", [null, null], 404, "There is no request from this user"));
  it("409 for my own outgoing request", () => expectRefusal("approve", ["REQUEST_TO", "REQUEST_FROM"], 409, "There is no request from this user"));
  it("409 between friends", () => expectRefusal("approve", ["FRIEND", "FRIEND"], 409, "You are already friends with this user!"));
  it("409 for a subscriber", () => expectRefusal("approve", ["WATCHING", "SUBSCRIBED"], 409, "There is no request from this user"));
  it("403 when blocked", () => expectRefusal("approve", ["REJECTING", "BLOCKED"], 403, "Blocked!"));
});

describe("POST friends/subscribe/{id}", () => {
  it("follows: SUBSCRIBED for me, WATCHING for them, FRIEND_SUBSCRIBE to them", () =>
    expectMove("subscribe", [null, null], ["SUBSCRIBED", "WATCHING"], "FRIEND_SUBSCRIBE"));
  it("409 when already subscribed", () => expectRefusal("subscribe", ["SUBSCRIBED", "WATCHING"], 409, "You are already subscribed to this user"));
  it("409 when they follow me (a request is the way)", () =>
    expectRefusal("subscribe", ["WATCHING", "SUBSCRIBED"], 409, "This user is subscribed to you — send them a friend request instead"));
  it("409 with a pending request either way", async () => {
    await expectRefusal("subscribe", ["REQUEST_TO", "REQUEST_FROM"], 409, "request already sent!");
    await expectRefusal("subscribe", ["REQUEST_FROM", "REQUEST_TO"], 409, "This user has already sent you a request — approve it");
  });
  it("409 between friends, 403 when blocked", async () => {
    await expectRefusal("subscribe", ["FRIEND", "FRIEND"], 409, "You are already friends with this user!");
    await expectRefusal("subscribe", ["REJECTING", "BLOCKED"], 403, "Blocked!");
  });
});

describe("DELETE friends/{id}", () => {
  for (const start of [
    ["FRIEND", "FRIEND"],
    ["REQUEST_TO", "REQUEST_FROM"],
    ["REQUEST_FROM", "REQUEST_TO"],
    ["SUBSCRIBED", "WATCHING"],
    ["WATCHING", "SUBSCRIBED"],
  ] as Pair[]) {
    it(`ends ${start[0]}: both rows go, FRIEND_REMOVED to them`, () => expectMove("remove", start, [null, null], "FRIEND_REMOVED"));
  }
  it("404 without a relation", () => expectRefusal("remove", [null, null], 404, "This user is not among your friends, requests or subscriptions"));
  it("409 for my block (unblock is the way)", () => expectRefusal("remove", ["BLOCKED", "REJECTING"], 409, "You have blocked this user — unblock them first"));
  it("403 for their block", () => expectRefusal("remove", ["REJECTING", "BLOCKED"], 403, "Blocked!"));
});

describe("PUT friends/block/{id} and friends/unblock/{id}", () => {
  for (const start of [
    [null, null],
    ["FRIEND", "FRIEND"],
    ["REQUEST_TO", "REQUEST_FROM"],
    ["REQUEST_FROM", "REQUEST_TO"],
    ["SUBSCRIBED", "WATCHING"],
    ["WATCHING", "SUBSCRIBED"],
  ] as Pair[]) {
    it(`block ends ${start[0] ?? "nothing"}: BLOCKED/REJECTING, FRIEND_BLOCKED to them`, () =>
      expectMove("block", start, ["BLOCKED", "REJECTING"], "FRIEND_BLOCKED"));
  }
  it("blocking back keeps both blocks", () => expectMove("block", ["REJECTING", "BLOCKED"], ["BLOCKED", "BLOCKED"], "FRIEND_BLOCKED"));
  it("409 when already blocked", () => expectRefusal("block", ["BLOCKED", "REJECTING"], 409, "This user is already blocked"));
  it("unblock removes both rows and restores nothing", () => expectMove("unblock", ["BLOCKED", "REJECTING"], [null, null], "FRIEND_UNBLOCKED"));
  it("unblock of a mutual block leaves their block", () => expectMove("unblock", ["BLOCKED", "BLOCKED"], ["REJECTING", "BLOCKED"], "FRIEND_UNBLOCKED"));
  it("409 when I did not block", async () => {
    await expectRefusal("unblock", [null, null], 409, "You have not blocked this user");
    await expectRefusal("unblock", ["REJECTING", "BLOCKED"], 409, "You have not blocked this user");
    await expectRefusal("unblock", ["FRIEND", "FRIEND"], 409, "You have not blocked this user");
  });

  it("a friendship ended by a block does not come back on unblock (full round through the API)", async () => {
    await setPair(a.id, b.id, [null, null]);
    expect((await act("request", a, b.id)).status).toBe(200);
    expect((await act("approve", b, a.id)).body.statusCode).toBe("FRIEND");
    expect((await act("block", b, a.id)).body).toMatchObject({ statusCode: "BLOCKED", previousStatusCode: "FRIEND" });
    expect(await sidesOf(a.id, b.id)).toEqual(["REJECTING", "BLOCKED"]);
    expect((await act("unblock", b, a.id)).body).toMatchObject({ statusCode: null, previousStatusCode: "BLOCKED" });
    expect(await sidesOf(a.id, b.id)).toEqual([null, null]);
  });
});

describe("bad input and guards: clean 4xx, nothing changed, no event", () => {
  const verbs = Object.keys(ROUTES) as Verb[];

  it("401 without a session", async () => {
    for (const verb of verbs) {
      const res = await call(ROUTES[verb].route, { method: ROUTES[verb].method, params: { id: String(b.id) } });
      expect(res.status).toBe(401);
    }
  });

  it("every service verb refuses a caller without a session", async () => {
    for (const verb of Object.values(VERBS)) {
      await expect(verb({ ctx: ctxOf(null), input: { id: b.id } })).rejects.toMatchObject({ code: "unauthorized" });
    }
  });

  it("422 for a non-numeric, zero, negative, hex, exponent or huge id", async () => {
    const rows = await friendshipRowCount();
    const since = await lastEventId();
    for (const verb of verbs) {
      for (const id of ["abc", "0", "-1", "0x10", "1e3", " 7", "12.5", "99999999999999999999", ""]) {
        const res = await act(verb, a, id, { "accept-language": "en" });
        expect(res.status, `${verb} ${id}`).toBe(422);
        expect(res.body.error.issues[0]).toEqual({ path: "id", message: "Invalid user id" });
      }
    }
    expect(await friendshipRowCount()).toBe(rows);
    expect(await eventsAfter(since)).toEqual([]);
  });

  it("404 for an unknown account and for a deleted one", async () => {
    const ghost = await signedInAccount();
    await setAccount(ghost.id, { isDeleted: true });
    const since = await lastEventId();
    const rows = await friendshipRowCount();
    for (const verb of verbs) {
      for (const id of [987654321, ghost.id]) {
        const res = await act(verb, a, id, { "accept-language": "en" });
        expect(res.status, `${verb} ${id}`).toBe(404);
        expect(res.body.error.message).toBe("User not found");
      }
    }
    expect(await friendshipRowCount()).toBe(rows);
    expect(await eventsAfter(since)).toEqual([]);
  });

  it("400 for acting on oneself", async () => {
    const since = await lastEventId();
    for (const verb of verbs) {
      const res = await act(verb, a, a.id, { "accept-language": "en" });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe("This action cannot be applied to your own page");
    }
    expect(await eventsAfter(since)).toEqual([]);
  });

  it("403 while the viewer's own page is deleted", async () => {
    const gone = await signedInAccount();
    await setAccount(gone.id, { isDeleted: true });
    const since = await lastEventId();
    for (const verb of verbs) {
      const res = await act(verb, gone, b.id, { "accept-language": "en" });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe("Your page is deleted — restore it to continue");
    }
    expect(await sidesOf(gone.id, b.id)).toEqual([null, null]);
    expect(await eventsAfter(since)).toEqual([]);
  });

  it("a third account's actions never touch another pair", async () => {
    const c = await signedInAccount();
    await setPair(a.id, b.id, ["FRIEND", "FRIEND"]);
    await act("block", c, a.id);
    await act("remove", c, b.id);
    await act("request", c, b.id);
    expect(await sidesOf(a.id, b.id)).toEqual(["FRIEND", "FRIEND"]);
    expect(await sidesOf(c.id, a.id)).toEqual(["BLOCKED", "REJECTING"]);
    expect(await sidesOf(c.id, b.id)).toEqual(["REQUEST_TO", "REQUEST_FROM"]);
    await expectAllMirrored();
  });

  it("refuses a cookie-authenticated action from another origin", async () => {
    await setPair(a.id, b.id, [null, null]);
    const res = await call(requestRoute, {
      method: "POST",
      cookie: `access_token=${a.accessToken}`,
      headers: { origin: "https://evil.example" },
      params: { id: String(b.id) },
    });
    expect(res.status).toBe(403);
    expect(await sidesOf(a.id, b.id)).toEqual([null, null]);
  });
});
