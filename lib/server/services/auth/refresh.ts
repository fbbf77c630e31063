import "server-only";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { accounts, refreshTokens, sessions } from "@/db/schema";
import { hashToken, sealToken, signAccessToken, unsealToken } from "@/lib/server/auth/tokens";
import { env } from "@/lib/server/env";
import { UnauthorizedError } from "@/lib/server/http/errors";
import { log } from "@/lib/server/log";
import { withTransaction, type ServiceCtx } from "../context";
import { issuePair, REFRESH_GRACE_SECONDS, revokeSession, type TokenPair } from "./sessions";

// A repeat may follow a chain of rotations made within the window (tab A rotates, tab B repeats).
const MAX_GRACE_HOPS = 5;

type Row = {
  sessionId: string;
  spentAt: Date | null;
  expiresAt: Date;
  successorSealed: string | null;
  accountId: number;
  revokedAt: Date | null;
  sessionExpiresAt: Date;
  isBlocked: boolean;
};

async function tokenRow(tx: Tx, tokenHash: string, lock: boolean): Promise<Row | undefined> {
  if (lock) {
    // Lock the session first, in a statement of its own, and read the token after it. Locking inside the
    // read (FOR UPDATE OF sessions) would let a waiter re-check only the session row once the lock is
    // free and keep the token's pre-wait version: it would see the token unspent, rotate it again and
    // fail (ten parallel refreshes signed people out). A new statement reads what the holder committed.
    await tx
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.id, tx.select({ id: refreshTokens.sessionId }).from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash))))
      .for("update");
  }
  const q = tx
    .select({
      sessionId: refreshTokens.sessionId,
      spentAt: refreshTokens.spentAt,
      expiresAt: refreshTokens.expiresAt,
      successorSealed: refreshTokens.successorSealed,
      accountId: sessions.accountId,
      revokedAt: sessions.revokedAt,
      sessionExpiresAt: sessions.expiresAt,
      isBlocked: accounts.isBlocked,
    })
    .from(refreshTokens)
    .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(eq(refreshTokens.tokenHash, tokenHash))
    .limit(1);
  const [row] = await q;
  return row;
}

const withinGrace = (spentAt: Date, now: number) => now - spentAt.getTime() <= REFRESH_GRACE_SECONDS * 1000;

/**
 * Rotates a refresh token: the presented one is spent and a new pair issued in the same session.
 * Parallel requests of one browser (pages, tabs, the page guard) often present the same token within
 * milliseconds: a repeat within REFRESH_GRACE_SECONDS gets the same successor token (and a fresh access
 * token of the session). Presenting a spent token after that means it leaked (RFC 9700 §4.14.2): the
 * whole session is revoked. An account blocked by the administration cannot refresh.
 */
export async function refreshSession({ ctx, refreshToken }: { ctx: ServiceCtx; refreshToken: string | undefined }): Promise<TokenPair> {
  if (!refreshToken) throw new UnauthorizedError("errors.sessionExpired");
  const secret = env().AUTH_SECRET;
  const tokenHash = hashToken(refreshToken);
  const outcome = await withTransaction(ctx, async (tx) => {
    // The session row lock serialises concurrent refreshes of one session: a second one waits and sees
    // the first one's rotation.
    const row = await tokenRow(tx, tokenHash, true);
    const now = Date.now();
    if (!row || row.revokedAt || row.isBlocked || row.expiresAt.getTime() <= now) return { kind: "invalid" as const };
    if (row.spentAt) {
      // A repeat: inside the window, answer with the newest token of the chain it started.
      let current: Row = row;
      for (let hop = 0; hop < MAX_GRACE_HOPS; hop++) {
        if (!current.spentAt) break;
        if (!withinGrace(current.spentAt, now) || !current.successorSealed) {
          await revokeSession(tx, row.sessionId);
          return { kind: "reused" as const, sessionId: row.sessionId };
        }
        const successor = unsealToken(current.successorSealed, secret);
        const next = successor ? await tokenRow(tx, hashToken(successor), false) : undefined;
        if (!successor || !next || next.sessionId !== row.sessionId) return { kind: "invalid" as const };
        if (!next.spentAt) {
          const accessToken = await signAccessToken({ accountId: row.accountId, sessionId: row.sessionId }, secret);
          return { kind: "ok" as const, pair: { accessToken, refreshToken: successor } };
        }
        current = next;
      }
      await revokeSession(tx, row.sessionId);
      return { kind: "reused" as const, sessionId: row.sessionId };
    }
    const pair = await issuePair(tx, row.accountId, row.sessionId, row.sessionExpiresAt);
    const spent = await tx
      .update(refreshTokens)
      .set({ spentAt: sql`now()`, successorSealed: sealToken(pair.refreshToken, secret) })
      .where(and(eq(refreshTokens.tokenHash, tokenHash), isNull(refreshTokens.spentAt), gt(refreshTokens.expiresAt, sql`now()`)))
      .returning({ tokenHash: refreshTokens.tokenHash });
    if (spent.length === 0) return { kind: "invalid" as const };
    await tx.update(sessions).set({ lastUsedAt: sql`now()` }).where(eq(sessions.id, row.sessionId));
    return { kind: "ok" as const, pair };
  });
  if (outcome.kind === "reused") {
    log.warn({ requestId: ctx.requestId, sessionId: outcome.sessionId }, "refresh token reuse: session revoked");
  }
  if (outcome.kind !== "ok") throw new UnauthorizedError("errors.sessionExpired");
  return outcome.pair;
}
