import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  advanceLastEventId,
  BACKOFF_CAP_MS,
  backoffDelay,
  createRealtimeClient,
  hasData,
  LAST_EVENT_ID_KEY,
  parseFrame,
  readLastEventId,
  socketUrl,
  READY_TIMEOUT_MS,
  STABLE_CONNECTION_MS,
  writeLastEventId,
  type RealtimeEvent,
  type RefreshOutcome,
  type SocketLike,
} from "@/lib/client/realtime-core";

describe("backoffDelay", () => {
  it("doubles from 1 s with jitter between half and all of each step", () => {
    expect([0, 1, 2, 3, 4].map((a) => backoffDelay(a, () => 1))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000]);
    expect([0, 1, 2, 3, 4].map((a) => backoffDelay(a, () => 0))).toEqual([500, 1_000, 2_000, 4_000, 8_000]);
  });

  it("caps at 30 s however long the streak", () => {
    expect(backoffDelay(5, () => 1)).toBe(BACKOFF_CAP_MS);
    expect(backoffDelay(1_000, () => 1)).toBe(BACKOFF_CAP_MS);
    expect(backoffDelay(1_000, () => 0)).toBe(BACKOFF_CAP_MS / 2);
  });

  it("stays within [step/2, step] for any attempt and random draw", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }), fc.double({ min: 0, max: 1, noNaN: true }), (attempt, r) => {
        const step = Math.min(BACKOFF_CAP_MS, 1_000 * 2 ** Math.min(attempt, 30));
        const d = backoffDelay(attempt, () => r);
        return d >= Math.floor(step / 2) && d <= step && d <= BACKOFF_CAP_MS;
      }),
    );
  });
});

describe("frames and lastEventId bookkeeping", () => {
  it("parses event and READY frames and rejects anything else", () => {
    expect(parseFrame('{"id":5,"type":"MESSAGE","data":{"dialogId":1}}')).toEqual({
      kind: "event",
      event: { id: 5, type: "MESSAGE", data: { dialogId: 1 } },
    });
    expect(parseFrame('{"type":"READY","lastEventId":9}')).toEqual({ kind: "ready", lastEventId: 9 });
    // A short-lived frame (typing) has no outbox id: id 0, never a resume point.
    expect(parseFrame('{"type":"TYPING","data":{"dialogId":3}}')).toEqual({ kind: "event", event: { id: 0, type: "TYPING", data: { dialogId: 3 } } });
    for (const bad of ["nope", "null", "[]", '{"id":5}', '{"id":-1,"type":"X"}', '{"id":0,"type":"X"}', '{"id":1.5,"type":"X"}', '{"type":"READY"}']) {
      expect(parseFrame(bad)).toBeNull();
    }
    expect(parseFrame(new ArrayBuffer(2))).toBeNull();
  });

  it("treats an event without data as not for handlers", () => {
    const e = (data: unknown): RealtimeEvent => ({ id: 1, type: "MESSAGE", data });
    expect(hasData(e(undefined))).toBe(false);
    expect(hasData(e(null))).toBe(false);
    expect(hasData(e({}))).toBe(true);
    expect(hasData(e(0))).toBe(true);
  });

  it("only moves the resume point forward", () => {
    expect(advanceLastEventId(undefined, 7)).toBe(7);
    expect(advanceLastEventId(7, 9)).toBe(9);
    expect(advanceLastEventId(9, 7)).toBe(9);
  });

  it("stores the resume point and survives broken or hostile storage", () => {
    const storage = memoryStorage();
    expect(readLastEventId(storage)).toBeUndefined();
    writeLastEventId(storage, 42);
    expect(storage.getItem(LAST_EVENT_ID_KEY)).toBe("42");
    expect(readLastEventId(storage)).toBe(42);
    for (const junk of ["-3", "abc", "1e5", "99999999999999999"]) {
      storage.setItem(LAST_EVENT_ID_KEY, junk);
      expect(readLastEventId(storage)).toBeUndefined();
    }
    writeLastEventId(storage, undefined);
    expect(storage.getItem(LAST_EVENT_ID_KEY)).toBeNull();
    const throwing = { getItem: () => { throw new Error("denied"); }, setItem: () => { throw new Error("full"); }, removeItem: () => {} };
    expect(readLastEventId(throwing)).toBeUndefined();
    expect(() => writeLastEventId(throwing, 1)).not.toThrow();
  });

  it("builds the socket URL on the page's origin, always asking for every frame type", () => {
    expect(socketUrl({ protocol: "https:", host: "krug.example" }, "/api/v1/streaming/ws", 12)).toBe(
      "wss://krug.example/api/v1/streaming/ws?frames=all&lastEventId=12",
    );
    expect(socketUrl({ protocol: "http:", host: "localhost:3000" }, "/api/v1/streaming/ws", undefined)).toBe(
      "ws://localhost:3000/api/v1/streaming/ws?frames=all",
    );
  });
});

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

