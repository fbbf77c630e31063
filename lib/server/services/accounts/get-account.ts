import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { accounts, friendships } from "@/db/schema";
import { ForbiddenError, NotFoundError } from "@/lib/server/http/errors";
import { accountIdParams } from "@/lib/validation/account";
import { requireViewer, type ServiceCtx } from "../context";
import { accountDtoSelection, toAccountDto, viewerFriendshipJoin, type AccountDto } from "./account-dto";

/** One account with the viewer's side of the relation, or null. */
export async function readAccountFor(db: DbOrTx, viewerId: number, accountId: number) {
  const [row] = await db
    .select({ ...accountDtoSelection, isBlocked: accounts.isBlocked })
    .from(accounts)
    .leftJoin(friendships, viewerFriendshipJoin(viewerId))
    .where(eq(accounts.id, accountId))
    .limit(1);
  return row ?? null;
}

/** GET account/me — the viewer's own account, with e-mail and the restore window. */
export async function getMyAccount({ ctx }: { ctx: ServiceCtx }): Promise<AccountDto> {
  const viewer = requireViewer(ctx);
  const row = await readAccountFor(ctx.tx ?? ctx.db, viewer.id, viewer.id);
  if (!row) throw new NotFoundError("accountErrors.notFound");
  return toAccountDto(row, { viewerId: viewer.id, locale: ctx.locale });
}

/** GET account/{id} — another account as the viewer sees it; a deleted or unknown one is 404. */
export async function getAccount({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<AccountDto> {
  const viewer = requireViewer(ctx);
  const parsed = accountIdParams.safeParse(input);
  if (!parsed.success) throw new NotFoundError("accountErrors.notFound");
  const { id } = parsed.data;
  // A deleted account sees only itself until it is restored.
  if (viewer.isDeleted && id !== viewer.id) throw new ForbiddenError("accountErrors.accountDeleted");
  const row = await readAccountFor(ctx.tx ?? ctx.db, viewer.id, id);
  if (!row || (row.isDeleted && id !== viewer.id)) throw new NotFoundError("accountErrors.notFound");
  // An account blocked by the administration is gone for everyone but staff.
  if (row.isBlocked && id !== viewer.id && viewer.role === "USER") throw new NotFoundError("accountErrors.notFound");
  return toAccountDto(row, { viewerId: viewer.id, locale: ctx.locale });
}
