import "server-only";
import { sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { NotFoundError } from "@/lib/server/http/errors";
import { ADMIN_ERRORS, blockInput, idParams } from "@/lib/validation/admin";
import { excerpt, notify, QUOTE_MAX } from "../notifications/produce";
import { withTransaction, type ServiceCtx } from "../context";
import { parseAdmin, requireStaff } from "./access";
import { recordAudit } from "./audit";

// The staff's block of a community (issue 42): as a post's (./content.ts). A blocked community is absent to
// everyone, its owner too (communities/access.ts visible → 404 on every path; search, its posts' visibleTo
// and the members' feed merge leave it out); unblocking brings it back as it was.

/**
 * Blocks or unblocks community `id` in the caller's transaction, with its audit row (COMMUNITY_BLOCKED /
 * COMMUNITY_UNBLOCKED, the owner as the target account; the report queue's BLOCK_CONTENT uses it too). The
 * community's row is locked first, as every change of it is. Repeating changes nothing and records nothing;
 * a missing or deleted community is a 404.
 */
export async function setCommunityBlockedIn(
  tx: Tx,
  input: { actorId: number; id: number; blocked: boolean; reason?: string | null; details?: Record<string, unknown> },
): Promise<void> {
  const { id, blocked } = input;
  const [row] = await tx.execute<{ owner_id: string; name: string; is_blocked: boolean; is_deleted: boolean }>(
    sql`select owner_id, name, is_blocked, is_deleted from communities where id = ${id} for update`,
  );
  if (!row || row.is_deleted) throw new NotFoundError(ADMIN_ERRORS.notFound);
  if (row.is_blocked === blocked) return;
  await tx.execute(sql`update communities set is_blocked = ${blocked} where id = ${id}`);
  await recordAudit(tx, {
    actorId: input.actorId,
    action: blocked ? "COMMUNITY_BLOCKED" : "COMMUNITY_UNBLOCKED",
    targetType: "COMMUNITY",
    targetId: id,
    targetAccountId: Number(row.owner_id),
    reason: input.reason,
    details: input.details,
  });
  // The owner is told at once which community was blocked and why, as an author is of a post (issue 40).
  if (blocked) {
    const quote = excerpt(row.name, QUOTE_MAX);
    await notify(tx, {
      type: "CONTENT_BLOCKED",
      actorId: null,
      recipients: [Number(row.owner_id)],
      communityId: id,
      content: quote,
      details: { targetType: "COMMUNITY", excerpt: quote, reason: input.reason ?? null },
    });
  }
}

/** PUT admin/communities/{id}/block|unblock {reason?} — staff only; audited with the reason. */
export async function setCommunityBlocked({
  ctx,
  input,
  blocked,
}: {
  ctx: ServiceCtx;
  input: { id: unknown; body?: unknown };
  blocked: boolean;
}): Promise<{ id: number; isBlocked: boolean }> {
  const viewer = requireStaff(ctx);
  const { id } = parseAdmin(idParams, { id: input.id });
  const { reason } = parseAdmin(blockInput, input.body ?? {});
  return withTransaction(ctx, async (tx) => {
    await setCommunityBlockedIn(tx, { actorId: viewer.id, id, blocked, reason });
    return { id, isBlocked: blocked };
  });
}
