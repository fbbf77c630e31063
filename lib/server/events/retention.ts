import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { eventRecipients, events } from "@/db/schema";

/** How long a reconnecting client can still resume from: a week covers any plausible absence. */
export const EVENT_RETENTION_DAYS = 7;

/**
 * Deletes delivered-long-ago events and their recipients (no foreign key: ADR 0095) in batches, so a large
 * backlog never holds one long transaction. Returns how many were deleted.
 */
export async function purgeOldEvents(db: DbOrTx, now: Date = new Date(), batch = 5_000): Promise<number> {
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_DAYS * 24 * 3600 * 1000);
  let total = 0;
  for (;;) {
    const [row] = await db.execute<{ count: number }>(sql`
      with gone as (
        delete from ${events} where id in (
          select id from ${events} where created_at < ${cutoff.toISOString()}::timestamptz order by id limit ${batch})
        returning id
      ), recipients as (
        delete from ${eventRecipients} r using gone where r.event_id = gone.id
      )
      select count(*)::int as count from gone`);
    const count = Number(row?.count ?? 0);
    total += count;
    if (count < batch) return total;
  }
}
