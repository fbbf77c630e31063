import { afterAll, describe, expect, it } from "vitest";
import { createDb, createSql, databaseUrl } from "@/db/client";
import { createRealtimeServer, type RealtimeServer } from "@/realtime/server";
import { signedInAccount } from "./helpers/factories";
import { commitEvent, TestSocket } from "./helpers/ws-client";

// A rolling restart of several instances (docs/adr/0149): the sidecar of the instance being restarted
// closes its sockets, and the load balancer may send the client's reconnect to another instance. Its
// resume must find there everything that happened meanwhile: the outbox is the shared database's.

const servers: RealtimeServer[] = [];
const pools: { end: () => Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close().catch(() => {})));
  await Promise.all(pools.map((p) => p.end()));
});

/** A sidecar with its own pool and LISTEN connection, as another instance's process has. */
async function instance(): Promise<RealtimeServer> {
  const sql = createSql(databaseUrl());
  pools.push(sql);
  const server = await createRealtimeServer({ port: 0, sql, db: createDb(sql) });
  servers.push(server);
  return server;
}

describe("a rolling restart across instances", () => {
  it("a socket closed by its instance's restart resumes on another instance: nothing lost, nothing twice, then live", async () => {
    const restarted = await instance();
    const other = await instance();
    const alice = await signedInAccount();
    const bob = await signedInAccount();
    const socket = await TestSocket.open(restarted.port, { token: alice.accessToken });
    const seen = await commitEvent([alice.id], { n: 1 }, "MESSAGE");
    expect((await socket.nextEvent()).id).toBe(seen);

    // The instance's sidecar stops (SIGTERM of the roll): 1001, the client's last id is `seen`.
    await restarted.close();
    expect((await socket.closed).code).toBe(1001);
    const missed = [
      await commitEvent([alice.id], { n: 2 }, "MESSAGE"),
      await commitEvent([bob.id], { n: "bob's" }, "MESSAGE"),
      await commitEvent([alice.id, bob.id], { n: 3 }),
    ];

    const resumed = await TestSocket.open(other.port, { token: alice.accessToken, lastEventId: seen });
    expect(resumed.ready.lastEventId).toBe(missed[2]);
    expect(await resumed.next()).toEqual({ id: missed[0], type: "MESSAGE", data: { n: 2 } });
    expect(await resumed.next()).toEqual({ id: missed[2], type: "NOTIFICATION", data: { n: 3 } });
    const live = await commitEvent([alice.id], { n: 4 }, "MESSAGE");
    expect(await resumed.next()).toEqual({ id: live, type: "MESSAGE", data: { n: 4 } });
    await resumed.close();
  });
});
