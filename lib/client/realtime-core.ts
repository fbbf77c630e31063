/**
 * The realtime client's logic, free of browser globals so it runs (and is tested) anywhere: the
 * reconnect schedule, the last-event-id bookkeeping, frame parsing, and the connection state machine.
 * lib/client/socket.ts binds it to the browser's WebSocket, timers, sessionStorage and fetch.
 */
import { ALL_FRAMES, CLOSE_SESSION_ENDED, FRAMES_PARAM } from "@/lib/validation/realtime-shared";

/** `id` is the outbox id; 0 marks a short-lived frame that has none (TYPING) and is never resumed. */
export type RealtimeEvent = { id: number; type: string; data: unknown };
export type RealtimeHandler = (event: RealtimeEvent) => void;
export type RealtimeStatus = "idle" | "connecting" | "open" | "reconnecting" | "signed-out";
export type RefreshOutcome = "ok" | "signed-out" | "error";

export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_CAP_MS = 30_000;
/** A connection that stayed open this long ends the failure streak: the next delay starts at 1 s again. */
export const STABLE_CONNECTION_MS = 10_000;
export const LAST_EVENT_ID_KEY = "krug.realtime.lastEventId";
/**
 * A socket that has not sent READY this long after it was created is given up and opened again (with the
 * backoff): an upgrade that never answers, or a resume that never ends, would otherwise leave the tab
 * connected to nothing with no end (docs/adr/0145). READY comes after the backlog, so this is generous.
 */
export const READY_TIMEOUT_MS = 20_000;

/**
 * Delay before reconnect attempt `attempt` (0-based): exponential from 1 s, capped at 30 s, with
 * "equal jitter" (between half and all of the step) so a restarted sidecar is not hit by every tab at once.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const step = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, Math.min(attempt, 30)));
  const r = Math.min(1, Math.max(0, random()));
  return Math.round(step / 2 + (r * step) / 2);
}

function isEventId(v: unknown): v is number {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
}

export type ParsedFrame = { kind: "event"; event: RealtimeEvent } | { kind: "ready"; lastEventId: number };

/** A frame from the sidecar, or null when it is not one we understand (never throws). */
export function parseFrame(raw: unknown): ParsedFrame | null {
  if (typeof raw !== "string") return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const frame = value as Record<string, unknown>;
  if (typeof frame.type !== "string" || frame.type === "") return null;
  if (frame.type === "READY") return isEventId(frame.lastEventId) ? { kind: "ready", lastEventId: frame.lastEventId } : null;
  // A frame without an id is short-lived (typing): handlers get it, the resume point does not move.
  if (frame.id === undefined || frame.id === null) return { kind: "event", event: { id: 0, type: frame.type, data: frame.data } };
  if (!isEventId(frame.id) || frame.id === 0) return null;
  return { kind: "event", event: { id: frame.id, type: frame.type, data: frame.data } };
}

/** Spec: "A MESSAGE or NOTIFICATION without data is ignored"; no handler wants a data-less event. */
export function hasData(event: RealtimeEvent): boolean {
  return event.data !== null && event.data !== undefined;
}

/** The id to resume from after receiving `id`: ids only grow, a late or replayed frame never moves it back. */
export function advanceLastEventId(current: number | undefined, id: number): number {
  return current === undefined ? id : Math.max(current, id);
}

type KeyValueStore = { getItem(key: string): string | null; setItem(key: string, value: string): void; removeItem(key: string): void };

export function readLastEventId(storage: KeyValueStore | null | undefined): number | undefined {
  try {
    const raw = storage?.getItem(LAST_EVENT_ID_KEY);
    if (!raw || !/^\d{1,16}$/.test(raw)) return undefined;
    const id = Number(raw);
    return Number.isSafeInteger(id) ? id : undefined;
  } catch {
    return undefined; // storage disabled (privacy mode): memory alone still works
  }
}

export function writeLastEventId(storage: KeyValueStore | null | undefined, id: number | undefined): void {
  try {
    if (id === undefined) storage?.removeItem(LAST_EVENT_ID_KEY);
    else storage?.setItem(LAST_EVENT_ID_KEY, String(id));
  } catch {
    /* storage full or disabled: memory alone still works */
  }
}

/**
 * The socket URL on the page's own origin, with the resume point when there is one. Krug's client asks for
 * every frame type (`frames=all`): READY, read receipts, presence, typing… come only to a client that asks.
 */
export function socketUrl(location: { protocol: string; host: string }, path: string, lastEventId: number | undefined): string {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const resume = lastEventId === undefined ? "" : `&lastEventId=${lastEventId}`;
  return `${scheme}//${location.host}${path}?${FRAMES_PARAM}=${ALL_FRAMES}${resume}`;
}

// Method-style (bivariant) parameters, so the DOM's WebSocket, whose handlers take richer events, fits.
type Listener<E> = { bivariant(ev: E): void }["bivariant"];

/** The part of the browser's WebSocket the client uses. */
export type SocketLike = {
  onopen: Listener<unknown> | null;
  onmessage: Listener<{ data: unknown }> | null;
  onclose: Listener<{ code: number }> | null;
  onerror: Listener<unknown> | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
};

export type RealtimeDeps = {
  createSocket: (lastEventId: number | undefined) => SocketLike;
  refresh: () => Promise<RefreshOutcome>;
  storage?: KeyValueStore | null;
  setTimer: (fn: () => void, ms: number) => unknown;
  clearTimer: (handle: unknown) => void;
  now: () => number;
  random?: () => number;
  onHandlerError?: (err: unknown) => void;
};

