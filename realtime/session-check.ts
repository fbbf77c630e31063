import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts, sessions } from "@/db/schema";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Of the given session ids, those still valid: not revoked (logout, password change, refresh reuse),
 * not expired, and their account not blocked. Mirrors resolveViewer's checks for sockets that were
 * authenticated once at upgrade and stay open long after.
 */
export async function liveSessionIds(db: Db, sessionIds: string[]): Promise<Set<string>> {
  const ids = sessionIds.filter((id) => UUID.test(id));
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(
      and(
        // One text parameter made into an array: a parameter per id breaks past 65,535 (the protocol's limit).
        sql`${sessions.id} = any(string_to_array(${ids.join(",")}, ',')::uuid[])`,
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date()),
        eq(accounts.isBlocked, false),
      ),
    );
  return new Set(rows.map((r) => r.id));
}
