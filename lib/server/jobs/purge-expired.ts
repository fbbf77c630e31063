import "server-only";
import { lt, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { captchas, oneTimeLinks } from "@/db/schema";

/** Deletes captchas past their expiry, used or not (a used one is refused anyway). Returns how many. */
export async function purgeExpiredCaptchas(db: DbOrTx, now: Date = new Date()): Promise<number> {
  const gone = await db.delete(captchas).where(lt(captchas.expiresAt, now)).returning({ secretHash: captchas.secretHash });
  return gone.length;
}

/** Deletes mailed links past their expiry, used or not: an expired link is refused either way. Returns how many. */
export async function purgeExpiredOneTimeLinks(db: DbOrTx, now: Date = new Date()): Promise<number> {
  const gone = await db.delete(oneTimeLinks).where(lt(oneTimeLinks.expiresAt, now)).returning({ tokenHash: oneTimeLinks.tokenHash });
  return gone.length;
}

/** A revoked session is kept this long (the log of why it ended stays readable), then deleted. */
export const REVOKED_SESSION_RETENTION_MS = 24 * 60 * 60 * 1000;
const PURGE_BATCH = 5_000;

/**
 * Deletes sessions past their (absolute, 30-day) expiry and sessions revoked more than a day ago; their
 * refresh tokens go with them (ON DELETE CASCADE). A live session keeps its spent tokens: presenting one
 * again is how a stolen token is noticed (RFC 9700), and the session's fixed lifetime bounds them.
 * A refresh token expires with its session (issuePair gives it the session's expiry), so none outlive
 * this. Batches keep each statement short. Returns how many sessions went.
 */
export async function purgeEndedSessions(db: DbOrTx, now: Date = new Date()): Promise<number> {
  const revokedBefore = new Date(now.getTime() - REVOKED_SESSION_RETENTION_MS);
  let total = 0;
  for (;;) {
    const gone = await db.execute<{ n: number }>(sql`
      with doomed as (
        select id from sessions
        where expires_at < ${now.toISOString()}::timestamptz or revoked_at < ${revokedBefore.toISOString()}::timestamptz
        limit ${PURGE_BATCH}
      )
      delete from sessions s using doomed where s.id = doomed.id
      returning 1 as n`);
    total += gone.length;
    if (gone.length < PURGE_BATCH) break;
  }
  return total;
}
