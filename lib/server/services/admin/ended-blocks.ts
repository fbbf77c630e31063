import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";

/**
 * Lifts moderator blocks for a period whose time has passed (issue 26, docs/adr/0126): each lifted account gets
 * a USER_UNBLOCKED audit row by the system (actor null, details {periodEnded}). One statement; the candidates are
 * read through accounts_hidden_idx (deleted or blocked accounts only). `accountId` limits it to one account
 * (its sign-in). Returns the lifted ids.
 */
export async function liftEndedBlocks(db: DbOrTx, now: Date = new Date(), accountId?: number): Promise<number[]> {
  const one = accountId === undefined ? sql`true` : sql`a.id = ${accountId}`;
  const rows = await db.execute<{ id: string }>(sql`
    with lifted as (
      update accounts a set is_blocked = false, blocked_until = null, updated_at = now()
      where (a.is_deleted or a.is_blocked) and a.is_blocked and a.blocked_until <= ${now.toISOString()}::timestamptz and ${one}
      returning a.id),
    audited as (
      insert into audit_log (actor_id, action, target_type, target_id, target_account_id, reason, details)
      select null, 'USER_UNBLOCKED', 'ACCOUNT', l.id, l.id, null, '{"periodEnded": true}'::jsonb from lifted l)
    select id from lifted`);
  return rows.map((r) => Number(r.id));
}