export type RealtimeClient = {
  start(): void;
  stop(): void;
  /** Reconnects now if a reconnect is waiting (the browser came back online). */
  nudge(): void;
  subscribe(type: string, handler: RealtimeHandler): () => void;
  onStatus(listener: (status: RealtimeStatus) => void): () => void;
  getStatus(): RealtimeStatus;
  getLastEventId(): number | undefined;
  /**
   * Sends a client frame (TYPING, …) when the connection is open; false when it is not. Nothing is
   * queued: what a client sends over the socket is allowed to be lost (typing), the rest goes by HTTP.
   */
  send(frame: Record<string, unknown>): boolean;
};

export function createRealtimeClient(deps: RealtimeDeps): RealtimeClient {
  const handlers = new Map<string, Set<RealtimeHandler>>();
  const statusListeners = new Set<(s: RealtimeStatus) => void>();
  let status: RealtimeStatus = "idle";
  let lastEventId = readLastEventId(deps.storage);
  let socket: SocketLike | null = null;
  let socketOpen = false;
  let timer: unknown = null;
  let readyTimer: unknown = null;
  let running = false;
  let attempt = 0;
  // One refresh per failure streak: a streak ends when a connection opens.
  let refreshedThisStreak = false;

  function setStatus(next: RealtimeStatus) {
    if (next === status) return;
    status = next;
    for (const l of [...statusListeners]) l(next);
  }

  function remember(id: number) {
    lastEventId = id;
    writeLastEventId(deps.storage, id);
  }

  function dispatch(event: RealtimeEvent) {
    for (const key of [event.type, "*"]) {
      for (const h of [...(handlers.get(key) ?? [])]) {
        try {
          h(event);
        } catch (err) {
          deps.onHandlerError?.(err);
        }
      }
    }
  }

  function clearReadyTimer() {
    if (readyTimer !== null) deps.clearTimer(readyTimer);
    readyTimer = null;
  }

  function connect() {
    timer = null;
    if (!running) return;
    const ws = deps.createSocket(lastEventId);
    socket = ws;
    let openedAt: number | null = null;
    clearReadyTimer();
    readyTimer = deps.setTimer(() => {
      readyTimer = null;
      if (socket !== ws || !running) return;
      // Given up: its late frames and its close are ignored from here (socket !== ws).
      socket = null;
      socketOpen = false;
      try {
        ws.close(1000, "No READY");
      } catch {
        /* already closing */
      }
      schedule();
    }, READY_TIMEOUT_MS);
    ws.onopen = () => {
      if (socket !== ws) return;
      openedAt = deps.now();
      socketOpen = true;
      refreshedThisStreak = false;
      setStatus("open");
    };
    ws.onmessage = (ev) => {
      if (socket !== ws) return;
      const frame = parseFrame(ev.data);
      if (!frame) return;
      if (frame.kind === "ready") {
        clearReadyTimer();
        return remember(frame.lastEventId);
      }
      if (frame.event.id > 0) remember(advanceLastEventId(lastEventId, frame.event.id));
      if (hasData(frame.event)) dispatch(frame.event);
    };
    ws.onerror = () => {}; // a close follows; that is where we act
    ws.onclose = (ev) => {
      if (socket !== ws) return;
      socket = null;
      socketOpen = false;
      clearReadyTimer();
      if (!running) return;
      if (openedAt !== null && deps.now() - openedAt >= STABLE_CONNECTION_MS) attempt = 0;
      // A refused upgrade (401 shows as 1006 before open) or an ended session: try one token refresh.
      const authSuspect = openedAt === null || ev.code === CLOSE_SESSION_ENDED;
      if (authSuspect && !refreshedThisStreak) {
        refreshedThisStreak = true;
        setStatus("reconnecting");
        void deps.refresh().then((outcome) => {
          if (!running || socket || timer) return;
          if (outcome === "signed-out") return signOut();
          if (outcome === "ok") connect();
          else schedule();
        });
        return;
      }
      schedule();
    };
  }

  function schedule() {
    setStatus("reconnecting");
    timer = deps.setTimer(connect, backoffDelay(attempt, deps.random));
    attempt += 1;
  }

  function signOut() {
    running = false;
    lastEventId = undefined;
    writeLastEventId(deps.storage, undefined);
    setStatus("signed-out");
  }

  return {
    start() {
      if (running) return;
      running = true;
      attempt = 0;
      refreshedThisStreak = false;
      setStatus("connecting");
      connect();
    },
    stop() {
      running = false;
      if (timer !== null) deps.clearTimer(timer);
      timer = null;
      clearReadyTimer();
      const ws = socket;
      socket = null;
      socketOpen = false;
      ws?.close(1000, "Client closed");
      if (status !== "signed-out") setStatus("idle");
    },
    nudge() {
      if (!running || timer === null) return;
      deps.clearTimer(timer);
      connect();
    },
    subscribe(type, handler) {
      let set = handlers.get(type);
      if (!set) handlers.set(type, (set = new Set()));
      set.add(handler);
      return () => {
        set.delete(handler);
        if (set.size === 0 && handlers.get(type) === set) handlers.delete(type);
      };
    },
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    getStatus: () => status,
    getLastEventId: () => lastEventId,
    send(frame) {
      if (!socket || !socketOpen) return false;
      try {
        socket.send(JSON.stringify(frame));
        return true;
      } catch {
        return false; // closing under us: the close handler reconnects
      }
    },
  };
}
