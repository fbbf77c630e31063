import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditLog } from "@/db/schema";

/** ADMIN_EMAILS: "a@x.org, B@y.org" → ["a@x.org", "b@y.org"] (empty entries dropped). */
export function parseAdminEmails(value: string | undefined): string[] {
  return [...new Set((value ?? "").split(/[,;\s]+/).map((e) => e.trim().toLowerCase()).filter((e) => e.includes("@")))];
}

/**
 * Start-up promotion (issue 13): the accounts of these e-mails become administrators. Each promotion is
 * audited (no actor: the operator's configuration did it). Accounts already ADMIN are left alone, so a
 * restart records nothing new. Returns the promoted account ids.
 */
export async function promoteAdminEmails(db: Db, emails: string[]): Promise<number[]> {
  if (emails.length === 0) return [];
  return db.transaction(async (tx) => {
    const rows = await tx.execute<{ id: string; old_role: string }>(sql`
      update accounts a set role = 'ADMIN', updated_at = now()
      from (select id, role from accounts
            where lower(email) = any(string_to_array(${emails.join(",")}, ',')) and role <> 'ADMIN' for update) o
      where a.id = o.id
      returning a.id, o.role as old_role`);
    if (rows.length) {
      await tx.insert(auditLog).values(
        rows.map((r) => ({
          actorId: null,
          action: "ROLE_CHANGED",
          targetType: "ACCOUNT",
          targetId: Number(r.id),
          targetAccountId: Number(r.id),
          details: { from: r.old_role, to: "ADMIN", by: "ADMIN_EMAILS" },
        })),
      );
    }
    return rows.map((r) => Number(r.id));
  });
}
