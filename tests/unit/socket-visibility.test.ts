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

function setVisibility(state: DocumentVisibilityState) {
  doc.visibilityState = state;
  doc.dispatchEvent(new Event("visibilitychange"));
}

describe("the VISIBILITY frame", () => {
  it("is sent on every change, and on open only by a hidden tab; nothing after release", async () => {
    const { holdRealtimeConnection } = await import("@/lib/client/socket");
    const release = holdRealtimeConnection();
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
    const second = FakeSocket.all[1];
    second.onopen?.();
    expect(second.sent).toEqual([{ type: "VISIBILITY", visible: false }]);
    again();
  });

  it("is not sent while the socket is not open", async () => {
    const { holdRealtimeConnection } = await import("@/lib/client/socket");
    const release = holdRealtimeConnection();
    setVisibility("hidden");
    expect(FakeSocket.all[0].sent).toEqual([]);
    release();
  });
});
