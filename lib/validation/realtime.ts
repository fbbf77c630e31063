import { z } from "zod";

/** The socket path on the app's origin; Next rewrites it to the realtime sidecar. */
export const REALTIME_PATH = "/api/v1/streaming/ws";

/** Close code the sidecar uses when the session behind an open socket has ended (logout, block). */
export const CLOSE_SESSION_ENDED = 4001;

/** Close code the sidecar uses when it shuts down: the client reconnects (and resumes) at once. */
export const CLOSE_GOING_AWAY = 1001;

/** An event id as the client reports it: a non-negative integer within Postgres bigint's safe range. */
export const eventIdSchema = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** The only message a client sends: "give me everything after this id again". */
export const resumeMessage = z.object({ type: z.literal("RESUME"), lastEventId: eventIdSchema });

/** An event frame as the sidecar sends it. */
export type RealtimeEventFrame = { id: number; type: string; data: unknown };

/**
 * A control frame sent once a (re)connection has caught up: from here on events are live, and
 * `lastEventId` is where the client should resume from even if no event reached it yet.
 */
export type RealtimeReadyFrame = { type: "READY"; lastEventId: number };
