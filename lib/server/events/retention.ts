import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { events } from "@/db/schema";

/** How long a reconnecting client can still resume from: a week covers any plausible absence. */
export const EVENT_RETENTION_DAYS = 7;

/**
 * Deletes delivered-long-ago events (recipients go with them by cascade) in batches, so a large
 * backlog never holds one long transaction. Returns how many were deleted.
 */
export async function purgeOldEvents(db: DbOrTx, now: Date = new Date(), batch = 5_000): Promise<number> {
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_DAYS * 24 * 3600 * 1000);
  let total = 0;
  for (;;) {
    const result = await db.execute(sql`
      delete from ${events} where id in (
        select id from ${events} where created_at < ${cutoff.toISOString()}::timestamptz order by id limit ${batch})`);
    const count = (result as unknown as { count: number }).count ?? 0;
    total += count;
    if (count < batch) return total;
  }
}
