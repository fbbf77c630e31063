import "server-only";
import { eq } from "drizzle-orm";
import { accounts } from "@/db/schema";
import { NotFoundError } from "@/lib/server/http/errors";
import { forgetAccounts } from "@/lib/server/auth/session-cache";
import { withTransaction, type ServiceCtx } from "../context";

/** Operators' tool (CLI): makes an account a moderator or administrator, or a regular user again. */
export async function grantRole({ ctx, accountId, role }: { ctx: ServiceCtx; accountId: number; role: "USER" | "MODERATOR" | "ADMIN" }) {
  const updated = await withTransaction(ctx, async (tx) => {
    forgetAccounts(tx, [accountId]);
    return tx.update(accounts).set({ role }).where(eq(accounts.id, accountId)).returning({ id: accounts.id });
  });
  if (updated.length === 0) throw new NotFoundError();
}
