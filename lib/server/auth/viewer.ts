import "server-only";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { accounts, sessions } from "@/db/schema";
import { verifyAccessToken } from "./tokens";

export type Viewer = {
  id: number;
  sessionId: string;
  role: "USER" | "MODERATOR" | "ADMIN";
  isDeleted: boolean;
  language: string;
};

/**
 * The signed-in account behind an access token, or null. Checks the signature and expiry, then
 * that the session was not revoked (logout, password change, refresh reuse) and the account exists.
 */
export async function resolveViewer(db: DbOrTx, token: string | undefined, secret: string): Promise<Viewer | null> {
  if (!token) return null;
  const claims = await verifyAccessToken(token, secret);
  if (!claims) return null;
  const [row] = await db
    .select({
      id: accounts.id,
      role: accounts.role,
      isDeleted: accounts.isDeleted,
      isBlocked: accounts.isBlocked,
      language: accounts.language,
    })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(
      and(
        eq(sessions.id, claims.sessionId),
        eq(sessions.accountId, claims.accountId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date()),
      ),
    )
    .limit(1);
  if (!row || row.isBlocked) return null;
  return { id: row.id, sessionId: claims.sessionId, role: row.role, isDeleted: row.isDeleted, language: row.language };
}
