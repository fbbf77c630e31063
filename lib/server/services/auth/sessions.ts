import "server-only";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { refreshTokens, sessions } from "@/db/schema";
import type { Tx } from "@/db/client";
import { env } from "@/lib/server/env";
import {
  hashToken,
  randomToken,
  REFRESH_TTL_SECONDS,
  signAccessToken,
} from "@/lib/server/auth/tokens";
import { forgetAccounts, forgetSessions } from "@/lib/server/auth/session-cache";
import { endSessionsPushDevices } from "@/lib/server/services/push/subscriptions";

export type TokenPair = { accessToken: string; refreshToken: string };

/** Starts a session for an account and returns its first token pair. */
export async function openSession(
  tx: Tx,
  input: { accountId: number; userAgent?: string | null; ip?: string | null },
): Promise<TokenPair> {
  const expiresAt = new Date(Date.now() + REFRESH_TTL_SECONDS * 1000);
  const [session] = await tx
    .insert(sessions)
    .values({ accountId: input.accountId, userAgent: input.userAgent?.slice(0, 300), ip: input.ip, expiresAt })
    .returning({ id: sessions.id });
  return issuePair(tx, input.accountId, session.id, expiresAt);
}

/** The grace window of a rotated refresh token: a repeat within it gets the same successor. */
export const REFRESH_GRACE_SECONDS = 30;

export async function issuePair(tx: Tx, accountId: number, sessionId: string, expiresAt: Date): Promise<TokenPair> {
  const refreshToken = randomToken();
  await tx.insert(refreshTokens).values({ tokenHash: hashToken(refreshToken), sessionId, expiresAt });
  const accessToken = await signAccessToken({ accountId, sessionId }, env().AUTH_SECRET);
  return { accessToken, refreshToken };
}

/**
 * Ends one session (sign-out, refresh reuse); this process's session cache forgets it at once (docs/adr/0135),
 * and the push devices it subscribed go with their queued pushes (docs/adr/0163).
 */
export async function revokeSession(tx: Tx, sessionId: string): Promise<void> {
  forgetSessions(tx, [sessionId]);
  await endSessionsPushDevices(tx, { sessionId });
  await tx.update(sessions).set({ revokedAt: sql`now()` }).where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/**
 * Signs accounts out everywhere (password change or recovery, e-mail change, an admin's block, erasure):
 * every push device of theirs goes too, with its queued pushes (docs/adr/0163).
 */
export async function revokeAllSessions(tx: Tx, accountId: number | number[]): Promise<void> {
  const ids = Array.isArray(accountId) ? accountId : [accountId];
  forgetAccounts(tx, ids);
  await endSessionsPushDevices(tx, { accountIds: ids });
  await tx
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(inArray(sessions.accountId, ids), isNull(sessions.revokedAt)));
}
