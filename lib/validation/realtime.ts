import { z } from "zod";

export * from "./realtime-shared";

/** An event id as the client reports it: a non-negative integer within Postgres bigint's safe range. */
export const eventIdSchema = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** The only message a client sends: "give me everything after this id again". */
export const resumeMessage = z.object({ type: z.literal("RESUME"), lastEventId: eventIdSchema });
