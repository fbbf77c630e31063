import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { appendEvent } from "@/lib/server/events/outbox";
import { MAX_RESUME_BUFFER } from "@/realtime/hub";
import { createRealtimeServer, type RealtimeServer } from "@/realtime/server";
import { liveSessionIds } from "@/realtime/session-check";
import { signedInAccount } from "./helpers/factories";
import { commitEvent, positionsOf, refusedStatus, TestSocket } from "./helpers/ws-client";

// Issue 7, item 9: caps on sockets per account and per address, one RESUME at a time, a bounded buffer.
let server: RealtimeServer;
beforeAll(async () => {
  server = await createRealtimeServer({ port: 0, maxSocketsPerAccount: 3, maxSocketsPerAddress: 5 });
});
afterAll(async () => {
  await server.close();
});

const from = (address: string) => ({ "x-krug-client-address": address });

describe("realtime caps", () => {
  it("refuses a socket beyond the per-account cap with 429 and takes one again after a close", async () => {
    const alice = await signedInAccount();
    const open = [];
    for (let i = 0; i < 3; i++) open.push(await TestSocket.open(server.port, { token: alice.accessToken, headers: from(`198.51.100.${i + 1}`) }));
    expect(await refusedStatus(server.port, { token: alice.accessToken, headers: from("198.51.100.9") })).toBe(429);
    // Another account is not affected.
    const bob = await signedInAccount();
    const bobSocket = await TestSocket.open(server.port, { token: bob.accessToken, headers: from("198.51.100.10") });
    await open.pop()!.close();
    await expect.poll(async () => {
      try {
        const again = await TestSocket.open(server.port, { token: alice.accessToken, headers: from("198.51.100.11") });
        open.push(again);
        return true;
      } catch {
        return false;
      }
    }).toBe(true);
    for (const s of [...open, bobSocket]) await s.close();
  });

  it("refuses sockets beyond the per-address cap, counting refused and unauthenticated attempts out", async () => {
    const address = "203.0.113.77";
    const accounts = await Promise.all(Array.from({ length: 6 }, () => signedInAccount()));
    // Refused upgrades (no token) do not use up the address's allowance.
    for (let i = 0; i < 4; i++) expect(await refusedStatus(server.port, { headers: from(address) })).toBe(401);
    const open = [];
    for (let i = 0; i < 5; i++) open.push(await TestSocket.open(server.port, { token: accounts[i].accessToken, headers: from(address) }));
    expect(await refusedStatus(server.port, { token: accounts[5].accessToken, headers: from(address) })).toBe(429);
    // Another address still connects.
    const other = await TestSocket.open(server.port, { token: accounts[5].accessToken, headers: from("203.0.113.78") });
    for (const s of [...open, other]) await s.close();
  });

  it("runs one RESUME at a time: repeats while one runs are ignored, and one READY follows", async () => {
    const alice = await signedInAccount();
    const socket = await TestSocket.open(server.port, { token: alice.accessToken });
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await commitEvent([alice.id], { i }));
    await socket.eventsThrough(ids[4]);
    for (let i = 0; i < 10; i++) socket.send({ type: "RESUME", lastEventId: ids[0] });
    const frames = [];
    for (;;) {
      const f = await socket.next();
      frames.push(f);
      if (f.type === "READY") break;
    }
    expect(frames.map((f) => f.id ?? f.type)).toEqual([ids[1], ids[2], ids[3], ids[4], "READY"]);
    // Nothing else queued: the next frame is the next live event, not a second replay.
    const live = await commitEvent([alice.id]);
    expect((await socket.next()).id).toBe(live);
    await socket.close();
  });

  it("a resume overlapping a burst larger than its buffer delivers every event once, in order", async () => {
    const alice = await signedInAccount();
    const socket = await TestSocket.open(server.port, { token: alice.accessToken });
    const start = await commitEvent([alice.id]);
    await socket.eventsThrough(start);
    const burst = MAX_RESUME_BUFFER + 300;
    // The resume starts from `start` while the burst commits and is dispatched live.
    socket.send({ type: "RESUME", lastEventId: start });
    const ids = await positionsOf(await getDb().transaction(async (tx) => {
      const out: number[] = [];
      for (let i = 0; i < burst; i++) out.push(await appendEvent(tx, { type: "NOTIFICATION", recipients: [alice.id], data: { i } }));
      return out;
    }));
    const received = (await socket.eventsThrough(ids.at(-1)!)).map((f) => f.id);
    expect(received).toEqual(ids);
    await socket.close();
  }, 60_000);

  it("checks sessions with one array parameter, past 65,535 ids", async () => {
    const alice = await signedInAccount();
    const ids = Array.from({ length: 70_000 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
    ids.push(alice.viewer.sessionId);
    const live = await liveSessionIds(getDb(), ids);
    expect([...live]).toEqual([alice.viewer.sessionId]);
    await getDb().execute(sql`update sessions set revoked_at = now() where id = ${alice.viewer.sessionId}`);
    expect((await liveSessionIds(getDb(), ids)).size).toBe(0);
  });
});