class FakeSocket implements SocketLike {
  onopen: SocketLike["onopen"] = null;
  onmessage: SocketLike["onmessage"] = null;
  onclose: SocketLike["onclose"] = null;
  onerror: SocketLike["onerror"] = null;
  closedWith: number | undefined;
  sent: string[] = [];
  constructor(readonly lastEventId: number | undefined) {}
  open() {
    this.onopen?.({});
  }
  receive(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  drop(code = 1006) {
    this.onclose?.({ code });
  }
  send(data: string) {
    this.sent.push(data);
  }
  close(code?: number) {
    this.closedWith = code;
  }
}

/** A client wired to fakes: sockets, a manual clock and timer queue, and scripted refresh answers. */
function harness(opts: { stored?: number; refresh?: RefreshOutcome[] } = {}) {
  const storage = memoryStorage();
  if (opts.stored !== undefined) writeLastEventId(storage, opts.stored);
  const sockets: FakeSocket[] = [];
  const timers: { fn: () => void; ms: number; cleared: boolean }[] = [];
  const refreshAnswers = [...(opts.refresh ?? [])];
  let refreshCalls = 0;
  let now = 0;
  const client = createRealtimeClient({
    createSocket: (id) => {
      const s = new FakeSocket(id);
      sockets.push(s);
      return s;
    },
    refresh: async () => {
      refreshCalls += 1;
      return refreshAnswers.shift() ?? "ok";
    },
    storage,
    setTimer: (fn, ms) => {
      const t = { fn, ms, cleared: false };
      timers.push(t);
      return t;
    },
    clearTimer: (t) => void ((t as { cleared: boolean }).cleared = true),
    now: () => now,
    random: () => 1,
  });
  const statuses: string[] = [];
  client.onStatus((s) => statuses.push(s));
  return {
    client,
    storage,
    sockets,
    statuses,
    last: () => sockets[sockets.length - 1],
    // The reconnect timer; the READY watchdog (READY_TIMEOUT_MS, no backoff step equals it) has its own.
    pendingTimer: () => timers.filter((t) => !t.cleared && t.ms !== READY_TIMEOUT_MS).at(-1),
    fireTimer() {
      const t = timers.find((x) => !x.cleared && x.ms !== READY_TIMEOUT_MS)!;
      t.cleared = true;
      t.fn();
      return t.ms;
    },
    readyTimers: () => timers.filter((t) => !t.cleared && t.ms === READY_TIMEOUT_MS),
    fireReadyTimeout() {
      const t = timers.find((x) => !x.cleared && x.ms === READY_TIMEOUT_MS)!;
      t.cleared = true;
      t.fn();
    },
    refreshCalls: () => refreshCalls,
    advance: (ms: number) => void (now += ms),
  };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("realtime client state machine", () => {
  it("connects with the stored resume point, tracks ids, and dispatches only events with data", () => {
    const h = harness({ stored: 40 });
    const messages: RealtimeEvent[] = [];
    const all: RealtimeEvent[] = [];
    h.client.subscribe("MESSAGE", (e) => messages.push(e));
    const unsubscribeAll = h.client.subscribe("*", (e) => all.push(e));
    h.client.subscribe("MESSAGE", () => {
      throw new Error("a broken handler does not stop the others");
    });
    h.client.start();
    expect(h.last().lastEventId).toBe(40);
    h.last().open();
    expect(h.client.getStatus()).toBe("open");

    h.last().receive({ id: 41, type: "MESSAGE", data: { dialogId: 1 } });
    h.last().receive({ id: 42, type: "NOTIFICATION" });
    h.last().receive({ id: 43, type: "MESSAGE", data: null });
    expect(messages.map((e) => e.id)).toEqual([41]);
    expect(all.map((e) => e.id)).toEqual([41]);
    expect(h.client.getLastEventId()).toBe(43);
    expect(readLastEventId(h.storage)).toBe(43);

    unsubscribeAll();
    h.last().receive({ id: 44, type: "MESSAGE", data: {} });
    expect(all).toHaveLength(1);
    expect(messages.map((e) => e.id)).toEqual([41, 44]);

    // READY is the server's word on where to resume, even below what we had (a reset database).
    h.last().receive({ type: "READY", lastEventId: 30 });
    expect(h.client.getLastEventId()).toBe(30);
  });

  it("reconnects after a drop with growing delays and resumes from the last id", () => {
    const h = harness();
    h.client.start();
    expect(h.last().lastEventId).toBeUndefined();
    h.last().open();
    h.last().receive({ type: "READY", lastEventId: 7 });
    h.last().drop(1001);
    expect(h.client.getStatus()).toBe("reconnecting");
    expect(h.fireTimer()).toBe(1_000);
    expect(h.last().lastEventId).toBe(7);
    h.last().open();
    h.last().drop(1006);
    expect(h.fireTimer()).toBe(2_000);
  });

  it("resets the delay after a stable connection", () => {
    const h = harness();
    h.client.start();
    h.last().open();
    h.last().drop();
    expect(h.fireTimer()).toBe(1_000);
    h.last().open();
    h.advance(STABLE_CONNECTION_MS);
    h.last().drop();
    expect(h.fireTimer()).toBe(1_000);
  });

  it("refreshes once per failure streak when the upgrade keeps failing", async () => {
    const h = harness({ refresh: ["ok", "ok"] });
    h.client.start();
    h.last().drop(1006); // refused before open
    await settle();
    expect(h.refreshCalls()).toBe(1);
    expect(h.sockets).toHaveLength(2); // reconnected at once after the refresh
    h.last().drop(1006);
    await settle();
    expect(h.refreshCalls()).toBe(1);
    expect(h.fireTimer()).toBe(1_000);
    h.last().drop(1006);
    expect(h.fireTimer()).toBe(2_000);
    h.last().open(); // the streak ends
    h.last().drop(1006);
    h.fireTimer();
    h.last().drop(1006);
    await settle();
    expect(h.refreshCalls()).toBe(2);
  });

  it("stops with signed-out when the refresh is refused, forgetting the resume point", async () => {
    const h = harness({ stored: 5, refresh: ["signed-out"] });
    h.client.start();
    h.last().drop(1006);
    await settle();
    expect(h.client.getStatus()).toBe("signed-out");
    expect(h.sockets).toHaveLength(1);
    expect(h.pendingTimer()).toBeUndefined();
    expect(readLastEventId(h.storage)).toBeUndefined();
    // Signing in again and remounting starts afresh.
    h.client.start();
    expect(h.sockets).toHaveLength(2);
    expect(h.client.getStatus()).toBe("connecting");
  });

  it("backs off when the refresh itself fails, and refreshes when the session ended", async () => {
    const h = harness({ refresh: ["error", "signed-out"] });
    h.client.start();
    h.last().drop(1006);
    await settle();
    expect(h.client.getStatus()).toBe("reconnecting");
    h.fireTimer();
    h.last().open();
    h.last().drop(4001);
    await settle();
    expect(h.refreshCalls()).toBe(2);
    expect(h.client.getStatus()).toBe("signed-out");
  });

  it("dispatches id-less frames without moving the resume point, and sends only while open", () => {
    const h = harness({ stored: 7 });
    const seen: unknown[] = [];
    h.client.subscribe("TYPING", (e) => seen.push(e));
    h.client.start();
    expect(h.client.send({ type: "TYPING", dialogId: 1 })).toBe(false);
    h.last().open();
    expect(h.client.send({ type: "TYPING", dialogId: 1 })).toBe(true);
    expect(h.last().sent).toEqual(['{"type":"TYPING","dialogId":1}']);
    h.last().receive({ type: "TYPING", data: { dialogId: 1, accountId: 2 } });
    expect(seen).toEqual([{ id: 0, type: "TYPING", data: { dialogId: 1, accountId: 2 } }]);
    expect(h.client.getLastEventId()).toBe(7);
    h.last().drop();
    expect(h.client.send({ type: "TYPING", dialogId: 1 })).toBe(false);
  });

  it("stops cleanly, ignores a late frame of the old socket, and reconnects at once on nudge", () => {
    const h = harness();
    const seen: number[] = [];
    h.client.subscribe("*", (e) => seen.push(e.id));
    h.client.start();
    const first = h.last();
    first.open();
    h.client.stop();
    expect(first.closedWith).toBe(1000);
    expect(h.client.getStatus()).toBe("idle");
    first.receive({ id: 9, type: "MESSAGE", data: {} });
    first.drop(1000);
    expect(seen).toEqual([]);
    expect(h.pendingTimer()).toBeUndefined();

    h.client.start();
    h.last().open();
    h.last().drop();
    expect(h.pendingTimer()).toBeDefined();
    h.client.nudge();
    expect(h.pendingTimer()).toBeUndefined();
    expect(h.sockets).toHaveLength(3);
    expect(h.statuses).toEqual(["connecting", "open", "idle", "connecting", "open", "reconnecting"]);
  });

  it("gives up a socket with no READY within READY_TIMEOUT_MS, open or not, and reconnects from the last id with the backoff", () => {
    const h = harness({ stored: 12 });
    const seen: number[] = [];
    h.client.subscribe("*", (e) => seen.push(e.id));
    h.client.start();
    // An upgrade that never answers: still connecting when the watchdog fires.
    const hung = h.last();
    expect(h.readyTimers()).toHaveLength(1);
    h.fireReadyTimeout();
    expect(hung.closedWith).toBe(1000);
    expect(h.client.getStatus()).toBe("reconnecting");
    expect(h.fireTimer()).toBe(1_000);
    // Open, a resumed event arrives, but the resume never ends with READY.
    const stalled = h.last();
    expect(stalled.lastEventId).toBe(12);
    stalled.open();
    stalled.receive({ id: 13, type: "MESSAGE", data: {} });
    h.advance(READY_TIMEOUT_MS);
    h.fireReadyTimeout();
    expect(stalled.closedWith).toBe(1000);
    // Its late frames and its close are not the client's any more.
    stalled.receive({ id: 14, type: "MESSAGE", data: {} });
    stalled.drop(1000);
    expect(seen).toEqual([13]);
    expect(h.sockets).toHaveLength(2);
    expect(h.fireTimer()).toBe(2_000);
    // READY in time: the watchdog is off, and a drop afterwards is an ordinary one.
    const good = h.last();
    expect(good.lastEventId).toBe(13);
    good.open();
    good.receive({ type: "READY", lastEventId: 13 });
    expect(h.readyTimers()).toHaveLength(0);
    expect(h.client.getStatus()).toBe("open");
    good.drop(1001);
    expect(h.readyTimers()).toHaveLength(0);
    expect(h.pendingTimer()).toBeDefined();
    h.client.stop();
    expect(h.readyTimers()).toHaveLength(0);
  });
});
