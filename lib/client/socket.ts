import { REALTIME_PATH, VISIBILITY_FRAME, type RealtimeVisibilityFrame } from "@/lib/validation/realtime-shared";
import { refreshSession } from "./auth-refresh";
import { createRealtimeClient, socketUrl, type RealtimeClient, type RealtimeHandler } from "./realtime-core";

export {
  backoffDelay,
  type RealtimeClient,
  type RealtimeEvent,
  type RealtimeHandler,
  type RealtimeStatus,
} from "./realtime-core";

let client: RealtimeClient | null = null;
let holders = 0;
let detachOnline: (() => void) | null = null;

function sessionStore(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** The tab's one realtime connection (created on first use; only in the browser). */
export function getRealtimeClient(): RealtimeClient {
  client ??= createRealtimeClient({
    createSocket: (lastEventId) => new WebSocket(socketUrl(window.location, REALTIME_PATH, lastEventId)),
    refresh: refreshSession,
    storage: sessionStore(),
    setTimer: (fn, ms) => window.setTimeout(fn, ms),
    clearTimer: (handle) => window.clearTimeout(handle as number),
    now: () => Date.now(),
    onHandlerError: (err) => console.error("realtime handler failed", err),
  });
  return client;
}

type IdleWindow = Window & {
  requestIdleCallback?: (fn: () => void, opts?: { timeout: number }) => number;
  cancelIdleCallback?: (handle: number) => void;
};

/**
 * Runs `fn` when the browser is idle, at the latest after `timeout` ms; returns the cancel function.
 * The page's start (hydration and the effects it runs in one task) goes first: opening the socket there
 * made that task longer on a phone (docs/adr/0154).
 */
function whenIdle(fn: () => void, timeout: number): () => void {
  const w = window as IdleWindow;
  if (w.requestIdleCallback && w.cancelIdleCallback) {
    const handle = w.requestIdleCallback(fn, { timeout });
    return () => w.cancelIdleCallback?.(handle);
  }
  const handle = window.setTimeout(fn, 1);
  return () => window.clearTimeout(handle);
}

let cancelStart: (() => void) | null = null;

/**
 * Keeps the connection open while at least one holder needs it (the provider, possibly mounted twice
 * in development); returns the release function. The socket opens once the page is idle (within a
 * second, where it opened in the effects of hydration before); a tab that had one resumes from its last
 * event id, so what was sent meanwhile still arrives.
 */
export function holdRealtimeConnection(): () => void {
  const c = getRealtimeClient();
  holders += 1;
  if (holders === 1) {
    cancelStart = whenIdle(() => {
      cancelStart = null;
      c.start();
    }, 1000);
    const online = () => c.nudge();
    window.addEventListener("online", online);
    // The tab tells the sidecar whether it can be seen, so a background tab no longer holds Web Push back
    // (docs/adr/0123). A socket counts as visible until told otherwise: on open only a hidden tab speaks.
    const report = (always: boolean) => {
      const visible = document.visibilityState === "visible";
      if (always || !visible) c.send({ type: VISIBILITY_FRAME, visible } satisfies RealtimeVisibilityFrame);
    };
    const changed = () => report(true);
    const offStatus = c.onStatus((status) => {
      if (status === "open") report(false);
    });
    document.addEventListener("visibilitychange", changed);
    detachOnline = () => {
      window.removeEventListener("online", online);
      document.removeEventListener("visibilitychange", changed);
      offStatus();
    };
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders -= 1;
    if (holders === 0) {
      detachOnline?.();
      detachOnline = null;
      if (cancelStart) {
        cancelStart();
        cancelStart = null;
      } else c.stop();
    }
  };
}

/** Subscribes to one event type, or "*" for all; returns the unsubscribe function. */
export function subscribe(type: string, handler: RealtimeHandler): () => void {
  return getRealtimeClient().subscribe(type, handler);
}
