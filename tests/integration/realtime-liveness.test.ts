import { randomBytes } from "node:crypto";
import net from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createDb, createSql, databaseUrl, getDb } from "@/db/client";
import { accounts } from "@/db/schema";
import { logout } from "@/lib/server/services/auth/logout";
import { isOnline } from "@/lib/server/services/accounts/presence";
import { CLOSE_SESSION_ENDED, REALTIME_PATH } from "@/lib/validation/realtime";
import { createRealtimeServer, type RealtimeServer } from "@/realtime/server";
import { signedInAccount } from "./helpers/factories";
import { commitEvent, TestSocket } from "./helpers/ws-client";

const servers: RealtimeServer[] = [];
const pools: { end: () => Promise<void> }[] = [];
async function start(options: Partial<Parameters<typeof createRealtimeServer>[0]> = {}) {
  const server = await createRealtimeServer({ port: 0, ...options });
  servers.push(server);
  return server;
}
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await Promise.all(pools.map((p) => p.end()));
});

/** Completes the WebSocket handshake by hand, then never reads again: it can't answer a ping. */
function deadClient(port: number, token: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(
        `GET ${REALTIME_PATH} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n` +
          `Authorization: Bearer ${token}\r\n\r\n`,
      );
    });
    socket.once("data", (chunk) => {
      if (!chunk.toString().startsWith("HTTP/1.1 101")) return reject(new Error(chunk.toString()));
      socket.pause();
      resolve(socket);
    });
    socket.once("error", reject);
  });
}

async function lastOnline(accountId: number): Promise<Date | null> {
  const [row] = await getDb().select({ t: accounts.lastOnlineTime }).from(accounts).where(eq(accounts.id, accountId));
  return row.t;
}

describe("realtime liveness", () => {
  it("drops a socket that stops answering pings and keeps one that answers", async () => {
    const server = await start({ pingIntervalMs: 100 });
    const alice = await signedInAccount();
    const healthy = await TestSocket.open(server.port, { token: alice.accessToken });
    const dead = await deadClient(server.port, alice.accessToken);
    await vi.waitFor(() => expect(server.stats().sockets).toBe(2));
    const deadClosed = new Promise((resolve) => dead.once("close", resolve));
    dead.resume(); // let the close reach us; it still never answers a ping

    let pings = 0;
    const threePings = new Promise<void>((resolve) => healthy.ws.on("ping", () => ++pings === 3 && resolve()));
    await Promise.all([deadClosed, threePings]);
    await vi.waitFor(() => expect(server.stats().sockets).toBe(1));
    const id = await commitEvent([alice.id]);
    expect((await healthy.nextEvent()).id).toBe(id);
    await healthy.close();
  });

  it("closes a socket whose session ended since the upgrade with 4001", async () => {
    const server = await start({ sessionCheckIntervalMs: 50 });
    const alice = await signedInAccount();
    const other = await signedInAccount();
    const socket = await TestSocket.open(server.port, { token: alice.accessToken });
    const stays = await TestSocket.open(server.port, { token: other.accessToken });
    await logout({ ctx: alice.ctx });
    expect((await socket.closed).code).toBe(CLOSE_SESSION_ENDED);
    const id = await commitEvent([other.id]);
    expect((await stays.nextEvent()).id).toBe(id);
    await stays.close();
  });
});

