// The tab's half of the VISIBILITY frame (docs/adr/0123): lib/client/socket.ts tells the sidecar when the tab
// is hidden or visible, and after a connection opens only if it is hidden (a silent socket counts as visible).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

class FakeSocket {
  static all: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  sent: unknown[] = [];
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {}
}

let doc: EventTarget & { visibilityState: DocumentVisibilityState };

beforeEach(() => {
  vi.resetModules();
  FakeSocket.all = [];
  doc = Object.assign(new EventTarget(), { visibilityState: "visible" as DocumentVisibilityState });
  const win = Object.assign(new EventTarget(), {
    location: { protocol: "http:", host: "krug.test" },
    sessionStorage: null,
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clearTimeout: (h: number) => clearTimeout(h),
  });
  vi.stubGlobal("window", win);
  vi.stubGlobal("document", doc);
  vi.stubGlobal("WebSocket", FakeSocket);
});
afterEach(() => vi.unstubAllGlobals());

/** The socket opens once the page is idle (here: the next timer turn, no requestIdleCallback): docs/adr/0154. */
const idle = () => new Promise((resolve) => setTimeout(resolve, 5));

function setVisibility(state: DocumentVisibilityState) {
  doc.visibilityState = state;
  doc.dispatchEvent(new Event("visibilitychange"));
}

describe("the VISIBILITY frame", () => {
  it("is sent on every change, and on open only by a hidden tab; nothing after release", async () => {
    const { holdRealtimeConnection } = await import("@/lib/client/socket");
    const release = holdRealtimeConnection();
    await idle();
    const first = FakeSocket.all[0];
    first.onopen?.();
    expect(first.sent).toEqual([]); // visible: the default, nothing to say
    setVisibility("hidden");
    setVisibility("visible");
    expect(first.sent).toEqual([
      { type: "VISIBILITY", visible: false },
      { type: "VISIBILITY", visible: true },
    ]);
    release();
    setVisibility("hidden");
    expect(first.sent).toHaveLength(2);

    // A connection opened while the tab is hidden says so at once.
    const again = holdRealtimeConnection();
    await idle();
    const second = FakeSocket.all[1];
    second.onopen?.();
    expect(second.sent).toEqual([{ type: "VISIBILITY", visible: false }]);
    again();
  });

  it("is not sent while the socket is not open", async () => {
    const { holdRealtimeConnection } = await import("@/lib/client/socket");
    const release = holdRealtimeConnection();
    await idle();
    setVisibility("hidden");
    expect(FakeSocket.all[0].sent).toEqual([]);
    release();
  });
});

describe("opening the socket", () => {
  it("waits for the page to be idle, through requestIdleCallback where the browser has it", async () => {
    const idleCallbacks: (() => void)[] = [];
    Object.assign(window, {
      requestIdleCallback: (fn: () => void, opts: { timeout: number }) => {
        expect(opts.timeout).toBe(1000);
        return idleCallbacks.push(fn);
      },
      cancelIdleCallback: () => {},
    });
    const { holdRealtimeConnection } = await import("@/lib/client/socket");
    const release = holdRealtimeConnection();
    expect(FakeSocket.all).toHaveLength(0); // not in the effects of hydration
    idleCallbacks.forEach((fn) => fn());
    expect(FakeSocket.all).toHaveLength(1);
    expect(FakeSocket.all[0].url).toBe("ws://krug.test/api/v1/streaming/ws?frames=all");
    release();
  });

  it("never opens when released before the page was idle", async () => {
    const { holdRealtimeConnection } = await import("@/lib/client/socket");
    const release = holdRealtimeConnection();
    release();
    await idle();
    expect(FakeSocket.all).toHaveLength(0);
    // Held again, it opens as usual.
    const again = holdRealtimeConnection();
    await idle();
    expect(FakeSocket.all).toHaveLength(1);
    again();
  });
});
