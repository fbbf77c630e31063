import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { signAccessToken } from "@/lib/server/auth/tokens";
import { env } from "@/lib/server/env";
import { appendEvent } from "@/lib/server/events/outbox";
import { logout } from "@/lib/server/services/auth/logout";
import { createRealtimeServer, type RealtimeServer } from "@/realtime/server";
import { signedInAccount } from "./helpers/factories";
import { commitEvent, refusedStatus, TestSocket } from "./helpers/ws-client";

let server: RealtimeServer;
beforeAll(async () => {
  server = await createRealtimeServer({ port: 0 });
});
afterAll(async () => {
  await server.close();
});

describe("realtime delivery", () => {
  it("delivers an event to every socket of its recipient and to nobody else", async () => {
    const alice = await signedInAccount();
    const bob = await signedInAccount();
    const tab1 = await TestSocket.open(server.port, { token: alice.accessToken });
    const tab2 = await TestSocket.open(server.port, { cookie: `access_token=${encodeURIComponent(alice.accessToken)}` });
    const bobs = await TestSocket.open(server.port, { token: bob.accessToken });

    const id = await commitEvent([alice.id], { dialogId: 7, text: "привет" }, "MESSAGE");
    const expected = { id, type: "MESSAGE", data: { dialogId: 7, text: "привет" } };
    expect(await tab1.nextEvent()).toEqual(expected);
    expect(await tab2.nextEvent()).toEqual(expected);

    // Bob's first frame is his own later event: Alice's never reached him.
    const bobsOwn = await commitEvent([bob.id], { receiverId: bob.id });
    expect(await bobs.nextEvent()).toEqual({ id: bobsOwn, type: "NOTIFICATION", data: { receiverId: bob.id } });
    await Promise.all([tab1.close(), tab2.close(), bobs.close()]);
  });

  it("delivers an event with several recipients to each of them once", async () => {
    const alice = await signedInAccount();
    const bob = await signedInAccount();
    const a = await TestSocket.open(server.port, { token: alice.accessToken });
    const b = await TestSocket.open(server.port, { token: bob.accessToken });
    const id = await commitEvent([alice.id, bob.id, alice.id], { fromId: alice.id }, "FRIEND_REQUEST");
    const marker = await commitEvent([alice.id, bob.id]);
    expect((await a.eventsThrough(marker)).map((f) => f.id)).toEqual([id, marker]);
    expect((await b.eventsThrough(marker)).map((f) => f.id)).toEqual([id, marker]);
    await Promise.all([a.close(), b.close()]);
  });

  it("never delivers an event of a rolled-back transaction", async () => {
    const alice = await signedInAccount();
    const socket = await TestSocket.open(server.port, { token: alice.accessToken });
    await expect(
      getDb().transaction(async (tx) => {
        await appendEvent(tx, { type: "MESSAGE", recipients: [alice.id], data: { text: "never" } });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    const committed = await commitEvent([alice.id], { text: "after" }, "MESSAGE");
    expect(await socket.nextEvent()).toEqual({ id: committed, type: "MESSAGE", data: { text: "after" } });

    // A reconnect from before both does not bring the rolled-back one back either.
    await socket.close();
    const again = await TestSocket.open(server.port, { token: alice.accessToken, lastEventId: committed - 2 });
    expect(await again.nextEvent()).toEqual({ id: committed, type: "MESSAGE", data: { text: "after" } });
    await again.close();
  });

  it("sends a socket without lastEventId only what happens after it connected", async () => {
    const alice = await signedInAccount();
    const before = await commitEvent([alice.id]);
    const socket = await TestSocket.open(server.port, { token: alice.accessToken });
    expect(socket.ready.lastEventId).toBeGreaterThanOrEqual(before);
    const after = await commitEvent([alice.id]);
    expect((await socket.nextEvent()).id).toBe(after);
    await socket.close();
  });
});

describe("realtime authentication at upgrade", () => {
  it("refuses a missing, garbage, foreign-signed or expired token with 401", async () => {
    const alice = await signedInAccount();
    const sessionId = alice.viewer.sessionId;
    const expired = await signAccessToken({ accountId: alice.id, sessionId }, env().AUTH_SECRET, -10);
    const foreign = await signAccessToken({ accountId: alice.id, sessionId }, "another-secret-another-secret-another-secret");
    expect(await refusedStatus(server.port, {})).toBe(401);
    expect(await refusedStatus(server.port, { token: "garbage" })).toBe(401);
    expect(await refusedStatus(server.port, { cookie: "access_token=garbage" })).toBe(401);
    expect(await refusedStatus(server.port, { token: foreign })).toBe(401);
    expect(await refusedStatus(server.port, { token: expired })).toBe(401);
  });

  it("refuses the token of a session that logged out with 401", async () => {
    const alice = await signedInAccount();
    const socket = await TestSocket.open(server.port, { token: alice.accessToken });
    await socket.close();
    await logout({ ctx: alice.ctx });
    expect(await refusedStatus(server.port, { token: alice.accessToken })).toBe(401);
  });

  it("answers 404 off the socket path and 400 for a malformed lastEventId", async () => {
    const alice = await signedInAccount();
    expect(await refusedStatus(server.port, { token: alice.accessToken, path: "/api/v1/other" })).toBe(404);
    for (const bad of ["abc", "-1", "1.5", "99999999999999999999"]) {
      expect(await refusedStatus(server.port, { token: alice.accessToken, lastEventId: bad })).toBe(400);
    }
    const res = await fetch(`http://127.0.0.1:${server.port}/anything`);
    expect(res.status).toBe(404);
  });

  it("refuses a cookie upgrade from a foreign page, but not a bearer client", async () => {
    const alice = await signedInAccount();
    const cookie = `access_token=${encodeURIComponent(alice.accessToken)}`;
    expect(await refusedStatus(server.port, { cookie, headers: { origin: "https://evil.example" } })).toBe(403);
    const proxied = await TestSocket.open(server.port, {
      cookie,
      headers: { origin: "http://krug.example", "x-forwarded-host": "krug.example" },
    });
    const bearer = await TestSocket.open(server.port, { token: alice.accessToken, headers: { origin: "https://evil.example" } });
    await Promise.all([proxied.close(), bearer.close()]);
  });
});

describe("realtime client frames", () => {
  it("ignores malformed text frames and closes on binary or oversized ones, and keeps serving", async () => {
    const alice = await signedInAccount();
    const socket = await TestSocket.open(server.port, { token: alice.accessToken });
    socket.send("{not json");
    socket.send({ type: "RESUME", lastEventId: "nope" });
    socket.send({ type: "SOMETHING" });
    socket.send("null");
    const id = await commitEvent([alice.id]);
    expect((await socket.nextEvent()).id).toBe(id);

    socket.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect((await socket.closed).code).toBe(1003);

    const big = await TestSocket.open(server.port, { token: alice.accessToken });
    big.send("x".repeat(40_000));
    expect((await big.closed).code).toBe(1009);

    const healthy = await TestSocket.open(server.port, { token: alice.accessToken });
    const next = await commitEvent([alice.id]);
    expect((await healthy.nextEvent()).id).toBe(next);
    await healthy.close();
  });

  it("closes every socket with 1001 when the server closes", async () => {
    const own = await createRealtimeServer({ port: 0 });
    const alice = await signedInAccount();
    const a = await TestSocket.open(own.port, { token: alice.accessToken });
    const b = await TestSocket.open(own.port, { token: alice.accessToken });
    await own.close();
    expect((await a.closed).code).toBe(1001);
    expect((await b.closed).code).toBe(1001);
    expect(own.stats().sockets).toBe(0);
  });
});
