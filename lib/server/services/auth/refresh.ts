import "server-only";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { refreshTokens, sessions } from "@/db/schema";
import { hashToken } from "@/lib/server/auth/tokens";
import { UnauthorizedError } from "@/lib/server/http/errors";
import { log } from "@/lib/server/log";
import { withTransaction, type ServiceCtx } from "../context";
import { issuePair, revokeSession, type TokenPair } from "./sessions";

/**
 * Rotates a refresh token: the presented one is spent and a new pair issued in the same session.
 * Presenting a spent token means it leaked: the whole session is revoked.
 */
export async function refreshSession({ ctx, refreshToken }: { ctx: ServiceCtx; refreshToken: string | undefined }): Promise<TokenPair> {
  if (!refreshToken) throw new UnauthorizedError("errors.sessionExpired");
  const tokenHash = hashToken(refreshToken);
  const outcome = await withTransaction(ctx, async (tx) => {
    const [row] = await tx
      .select({
        sessionId: refreshTokens.sessionId,
        spentAt: refreshTokens.spentAt,
        expiresAt: refreshTokens.expiresAt,
        accountId: sessions.accountId,
        revokedAt: sessions.revokedAt,
        sessionExpiresAt: sessions.expiresAt,
      })
      .from(refreshTokens)
      .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
      .where(eq(refreshTokens.tokenHash, tokenHash))
      .for("update", { of: sessions })
      .limit(1);
    if (!row || row.revokedAt || row.expiresAt <= new Date()) return { kind: "invalid" as const };
    // Spend it only if nobody else did first; a concurrent or later reuse lands in the branch below.
    const spent = await tx
      .update(refreshTokens)
      .set({ spentAt: sql`now()` })
      .where(and(eq(refreshTokens.tokenHash, tokenHash), isNull(refreshTokens.spentAt), gt(refreshTokens.expiresAt, sql`now()`)))
      .returning({ tokenHash: refreshTokens.tokenHash });
    if (spent.length === 0) {
      await revokeSession(tx, row.sessionId);
      return { kind: "reused" as const, sessionId: row.sessionId };
    }
    await tx.update(sessions).set({ lastUsedAt: sql`now()` }).where(eq(sessions.id, row.sessionId));
    return { kind: "ok" as const, pair: await issuePair(tx, row.accountId, row.sessionId, row.sessionExpiresAt) };
  });
  if (outcome.kind === "reused") {
    log.warn({ requestId: ctx.requestId, sessionId: outcome.sessionId }, "refresh token reuse: session revoked");
  }
  if (outcome.kind !== "ok") throw new UnauthorizedError("errors.sessionExpired");
  return outcome.pair;
}
