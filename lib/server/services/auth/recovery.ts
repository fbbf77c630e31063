import "server-only";
import { hashPassword } from "@/lib/server/auth/password";
import { NotFoundError } from "@/lib/server/http/errors";
import { queueMail } from "@/lib/server/mail/queue";
import { linkMail } from "@/lib/server/mail/templates";
import { recoveryRequestInput, recoverySetInput } from "@/lib/validation/auth";
import { withTransaction, type ServiceCtx } from "../context";
import { appUrl, consumeLink, findLink, issueLink, LINK_TTL_SECONDS } from "./links";
import { accountByEmail } from "./lookup";
import { applyNewPassword } from "./passwords";

/** The page a recovery link opens (spec section 2). */
export function recoveryPagePath(secret: string): string {
  return `/change-password/${encodeURIComponent(secret)}`;
}

/**
 * Mails a recovery link when the address belongs to an account. The caller learns nothing either
 * way: same answer, and the mail leaves after the answer (a queued job), so SMTP latency does not tell either.
 */
export async function requestPasswordRecovery({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<void> {
  const { email } = recoveryRequestInput.parse(input);
  const account = await accountByEmail(ctx.db, email);
  if (!account || account.isBlocked) return;
  // The link and its mail commit together: the mail is queued (pg-boss), so a restart loses none.
  await withTransaction(ctx, async (tx) => {
    const secret = await issueLink(tx, { accountId: account.id, kind: "PASSWORD_RECOVERY" });
    const mail = linkMail({
      kind: "recovery",
      to: account.email,
      language: account.language,
      firstName: account.firstName,
      href: appUrl(recoveryPagePath(secret)),
      vars: { minutes: LINK_TTL_SECONDS.PASSWORD_RECOVERY / 60 },
    });
    await queueMail(tx, mail, ctx.requestId);
  });
}

/** Sets a new password from a recovery link (single use, 5 minutes) and ends every session of the account. */
export async function resetPasswordWithLink({ ctx, secret, input }: { ctx: ServiceCtx; secret: string; input: unknown }): Promise<void> {
  const { password } = recoverySetInput.parse(input);
  const invalid = () => new NotFoundError("errors.linkInvalid");
  // A dead link is refused before the (deliberately slow) password hashing.
  if (!(await findLink(ctx.db, "PASSWORD_RECOVERY", secret))) throw invalid();
  const passwordHash = await hashPassword(password);
  await withTransaction(ctx, async (tx) => {
    const link = await consumeLink(tx, "PASSWORD_RECOVERY", secret);
    if (!link) throw invalid();
    await applyNewPassword(tx, { accountId: link.accountId, passwordHash, spentSecret: secret });
  });
}
