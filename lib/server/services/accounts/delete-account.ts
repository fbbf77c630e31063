import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { accounts } from "@/db/schema";
import { forgetAccounts } from "@/lib/server/auth/session-cache";
import { NotFoundError } from "@/lib/server/http/errors";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { toAccountDto, type AccountDto } from "./account-dto";
import { readAccountFor } from "./get-account";

/**
 * DELETE account/me — flags the account deleted. It stays signed in (the deleted-account screen
 * offers to restore it) until DELETION_RESTORE_DAYS pass; then anonymiseExpiredAccounts erases it.
 * Deleting twice keeps the first deletion time, so the window cannot be stretched.
 */
export async function deleteMyAccount({ ctx }: { ctx: ServiceCtx }): Promise<AccountDto> {
  const viewer = requireViewer(ctx);
  return withTransaction(ctx, async (tx) => {
    // The session check reads the deletion state: this process's session cache forgets it (docs/adr/0135).
    forgetAccounts(tx, [viewer.id]);
    await tx
      .update(accounts)
      .set({ isDeleted: true, deletionTimestamp: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(accounts.id, viewer.id), eq(accounts.isDeleted, false)));
    const row = await readAccountFor(tx, viewer.id, viewer.id);
    if (!row) throw new NotFoundError("accountErrors.notFound");
    return toAccountDto(row, { viewerId: viewer.id, locale: ctx.locale });
  });
}
