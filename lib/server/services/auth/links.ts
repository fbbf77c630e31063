import "server-only";
import { and, eq, gt, inArray, isNull, ne, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { oneTimeLinks } from "@/db/schema";
import { hashToken, randomToken } from "@/lib/server/auth/tokens";
import { env } from "@/lib/server/env";
import { LINK_SECRET_PATTERN } from "@/lib/validation/auth";

export type LinkKind = (typeof oneTimeLinks.$inferSelect)["kind"];

/** How long a mailed link works. Recovery: about 5 minutes (spec section 9); the mail texts say so. */
export const LINK_TTL_SECONDS: Record<LinkKind, number> = {
  PASSWORD_RECOVERY: 5 * 60,
  PASSWORD_CHANGE: 30 * 60,
  EMAIL_CHANGE: 24 * 60 * 60,
  // The undo link in the mail to the old address after a change: a week to notice a hijack.
  EMAIL_UNDO: 7 * 24 * 60 * 60,
};

/** A new link for an account; it replaces every earlier link of the same kind. Returns the secret to mail. */
export async function issueLink(tx: Tx, input: { accountId: number; kind: LinkKind; newEmail?: string }): Promise<string> {
  await tx.delete(oneTimeLinks).where(and(eq(oneTimeLinks.accountId, input.accountId), eq(oneTimeLinks.kind, input.kind)));
  const secret = randomToken();
  await tx.insert(oneTimeLinks).values({
    tokenHash: hashToken(secret),
    kind: input.kind,
    accountId: input.accountId,
    newEmail: input.newEmail,
    expiresAt: new Date(Date.now() + LINK_TTL_SECONDS[input.kind] * 1000),
  });
  return secret;
}

function usable(kind: LinkKind, secret: string) {
  return and(
    eq(oneTimeLinks.tokenHash, hashToken(secret)),
    eq(oneTimeLinks.kind, kind),
    isNull(oneTimeLinks.usedAt),
    gt(oneTimeLinks.expiresAt, sql`now()`),
  );
}

export type LiveLink = { accountId: number; newEmail: string | null };

/** Whether a secret is a live link of this kind, without spending it. */
export async function findLink(db: DbOrTx, kind: LinkKind, secret: string): Promise<LiveLink | undefined> {
  if (!LINK_SECRET_PATTERN.test(secret)) return undefined;
  const [row] = await db
    .select({ accountId: oneTimeLinks.accountId, newEmail: oneTimeLinks.newEmail })
    .from(oneTimeLinks)
    .where(usable(kind, secret))
    .limit(1);
  return row;
}

/** Spends a link: of two concurrent uses only one gets the row. */
export async function consumeLink(tx: Tx, kind: LinkKind, secret: string): Promise<LiveLink | undefined> {
  if (!LINK_SECRET_PATTERN.test(secret)) return undefined;
  const [row] = await tx
    .update(oneTimeLinks)
    .set({ usedAt: sql`now()` })
    .where(usable(kind, secret))
    .returning({ accountId: oneTimeLinks.accountId, newEmail: oneTimeLinks.newEmail });
  return row;
}

/** After a password is set, every other password link of the account stops working. */
export async function dropPasswordLinks(tx: Tx, accountId: number, spentSecret: string): Promise<void> {
  await tx
    .delete(oneTimeLinks)
    .where(
      and(
        eq(oneTimeLinks.accountId, accountId),
        inArray(oneTimeLinks.kind, ["PASSWORD_RECOVERY", "PASSWORD_CHANGE"]),
        ne(oneTimeLinks.tokenHash, hashToken(spentSecret)),
      ),
    );
}

/** An absolute link into the app for a mail. */
export function appUrl(pathAndQuery: string): string {
  return `${env().PUBLIC_URL}${pathAndQuery}`;
}
