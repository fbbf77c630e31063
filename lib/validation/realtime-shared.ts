// The zod-free half of the socket contract, for the browser (issue 14 item 11); realtime.ts re-exports it.

/** The socket path on the app's origin; Next rewrites it to the realtime sidecar. */
export const REALTIME_PATH = "/api/v1/streaming/ws";

/**
 * The frame types of the specification's socket (spec section 7): a client that opens the socket without
 * `frames=all` receives these and nothing else (no READY, no live list updates, read receipts, presence or
 * typing), so a client written to the specification never meets a type it does not know (issue 40 item 21,
 * docs/adr/0165).
 */
export const SPEC_FRAME_TYPES: readonly string[] = ["MESSAGE", "NOTIFICATION"];

/** The query parameter (and its value) by which a client asks for every frame type; Krug's own client always does. */
export const FRAMES_PARAM = "frames";
export const ALL_FRAMES = "all";

/** Close code the sidecar uses when the session behind an open socket has ended (logout, block). */
export const CLOSE_SESSION_ENDED = 4001;

/**
 * Outbox event type that ends every open socket of its recipients (an account blocked by staff): the
 * sidecar closes them with CLOSE_SESSION_ENDED instead of delivering the event.
 */
export const SESSION_ENDED_EVENT = "SESSION_ENDED";

/** Close code the sidecar uses when it shuts down: the client reconnects (and resumes) at once. */
export const CLOSE_GOING_AWAY = 1001;

/** An event frame as the sidecar sends it. */
export type RealtimeEventFrame = { id: number; type: string; data: unknown };

/**
 * A control frame sent once a (re)connection has caught up: from here on events are live, and
 * `lastEventId` is where the client should resume from even if no event reached it yet.
 */
export type RealtimeReadyFrame = { type: "READY"; lastEventId: number };

/**
 * A client frame (issue 25 section 2): the tab says whether the person can see it now
 * (`document.visibilityState === "visible"`). Sent after each (re)connection and on every change. A socket
 * that never sends it counts as visible, so older clients keep their behaviour. The push dispatcher leaves
 * out only accounts with at least one visible socket (docs/adr/0123).
 */
export const VISIBILITY_FRAME = "VISIBILITY";
export type RealtimeVisibilityFrame = { type: typeof VISIBILITY_FRAME; visible: boolean };