describe("realtime across sidecars", () => {
  it("lets two sidecars on one database each deliver to their own sockets", async () => {
    const first = await start();
    // The second instance has its own pool and LISTEN connection, as a second process would.
    const sql = createSql(databaseUrl());
    pools.push(sql);
    const second = await start({ sql, db: createDb(sql) });
    const alice = await signedInAccount();
    const bob = await signedInAccount();
    const aliceOnFirst = await TestSocket.open(first.port, { token: alice.accessToken });
    const aliceOnSecond = await TestSocket.open(second.port, { token: alice.accessToken });
    const bobOnSecond = await TestSocket.open(second.port, { token: bob.accessToken });

    const both = await commitEvent([alice.id, bob.id], { to: "both" });
    const onlyBob = await commitEvent([bob.id], { to: "bob" });
    const onlyAlice = await commitEvent([alice.id], { to: "alice" });
    expect((await aliceOnFirst.eventsThrough(onlyAlice)).map((f) => f.id)).toEqual([both, onlyAlice]);
    expect((await aliceOnSecond.eventsThrough(onlyAlice)).map((f) => f.id)).toEqual([both, onlyAlice]);
    expect((await bobOnSecond.eventsThrough(onlyBob)).map((f) => f.id)).toEqual([both, onlyBob]);
    expect(first.stats()).toMatchObject({ sockets: 1, accounts: 1 });
    expect(second.stats()).toMatchObject({ sockets: 2, accounts: 2 });

    // One sidecar going away leaves the other delivering.
    await first.close();
    expect((await aliceOnFirst.closed).code).toBe(1001);
    const later = await commitEvent([alice.id]);
    expect((await aliceOnSecond.nextEvent()).id).toBe(later);
    await Promise.all([aliceOnSecond.close(), bobOnSecond.close()]);
  });
});

describe("realtime presence", () => {
  const forget = (id: number) => getDb().update(accounts).set({ lastOnlineTime: null }).where(eq(accounts.id, id));

  it("sets last_online_time on connect and once more when the last socket closes", async () => {
    const server = await start();
    const alice = await signedInAccount();
    // Login marks the account seen too; start from "never seen" to see the socket's own updates.
    await forget(alice.id);
    const tab1 = await TestSocket.open(server.port, { token: alice.accessToken });
    await vi.waitFor(async () => expect(await lastOnline(alice.id)).not.toBeNull());
    expect(isOnline(await lastOnline(alice.id))).toBe(true);

    const tab2 = await TestSocket.open(server.port, { token: alice.accessToken });
    await forget(alice.id);
    await tab1.close();
    await tab2.close();
    await vi.waitFor(async () => expect(await lastOnline(alice.id)).not.toBeNull());
    expect(server.stats().accounts).toBe(0);
  });

  it("two sidecars serving one account: closing its socket on one leaves it online through the other", async () => {
    const [one, two] = await Promise.all([start({ presenceIntervalMs: 200 }), start({ presenceIntervalMs: 200 })]);
    const alice = await signedInAccount();
    await forget(alice.id);
    const onOne = await TestSocket.open(one.port, { token: alice.accessToken });
    const onTwo = await TestSocket.open(two.port, { token: alice.accessToken });
    await vi.waitFor(async () => expect(await lastOnline(alice.id)).not.toBeNull());
    // The first sidecar's last socket of alice closes: it writes "seen now" and stops touching her…
    await onOne.close();
    await vi.waitFor(() => expect(one.stats().accounts).toBe(0));
    const closedAt = (await lastOnline(alice.id))!;
    // …while the second keeps her presence fresh: nothing either sidecar keeps decides "online".
    await vi.waitFor(async () => expect((await lastOnline(alice.id))!.getTime()).toBeGreaterThan(closedAt.getTime() + 300));
    expect(isOnline(await lastOnline(alice.id))).toBe(true);
    await onTwo.close();
    await vi.waitFor(() => expect(two.stats().accounts).toBe(0));
    // With no socket anywhere, nobody touches her any more: the last-seen time stays where the close put it.
    await new Promise((r) => setTimeout(r, 300));
    const gone = (await lastOnline(alice.id))!;
    await new Promise((r) => setTimeout(r, 600));
    expect((await lastOnline(alice.id))!.getTime()).toBe(gone.getTime());
  });

  it("refreshes last_online_time while the account stays connected", async () => {
    const server = await start({ presenceIntervalMs: 200 });
    const alice = await signedInAccount();
    await forget(alice.id);
    const socket = await TestSocket.open(server.port, { token: alice.accessToken });
    await vi.waitFor(async () => expect(await lastOnline(alice.id)).not.toBeNull());
    const first = (await lastOnline(alice.id))!;
    await vi.waitFor(async () => expect((await lastOnline(alice.id))!.getTime()).toBeGreaterThan(first.getTime()));
    await socket.close();
  });
});
