import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { accounts } from "@/db/schema";
import { dropPasswordLinks } from "./links";
import { revokeAllSessions } from "./sessions";

/**
 * Stores a new password hash and signs the account out everywhere: whoever knew the old password
 * (or holds a stolen session) is out. Other password links die with it.
 */
export async function applyNewPassword(tx: Tx, input: { accountId: number; passwordHash: string; spentSecret: string }) {
  await tx
    .update(accounts)
    .set({ passwordHash: input.passwordHash, updatedAt: sql`now()` })
    .where(eq(accounts.id, input.accountId));
  await dropPasswordLinks(tx, input.accountId, input.spentSecret);
  await revokeAllSessions(tx, input.accountId);
}
