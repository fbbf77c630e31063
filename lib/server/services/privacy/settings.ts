import "server-only";
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { accounts } from "@/db/schema";
import { forgetAccountRows } from "@/lib/server/auth/session-cache";
import { BadRequestError, ForbiddenError, NotFoundError, zodIssues } from "@/lib/server/http/errors";
import { consumeAccountLimits } from "@/lib/server/http/rate-limit";
import { PRIVACY_ERRORS, privacyUpdateInput, type PrivacySettings } from "@/lib/validation/privacy";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { mutualFriendSql } from "./rules";

const columns = {
  profileVisibility: accounts.profileVisibility,
  messagesFrom: accounts.messagesFrom,
  friendRequestsFrom: accounts.friendRequestsFrom,
  searchable: accounts.searchable,
};

/** An account's four settings (a primary-key read), or null when there is no such account. */
export async function readPrivacy(db: DbOrTx, accountId: number): Promise<PrivacySettings | null> {
  const [row] = await db.select(columns).from(accounts).where(eq(accounts.id, accountId)).limit(1);
  return row ?? null;
}

/** Whether `a` and `b` share a friend (the FRIENDS_OF_FRIENDS test). */
export async function haveMutualFriend(db: DbOrTx, a: number, b: number): Promise<boolean> {
  const [row] = await db.execute<{ yes: boolean }>(sql`select ${mutualFriendSql(a, b)} as yes`);
  return Boolean(row?.yes);
}

/** GET account/privacy — the viewer's four settings. */
export async function getPrivacySettings({ ctx }: { ctx: ServiceCtx }): Promise<PrivacySettings> {
  const viewer = requireViewer(ctx);
  const found = await readPrivacy(ctx.tx ?? ctx.db, viewer.id);
  if (!found) throw new NotFoundError("accountErrors.notFound");
  return found;
}

/**
 * PUT account/privacy — changes any of the four settings and answers all four. A value outside its
 * list or an unknown field is a 400 with per-field issues; RATE_LIMIT_PRIVACY per account (ADR 0109).
 * Takes effect on the next read of every path: nothing caches it.
 */
export async function updatePrivacySettings({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<PrivacySettings> {
  const viewer = requireViewer(ctx);
  if (viewer.isDeleted) throw new ForbiddenError("accountErrors.accountDeleted");
  const parsed = privacyUpdateInput.safeParse(input);
  if (!parsed.success) {
    const issues = zodIssues(parsed.error);
    throw new BadRequestError(issues[0]?.message ?? PRIVACY_ERRORS.invalidValue, issues);
  }
  await consumeAccountLimits(["privacy"], viewer.id);
  const set = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined));
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx
      .update(accounts)
      .set({ ...set, updatedAt: sql`now()` })
      .where(eq(accounts.id, viewer.id))
      .returning(columns);
    if (!row) throw new NotFoundError("accountErrors.notFound");
    // The DTO shows what these allow: this process's copy of the row goes at once (docs/adr/0155).
    forgetAccountRows(tx, [viewer.id]);
    return row;
  });
}
