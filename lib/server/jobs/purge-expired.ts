import "server-only";
import { lt } from "drizzle-orm";
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
