import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { appendEvent, latestEventId } from "@/lib/server/events/outbox";
import { createRealtimeServer, type RealtimeServer } from "@/realtime/server";
import { signedInAccount } from "./helpers/factories";
import { makeFriends } from "./friends-support";
import { newPost } from "./post-support";
import { commitEvent, positionsOf, TestSocket } from "./helpers/ws-client";

let server: RealtimeServer;
beforeAll(async () => {
  server = await createRealtimeServer({ port: 0 });
});
afterAll(async () => {
  await server.close();
});

describe("realtime resume", () => {
  it("delivers a shared fan-out event to each recipient with its own row, live and on resume", async () => {
    const author = await signedInAccount();
    const alice = await signedInAccount();
    const bob = await signedInAccount();
    await makeFriends(author.id, alice.id);
    await makeFriends(author.id, bob.id);
    const start = await latestEventId(getDb());
    const live = await TestSocket.open(server.port, { token: alice.accessToken });
    await newPost(author.ctx, { title: "Для всех" });
    let frame = await live.nextEvent();
    while (frame.type !== "NOTIFICATION") frame = await live.nextEvent();
    const rows = await getDb().execute<{ id: string; receiver_id: string }>(sql`
      select id, receiver_id from notifications where receiver_id in (${alice.id}, ${bob.id}) order by receiver_id`);
    const own = new Map(rows.map((r) => [Number(r.receiver_id), Number(r.id)]));
    expect(frame).toMatchObject({ type: "NOTIFICATION", data: { id: own.get(alice.id), data: { receiverId: alice.id, authorId: author.id } } });
    await live.close();

    const resumed = await TestSocket.open(server.port, { token: bob.accessToken, lastEventId: start });
    const replay = (await resumed.eventsThrough(resumed.ready.lastEventId!)).filter((f) => f.type === "NOTIFICATION");
    expect(replay).toHaveLength(1);
    expect(replay[0]).toMatchObject({ id: frame.id, data: { id: own.get(bob.id), data: { receiverId: bob.id } } });
    await resumed.close();
  });

  it("sends a reconnecting client exactly what it missed, in order, then live events", async () => {
    const alice = await signedInAccount();
    const bob = await signedInAccount();
    const first = await TestSocket.open(server.port, { token: alice.accessToken });
    const seen = await commitEvent([alice.id], { n: 1 });
    expect((await first.nextEvent()).id).toBe(seen);
    await first.close();

    const missed1 = await commitEvent([alice.id], { n: 2 }, "MESSAGE");
    await commitEvent([bob.id], { n: "bob's" });
    const missed2 = await commitEvent([alice.id, bob.id], { n: 3 });

    const again = await TestSocket.open(server.port, { token: alice.accessToken, lastEventId: seen });
    expect(again.ready.lastEventId).toBe(missed2);
    expect(await again.next()).toEqual({ id: missed1, type: "MESSAGE", data: { n: 2 } });
    expect(await again.next()).toEqual({ id: missed2, type: "NOTIFICATION", data: { n: 3 } });
    const live = await commitEvent([alice.id], { n: 4 });
    expect(await again.next()).toEqual({ id: live, type: "NOTIFICATION", data: { n: 4 } });
    await again.close();
  });

  it("replays on a RESUME message over an open socket, then continues live", async () => {
    const alice = await signedInAccount();
    const socket = await TestSocket.open(server.port, { token: alice.accessToken });
    const e1 = await commitEvent([alice.id]);
    const e2 = await commitEvent([alice.id]);
    expect((await socket.eventsThrough(e2)).map((f) => f.id)).toEqual([e1, e2]);

    socket.send({ type: "RESUME", lastEventId: e1 });
    expect(await socket.next()).toMatchObject({ id: e2 });
    expect(await socket.next()).toEqual({ type: "READY", lastEventId: e2 });
    const e3 = await commitEvent([alice.id]);
    expect((await socket.next()).id).toBe(e3);
    await socket.close();
  });

  it("hands over from the resume read to live delivery without gaps or duplicates", async () => {
    const alice = await signedInAccount();
    const start = await commitEvent([alice.id]);
    const missed: number[] = [];
    for (let i = 0; i < 20; i++) missed.push(await commitEvent([alice.id], { i }));

    // Events keep committing while the client reconnects and its resume read runs.
    const writer = (async () => {
      const ids: number[] = [];
      for (let i = 0; i < 40; i++) ids.push(await commitEvent([alice.id], { live: i }));
      return ids;
    })();
    const socket = await TestSocket.open(server.port, { token: alice.accessToken, lastEventId: start });
    const written = await writer;
    const marker = await commitEvent([alice.id], { marker: true });
    const received = (await socket.eventsThrough(marker)).map((f) => f.id);
    expect(received).toEqual([...missed, ...written, marker]);
    await socket.close();
  });

  it("reads a long backlog in pages", async () => {
    const alice = await signedInAccount();
    const before = await latestEventId(getDb());
    const ids = await positionsOf(await getDb().transaction(async (tx) => {
      const out: number[] = [];
      for (let i = 0; i < 1_234; i++) out.push(await appendEvent(tx, { type: "NOTIFICATION", recipients: [alice.id], data: { i } }));
      return out;
    }));
    const socket = await TestSocket.open(server.port, { token: alice.accessToken, lastEventId: before });
    expect(socket.ready.lastEventId).toBe(ids.at(-1));
    const received = (await socket.eventsThrough(ids.at(-1)!)).map((f) => f.id);
    expect(received).toEqual(ids);
    await socket.close();
  }, 60_000); // 1,234 inserts: slow on a busy two-core machine

  it("starts a client whose id is beyond the newest event afresh", async () => {
    const alice = await signedInAccount();
    const newest = await latestEventId(getDb());
    const socket = await TestSocket.open(server.port, { token: alice.accessToken, lastEventId: newest + 1_000_000 });
    expect(socket.ready.lastEventId).toBe(newest);
    const live = await commitEvent([alice.id]);
    expect((await socket.nextEvent()).id).toBe(live);
    await socket.close();
  });

  it("keeps delivering after the LISTEN connection is cut", async () => {
    const alice = await signedInAccount();
    const socket = await TestSocket.open(server.port, { token: alice.accessToken });
    const cut = await getDb().execute<{ pid: number }>(sql`
      select pg_terminate_backend(pid) as pid from pg_stat_activity
      where datname = current_database() and query ilike 'listen%' and pid <> pg_backend_pid()`);
    expect(cut.length).toBeGreaterThan(0);
    // Committed while the listener may be down: its NOTIFY can be lost, the drain on re-LISTEN is not.
    const id = await commitEvent([alice.id]);
    expect((await socket.nextEvent()).id).toBe(id);
    const next = await commitEvent([alice.id]);
    expect((await socket.nextEvent()).id).toBe(next);
    await socket.close();
  });
});
