import { z } from "zod";

export * from "./realtime-shared";

/** An event id as the client reports it: a non-negative integer within Postgres bigint's safe range. */
export const eventIdSchema = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** "Give me everything after this id again". */
export const resumeMessage = z.object({ type: z.literal("RESUME"), lastEventId: eventIdSchema });

/** "This tab is (not) visible now" (realtime-shared.ts#VISIBILITY_FRAME). */
export const visibilityMessage = z.object({ type: z.literal("VISIBILITY"), visible: z.boolean() });
