import "server-only";
import { sql } from "drizzle-orm";
import type { Tx } from "@/db/client";

/**
 * An erased account (its restore window over, accounts/anonymise.ts) leaves every community: its rows go
 * (requests, invitations and bans too) and each community it was a member of counts one less. A community
 * it owned passes to its longest-standing admin, else moderator, else member; one with nobody left is
 * deleted (nobody can restore it: its owner is gone). Communities are locked in id order, as every change
 * locks its community first.
 */
export async function leaveCommunitiesOnErasure(tx: Tx, accountId: number): Promise<void> {
  const rows = await tx.execute<{ community_id: string; status: string; role: string }>(sql`
    select community_id, status, role from community_members where account_id = ${accountId} order by community_id`);
  for (const r of rows) {
    const id = Number(r.community_id);
    await tx.execute(sql`select 1 from communities where id = ${id} for update`);
    await tx.execute(sql`delete from community_members where community_id = ${id} and account_id = ${accountId}`);
    if (r.status !== "MEMBER") continue;
    await tx.execute(sql`update communities set members_count = members_count - 1 where id = ${id}`);
    if (r.role !== "OWNER") continue;
    const [heir] = await tx.execute<{ account_id: string }>(sql`
      select account_id from community_members
      where community_id = ${id} and status = 'MEMBER'
      order by case role when 'ADMIN' then 0 when 'MODERATOR' then 1 else 2 end, since, account_id
      limit 1`);
    if (heir) {
      await tx.execute(sql`update community_members set role = 'OWNER' where community_id = ${id} and account_id = ${heir.account_id}`);
      await tx.execute(sql`update communities set owner_id = ${heir.account_id} where id = ${id}`);
    } else {
      await tx.execute(sql`update communities set is_deleted = true, deleted_at = coalesce(deleted_at, now()) where id = ${id}`);
    }
  }
}
