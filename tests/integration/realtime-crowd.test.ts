import http from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocket } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/server/env";
import { createAppServer } from "@/lib/server/http/app-server";
import { processMetrics } from "@/lib/server/metrics/registry";
import { REALTIME_PATH } from "@/lib/validation/realtime";
import type { Logger } from "@/realtime/hub";
import { createRealtimeServer, type RealtimeServer } from "@/realtime/server";
import { signedInAccount } from "./helpers/factories";
import { commitEvent, refusedStatus } from "./helpers/ws-client";

// The soak's crowd (docs/adr/0145): 200 simulated people opened their sockets through the app server from
// one address, 127.0.0.1, and the sidecar's cap of 100 sockets per address refused every one past the
// hundredth; a person whose socket closed (a sign-in) lost their place to another and never got one back,
// so 670 acknowledged messages never reached their recipients. Here: the same crowd through the same
// proxy, on one address (refused at once, counted and logged) and on an address each (every socket READY,
// every event delivered once while sockets are re-opened under it).

const CROWD = 120; // above the default cap of 100 sockets per address
const warnings: string[] = [];
const log: Logger = { debug: () => {}, info: () => {}, warn: (_obj, msg) => void warnings.push(msg ?? ""), error: () => {} };

let sidecar: RealtimeServer;
const appServers: http.Server[] = [];
let people: { id: number; token: string; address: string }[];

beforeAll(async () => {
  sidecar = await createRealtimeServer({ port: 0, log });
  people = [];
  for (let i = 0; i < CROWD; i += 20) {
    const batch = await Promise.all(Array.from({ length: Math.min(20, CROWD - i) }, () => signedInAccount()));
    people.push(...batch.map((a, k) => ({ id: a.id, token: a.accessToken, address: `198.18.${(i + k) >> 8}.${(i + k) & 255}` })));
  }
}, 120_000);
afterAll(async () => {
  await Promise.all(appServers.map((s) => new Promise((r) => s.close(r))));
  await sidecar.close();
});

/** The app server `npm start` runs, in front of the sidecar: its upgrade proxy, with TRUST_PROXY hops. */
async function appServer(trustedHops: number): Promise<number> {
  const server = createAppServer({ trustedHops, realtimePort: sidecar.port, handle: (_req, res) => res.writeHead(404).end() });
  appServers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return (server.address() as AddressInfo).port;
}

type Live = { ws: WebSocket; ready: Promise<number> };

/** Opens a socket and records every event frame into `got`; `ready` settles with READY's id, or fails on a close before it. */
function open(port: number, token: string, headers: Record<string, string>, lastEventId: number | undefined, got: Map<number, number>, onId: (id: number) => void): Live {
  const q = `?frames=all${lastEventId === undefined ? "" : `&lastEventId=${lastEventId}`}`;
  const ws = new WebSocket(`ws://127.0.0.1:${port}${REALTIME_PATH}${q}`, { headers: { authorization: `Bearer ${token}`, ...headers } });
  const ready = new Promise<number>((resolve, reject) => {
    ws.on("message", (raw) => {
      const f = JSON.parse(String(raw)) as { id?: number; type: string; lastEventId?: number };
      if (f.type === "READY") {
        onId(f.lastEventId!);
        resolve(f.lastEventId!);
      } else if (typeof f.id === "number") {
        got.set(f.id, (got.get(f.id) ?? 0) + 1);
        onId(f.id);
      }
    });
    ws.on("error", () => {});
    ws.on("close", (code) => reject(new Error(`closed with ${code} before READY`)));
  });
  ready.catch(() => {});
  return { ws, ready };
}

async function refusedCount(): Promise<number> {
  const metric = await processMetrics("realtime").refusedUpgrades.get();
  return metric.values.find((v) => v.labels.status === "429" && v.labels.reason === "address_cap")?.value ?? 0;
}

