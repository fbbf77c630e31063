import "server-only";
import { eq, sql } from "drizzle-orm";
import { accounts } from "@/db/schema";
import { verifyAgainstDummy, verifyPassword } from "@/lib/server/auth/password";
import { ServiceError, UnauthorizedError } from "@/lib/server/http/errors";
import { translate } from "@/lib/server/http/translate";
import type { Tx } from "@/db/client";
import { DEFAULT_LOCALE } from "@/lib/i18n/config";
import { loginInput } from "@/lib/validation/auth";
import { liftEndedBlocks } from "../admin/ended-blocks";
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
  const pair = await withTransaction(ctx, async (tx) => {
    if (account.isBlocked) await refuseBlocked(tx, ctx, account.id);
    await tx.update(accounts).set({ lastOnlineTime: sql`now()` }).where(eq(accounts.id, account.id));
    return openSession(tx, { accountId: account.id, userAgent, ip: ctx.ip });
  });
  return { ...pair, accountId: account.id };
}

/**
 * A blocked account's sign-in (issue 26): a block for a period that has passed ends here (with its audit
 * row, by the system); otherwise the refusal says why — the reason of the latest block in the audit log
 * (audit_log_target_account_idx) — and until when, also as `issues` (reason, until) for other clients.
 */
async function refuseBlocked(tx: Tx, ctx: ServiceCtx, accountId: number): Promise<void> {
  if ((await liftEndedBlocks(tx, new Date(), accountId)).length > 0) return;
  const [block] = await tx.execute<{ reason: string | null; until: string | null }>(sql`
    select (select l.reason from audit_log l where l.target_account_id = a.id and l.action = 'USER_BLOCKED' order by l.id desc limit 1) as reason,
           to_json(a.blocked_until) #>> '{}' as until
    from accounts a where a.id = ${accountId}`);
  const locale = ctx.locale ?? DEFAULT_LOCALE;
  const parts = [translate(locale, "errors.accountBlocked")];
  if (block?.reason) parts.push(`${translate(locale, "errors.blockReason")}: ${block.reason}`);
  if (block?.until) {
    const until = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(new Date(block.until));
    parts.push(`${translate(locale, "errors.blockedUntil")} ${until} (UTC)`);
  }
  const issues = [
    ...(block?.reason ? [{ path: "reason", message: block.reason }] : []),
    ...(block?.until ? [{ path: "until", message: new Date(block.until).toISOString() }] : []),
  ];
  throw new ServiceError("unauthorized", parts.join(". ") + ".", issues.length ? issues : undefined);
}
