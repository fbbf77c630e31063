import { and, eq, gt, inArray, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts, sessions } from "@/db/schema";

/**
 * Of the given session ids, those still valid: not revoked (logout, password change, refresh reuse),
 * not expired, and their account not blocked. Mirrors resolveViewer's checks for sockets that were
 * authenticated once at upgrade and stay open long after.
 */
export async function liveSessionIds(db: Db, sessionIds: string[]): Promise<Set<string>> {
  if (sessionIds.length === 0) return new Set();
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(
      and(
        inArray(sessions.id, sessionIds),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date()),
        eq(accounts.isBlocked, false),
      ),
    );
  return new Set(rows.map((r) => r.id));
}
