import "server-only";
import { eq, sql } from "drizzle-orm";
import { accounts } from "@/db/schema";
import { verifyAgainstDummy, verifyPassword } from "@/lib/server/auth/password";
import { UnauthorizedError } from "@/lib/server/http/errors";
import { loginInput } from "@/lib/validation/auth";
import { withTransaction, type ServiceCtx } from "../context";
import { openSession, type TokenPair } from "./sessions";

/** Checks e-mail and password and opens a session. The same answer for an unknown e-mail and a wrong password. */
export async function login({
  ctx,
  input,
  userAgent,
}: {
  ctx: ServiceCtx;
  input: unknown;
  userAgent?: string | null;
}): Promise<TokenPair & { accountId: number }> {
  const { email, password } = loginInput.parse(input);
  const [account] = await ctx.db
    .select({ id: accounts.id, passwordHash: accounts.passwordHash, isBlocked: accounts.isBlocked })
    .from(accounts)
    .where(eq(sql`lower(${accounts.email})`, email.toLowerCase()))
    .limit(1);
  if (!account) {
    await verifyAgainstDummy(password);
    throw new UnauthorizedError("errors.badCredentials");
  }
  if (!(await verifyPassword(account.passwordHash, password))) throw new UnauthorizedError("errors.badCredentials");
  if (account.isBlocked) throw new UnauthorizedError("errors.accountBlocked");
  const pair = await withTransaction(ctx, async (tx) => {
    await tx.update(accounts).set({ lastOnlineTime: sql`now()` }).where(eq(accounts.id, account.id));
    return openSession(tx, { accountId: account.id, userAgent, ip: ctx.ip });
  });
  return { ...pair, accountId: account.id };
}
