import "server-only";
import { hashPassword } from "@/lib/server/auth/password";
import { NotFoundError, ServiceError } from "@/lib/server/http/errors";
import { log } from "@/lib/server/log";
import { sendMail, type Mail } from "@/lib/server/mail/send";
import { linkMail } from "@/lib/server/mail/templates";
import { notifyMailSent } from "@/lib/server/services/notifications/producers";
import { passwordChangeInput } from "@/lib/validation/auth";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { appUrl, consumeLink, findLink, issueLink, LINK_TTL_SECONDS } from "./links";
import { accountById } from "./lookup";
import { applyNewPassword } from "./passwords";
import { openSession, type TokenPair } from "./sessions";

/** Sends a mail the person asked for right now; a failure is theirs to know about (503). */
export async function sendRequestedMail(ctx: ServiceCtx, mail: Mail): Promise<void> {
  try {
    await sendMail(mail);
  } catch (err) {
    log.error({ err, requestId: ctx.requestId }, "mail failed");
    throw new ServiceError("unavailable", "errors.mailFailed");
  }
}

/** Settings → "change password": mails the signed-in account a link to /shift-password. */
export async function requestPasswordChangeLink({ ctx }: { ctx: ServiceCtx }): Promise<void> {
  const viewer = requireViewer(ctx);
  const account = await accountById(ctx.db, viewer.id);
  if (!account) throw new NotFoundError();
  const secret = await withTransaction(ctx, async (tx) => {
    const issued = await issueLink(tx, { accountId: account.id, kind: "PASSWORD_CHANGE" });
    await notifyMailSent(tx, { accountId: account.id, kind: "PASSWORD_CHANGE" });
    return issued;
  });
  await sendRequestedMail(
    ctx,
    linkMail({
      kind: "passwordChange",
      to: account.email,
      language: account.language,
      firstName: account.firstName,
      href: appUrl(`/shift-password?secret=${encodeURIComponent(secret)}`),
      vars: { minutes: LINK_TTL_SECONDS.PASSWORD_CHANGE / 60 },
    }),
  );
}

/**
 * Sets a new password from a password-change link. The mailed secret is the proof (a session
 * alone is not: a stolen cookie must not be enough to lock the owner out). Every session of the
 * account ends; when the request comes from the account itself, it gets a fresh session in
 * return, so the browser that changed the password stays signed in.
 */
export async function changePassword({
  ctx,
  input,
  userAgent,
}: {
  ctx: ServiceCtx;
  input: unknown;
  userAgent?: string | null;
}): Promise<{ tokens: TokenPair | null }> {
  const { secret, password1 } = passwordChangeInput.parse(input);
  const invalid = () => new NotFoundError("errors.linkInvalid");
  if (!(await findLink(ctx.db, "PASSWORD_CHANGE", secret))) throw invalid();
  const passwordHash = await hashPassword(password1);
  return withTransaction(ctx, async (tx) => {
    const link = await consumeLink(tx, "PASSWORD_CHANGE", secret);
    if (!link) throw invalid();
    await applyNewPassword(tx, { accountId: link.accountId, passwordHash, spentSecret: secret });
    const own = ctx.viewer?.id === link.accountId;
    return { tokens: own ? await openSession(tx, { accountId: link.accountId, userAgent, ip: ctx.ip }) : null };
  });
}
