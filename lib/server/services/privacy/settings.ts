import "server-only";
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { accounts } from "@/db/schema";
import { forgetAccountRows } from "@/lib/server/auth/session-cache";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, zodIssues } from "@/lib/server/http/errors";
import { ensureActorKeys } from "@/lib/server/federation/keys";
import { queueLeavingFediverse } from "@/lib/server/federation/outbox";
import { isUniqueViolation } from "../auth/lookup";
import { consumeAccountLimits } from "@/lib/server/http/rate-limit";
import { PRIVACY_ERRORS, privacyUpdateInput, type PrivacySettings } from "@/lib/validation/privacy";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { mutualFriendSql } from "./rules";

const columns = {
  profileVisibility: accounts.profileVisibility,
  messagesFrom: accounts.messagesFrom,
  friendRequestsFrom: accounts.friendRequestsFrom,
  searchable: accounts.searchable,
  fediverse: accounts.fediverse,
  fediverseName: accounts.fediverseName,
};

/** An account's settings (a primary-key read), or null when there is no such account. */
export async function readPrivacy(db: DbOrTx, accountId: number): Promise<PrivacySettings | null> {
  const [row] = await db.select(columns).from(accounts).where(eq(accounts.id, accountId)).limit(1);
  return row ?? null;
}

/** Whether `a` and `b` share a friend (the FRIENDS_OF_FRIENDS test). */
export async function haveMutualFriend(db: DbOrTx, a: number, b: number): Promise<boolean> {
  const [row] = await db.execute<{ yes: boolean }>(sql`select ${mutualFriendSql(a, b)} as yes`);
  return Boolean(row?.yes);
}

/** GET account/privacy — the viewer's settings. */
export async function getPrivacySettings({ ctx }: { ctx: ServiceCtx }): Promise<PrivacySettings> {
  const viewer = requireViewer(ctx);
  const found = await readPrivacy(ctx.tx ?? ctx.db, viewer.id);
  if (!found) throw new NotFoundError("accountErrors.notFound");
  return found;
}

/**
 * PUT account/privacy — changes any of the settings and answers them all. A value outside its list or
 * an unknown field is a 400 with per-field issues; a short fediverse name someone else holds is a 409;
 * RATE_LIMIT_PRIVACY per account (ADR 0109). Takes effect on the next read of every path: nothing caches
 * it. Switching the fediverse on makes the account's actor keys first, once (docs/adr/0172).
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
  if (parsed.data.fediverse) await ensureActorKeys(ctx.tx ?? ctx.db, viewer.id);
  try {
    return await withTransaction(ctx, async (tx) => {
      const [before] = await tx.execute<{ federated: boolean }>(
        sql`select fediverse and profile_visibility = 'ALL' as federated from accounts where id = ${viewer.id} for no key update`,
      );
      const [row] = await tx
        .update(accounts)
        .set({ ...set, updatedAt: sql`now()` })
        .where(eq(accounts.id, viewer.id))
        .returning(columns);
      if (!row) throw new NotFoundError("accountErrors.notFound");
      // Switched off, or the page closed: the fediverse hears the actor is gone, in this transaction (issue 43).
      if (before?.federated && !(row.fediverse && row.profileVisibility === "ALL")) await queueLeavingFediverse(tx, viewer.id);
      // The DTO shows what these allow: this process's copy of the row goes at once (docs/adr/0155).
      forgetAccountRows(tx, [viewer.id]);
      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConflictError(PRIVACY_ERRORS.fediverseNameTaken);
    throw err;
  }
}
