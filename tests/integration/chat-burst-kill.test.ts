import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { freePort } from "@/db/embedded";
import { createDialog } from "@/lib/server/services/dialogs/dialogs";
import { sendMessage } from "@/lib/server/services/dialogs/messages";
import { REALTIME_PATH } from "@/lib/validation/realtime";
import { Supervisor } from "@/scripts/supervisor";
import { signedInAccount } from "./helpers/factories";

// The supervision proof of issue 11: kill -9 the sidecar (run by the same Supervisor as `npm start`)
// in the middle of a burst of messages between two people; the sidecar comes back and the recipient's
// client, resuming with its last event id, ends with every message exactly once.
// CI runs a small burst; CHAT_BURST=1000 runs the full one.
const BURST = Number(process.env.CHAT_BURST ?? 150);
const COMMAND = ["--conditions=react-server", "--import", "tsx", "realtime/main.ts"];

const logs: string[] = [];
const gaveUp: string[] = [];
const supervisor = new Supervisor(
  (line) => logs.push(line),
  (name) => gaveUp.push(name),
  { initialDelayMs: 100 },
);
afterAll(() => supervisor.stopAll(5_000));

/**
 * A client as the browser's: one socket at a time, reconnecting after any drop with the last event id
 * it saw (the READY frame's id counts too). Counts every MESSAGE it receives per message id.
 */
function resilientClient(port: number, token: string) {
  const seen = new Map<number, number>();
  const order: number[] = [];
  let lastEventId: number | undefined;
  let connections = 0;
  let stopped = false;
  let ws: WebSocket | undefined;
  let waiter: { n: number; resolve: () => void } | undefined;

  const connect = () => {
    if (stopped) return;
    const url = new URL(`ws://127.0.0.1:${port}${REALTIME_PATH}?frames=all`);
    if (lastEventId !== undefined) url.searchParams.set("lastEventId", String(lastEventId));
    ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
    ws.on("open", () => (connections += 1));
    ws.on("message", (raw) => {
      const f = JSON.parse(raw.toString()) as { id?: number; type: string; lastEventId?: number; data?: { id: number } };
      if (f.type === "READY") lastEventId = f.lastEventId;
      if (f.type === "MESSAGE" && f.data) {
        seen.set(f.data.id, (seen.get(f.data.id) ?? 0) + 1);
        order.push(f.id!);
      }
      if (typeof f.id === "number") lastEventId = f.id;
      if (waiter && seen.size >= waiter.n) waiter.resolve();
    });
    ws.on("error", () => {});
    ws.on("close", () => setTimeout(connect, 50));
  };
  const ready = new Promise<void>((resolve) => {
    const poll = () => (lastEventId !== undefined ? resolve() : setTimeout(poll, 20));
    poll();
  });
  connect();
  return {
    seen,
    order,
    ready,
    connections: () => connections,
    waitFor: (n: number) =>
      new Promise<void>((resolve) => {
        if (seen.size >= n) return resolve();
        waiter = { n, resolve };
      }),
    stop: () => {
      stopped = true;
      ws?.terminate();
    },
  };
}

describe("a sidecar killed during a burst of messages", () => {
  it(`is restarted, and the recipient ends with all ${BURST} messages exactly once`, { timeout: 180_000 }, async () => {
    const port = await freePort();
    const sidecar = supervisor.start("realtime", process.execPath, COMMAND, {
      env: { ...process.env, REALTIME_PORT: String(port), PORT: String(port + 1), LOG_LEVEL: "warn", KRUG_SERVICE: "realtime" },
      stdio: "ignore",
    });
    const [alice, bob] = await Promise.all([signedInAccount({ firstName: "Alice" }), signedInAccount({ firstName: "Bob" })]);
    const { dialog } = await createDialog({ ctx: alice.ctx, input: { recipientId: bob.id } });
    const client = resilientClient(port, bob.accessToken);
    await client.ready;

    const firstPid = sidecar.current!.pid!;
    const stored: number[] = [];
    const killAt = Math.floor(BURST / 3);
    // Eight senders in parallel, like several tabs or a fast typist on a flaky line.
    let next = 0;
    const sender = async () => {
      while (next < BURST) {
        const i = next++;
        if (i === killAt) process.kill(firstPid, "SIGKILL");
        const { message } = await sendMessage({
          ctx: alice.ctx,
          input: { dialogId: dialog.id, messageText: `burst ${i}`, clientId: randomUUID() },
        });
        stored.push(message.id);
      }
    };
    await Promise.all(Array.from({ length: 8 }, sender));
    expect(stored).toHaveLength(BURST);

    await client.waitFor(BURST);
    client.stop();
    // Every stored message arrived exactly once, in event (commit) order, over more than one connection.
    expect([...client.seen.keys()].sort((x, y) => x - y)).toEqual([...stored].sort((x, y) => x - y));
    expect([...client.seen.values()].every((n) => n === 1)).toBe(true);
    expect(client.order).toEqual([...client.order].sort((x, y) => x - y));
    expect(client.connections()).toBeGreaterThanOrEqual(2);
    // The supervisor restarted the sidecar once, logged it, and did not give up.
    expect(sidecar.restarts).toBe(1);
    expect(sidecar.current?.pid).not.toBe(firstPid);
    expect(logs.some((l) => /realtime exited unexpectedly \(SIGKILL\); restart #1/.test(l))).toBe(true);
    expect(gaveUp).toEqual([]);
  });
});