describe("a crowd of sockets through the app server", () => {
  it("takes its cap per address from REALTIME_MAX_SOCKETS_PER_ADDRESS (100 unset; at least 1)", () => {
    const base = { NODE_ENV: "test", AUTH_SECRET: "x".repeat(32), PUBLIC_URL: "http://localhost:3000" } as const;
    expect(parseEnv(base).REALTIME_MAX_SOCKETS_PER_ADDRESS).toBe(100);
    expect(parseEnv({ ...base, REALTIME_MAX_SOCKETS_PER_ADDRESS: "500" }).REALTIME_MAX_SOCKETS_PER_ADDRESS).toBe(500);
    expect(() => parseEnv({ ...base, REALTIME_MAX_SOCKETS_PER_ADDRESS: "0" })).toThrow(/REALTIME_MAX_SOCKETS_PER_ADDRESS/);
  });

  it("on one address: past the cap of 100 each upgrade is refused at once with 429, counted, and logged once", async () => {
    const port = await appServer(0); // TRUST_PROXY off: every one of them is 127.0.0.1
    const before = await refusedCount();
    const first = people.slice(0, 100).map((p) => open(port, p.token, {}, undefined, new Map(), () => {}));
    await Promise.all(first.map((s) => s.ready));
    const rest = await Promise.all(people.slice(100).map((p) => refusedStatus(port, { token: p.token })));
    expect(rest).toEqual(rest.map(() => 429));
    expect((await refusedCount()) - before).toBe(CROWD - 100);
    expect(warnings.filter((w) => w.includes("100 sockets already open from 127.0.0.1") && w.includes("TRUST_PROXY"))).toHaveLength(1);
    // A place freed is a place taken: the next one in gets it.
    first[0].ws.close();
    await expect.poll(async () => {
      const again = open(port, people[100].token, {}, undefined, new Map(), () => {});
      const ok = await again.ready.then(() => true, () => false);
      if (ok) first.push(again);
      return ok;
    }).toBe(true);
    for (const s of first) s.ws.close();
    await expect.poll(() => sidecar.stats().sockets).toBe(0);
  }, 60_000);

  it("on an address each: every socket is READY and every event arrives once while a sixth of them are re-opened each round", async () => {
    const port = await appServer(1); // TRUST_PROXY=1: the entry the proxy appended is the client
    const got = new Map(people.map((p) => [p.id, new Map<number, number>()]));
    const last = new Map<number, number>();
    const sockets = new Map<number, Live>();
    const connect = (p: (typeof people)[number]) => {
      const live = open(port, p.token, { "x-forwarded-for": p.address }, last.get(p.id), got.get(p.id)!, (id) => last.set(p.id, Math.max(last.get(p.id) ?? 0, id)));
      sockets.set(p.id, live);
      return live.ready;
    };
    // All at once, as the soak's people start.
    await Promise.all(people.map(connect));
    const expected = new Map(people.map((p) => [p.id, [] as number[]]));
    for (let round = 0; round < 8; round++) {
      const reopened = people.filter(() => Math.random() < 1 / 6);
      const commits = Array.from({ length: 40 }, async () => {
        const to = people[Math.floor(Math.random() * people.length)];
        const id = await commitEvent([to.id], { round });
        expected.get(to.id)!.push(id);
      });
      // A sign-in in the soak: the old socket closes, a new one resumes from the last id seen, while events flow.
      const reopens = reopened.map(async (p) => {
        const old = sockets.get(p.id)!;
        const closed = new Promise((r) => old.ws.once("close", r));
        old.ws.close();
        await closed;
        await connect(p);
      });
      await Promise.all([...commits, ...reopens]);
    }
    await Promise.all([...sockets.values()].map((s) => s.ready));
    const missing = () => people.reduce((n, p) => n + expected.get(p.id)!.filter((id) => !got.get(p.id)!.has(id)).length, 0);
    await expect.poll(missing, { timeout: 20_000 }).toBe(0);
    for (const p of people) {
      const mine = got.get(p.id)!;
      expect([...mine.keys()].sort((a, b) => a - b), `account ${p.id}`).toEqual([...expected.get(p.id)!].sort((a, b) => a - b));
      expect([...mine.values()].every((n) => n === 1), `account ${p.id}: an event twice`).toBe(true);
    }
    expect(sidecar.stats().sockets).toBe(CROWD);
    for (const s of sockets.values()) s.ws.close();
  }, 120_000);
});
