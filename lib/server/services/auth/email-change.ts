import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import { accounts, oneTimeLinks } from "@/db/schema";
import { verifyPassword } from "@/lib/server/auth/password";
import { forgetAccountRows } from "@/lib/server/auth/session-cache";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/server/http/errors";
import { queueMail } from "@/lib/server/mail/queue";
import { notifyMailSent } from "@/lib/server/services/notifications/producers";
import { emailChangedMail, linkMail } from "@/lib/server/mail/templates";
import { emailChangeConfirmInput, emailChangeRequestInput } from "@/lib/validation/auth";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { appUrl, consumeLink, issueLink, LINK_TTL_SECONDS } from "./links";
import { accountByEmail, accountById, isUniqueViolation } from "./lookup";
import { sendRequestedMail } from "./password-change";
import { revokeAllSessions } from "./sessions";

/**
 * Settings → "change e-mail": checks the current password, then mails a confirmation link to the NEW
 * address. Nothing changes until that link is opened, so a typo or somebody else's address never takes
 * over the account.
 */
export async function requestEmailChangeLink({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<void> {
  const viewer = requireViewer(ctx);
  const { email, password } = emailChangeRequestInput.parse(input);
  const account = await accountById(ctx.db, viewer.id);
  if (!account) throw new NotFoundError();
  // The current password, not just a session: a stolen cookie must not move the account elsewhere.
  const [{ passwordHash }] = await ctx.db.select({ passwordHash: accounts.passwordHash }).from(accounts).where(eq(accounts.id, account.id));
  if (!(await verifyPassword(passwordHash, password))) {
    throw new ValidationError("errors.wrongPassword", [{ path: "password", message: "errors.wrongPassword" }]);
  }
  if (account.email.toLowerCase() === email.toLowerCase()) {
    throw new ValidationError("errors.sameEmail", [{ path: "email", message: "errors.sameEmail" }]);
  }
  if (await accountByEmail(ctx.db, email)) throw new ConflictError("errors.emailTaken");
  const secret = await withTransaction(ctx, async (tx) => {
    const issued = await issueLink(tx, { accountId: account.id, kind: "EMAIL_CHANGE", newEmail: email });
    await notifyMailSent(tx, { accountId: account.id, kind: "EMAIL_CHANGE" });
    return issued;
  });
  await sendRequestedMail(
    ctx,
    linkMail({
      kind: "emailChange",
      to: email,
      language: account.language,
      firstName: account.firstName,
      href: appUrl(`/shift-email-confirm?secret=${encodeURIComponent(secret)}`),
      vars: { hours: LINK_TTL_SECONDS.EMAIL_CHANGE / 3600 },
    }),
  );
}

/**
 * Applies a link of PUT auth/email: the confirmation mailed to the new address (the change happens; the
 * old address gets a notice with an undo link), or that undo link (the old address comes back, every
 * session of the account ends and pending e-mail changes are dropped, so a hijacker is locked out).
 */
export async function confirmEmailChange({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<{ email: string }> {
  const { secret } = emailChangeConfirmInput.parse(input);
  const changed = await withTransaction(ctx, async (tx) => {
    const change = await consumeLink(tx, "EMAIL_CHANGE", secret);
    const undo = change ? undefined : await consumeLink(tx, "EMAIL_UNDO", secret);
    const link = change ?? undo;
    if (!link?.newEmail) throw new NotFoundError("errors.linkInvalid");
    const before = await accountById(tx, link.accountId);
    if (!before) throw new NotFoundError("errors.linkInvalid");
    // Somebody may have registered the address since the link was sent.
    const holder = await accountByEmail(tx, link.newEmail);
    if (holder && holder.id !== link.accountId) throw new ConflictError("errors.emailTaken");
    try {
      await tx.update(accounts).set({ email: link.newEmail, updatedAt: sql`now()` }).where(eq(accounts.id, link.accountId));
      forgetAccountRows(tx, [link.accountId]);
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError("errors.emailTaken");
      throw err;
    }
    if (undo) {
      await revokeAllSessions(tx, link.accountId);
      await tx
        .delete(oneTimeLinks)
        .where(and(eq(oneTimeLinks.accountId, link.accountId), inArray(oneTimeLinks.kind, ["EMAIL_CHANGE", "EMAIL_UNDO"])));
      return { email: link.newEmail };
    }
    // The old address may undo this change (it keeps the address to restore). The notice is queued in
    // this transaction, so the change never happens without it (docs/adr/0045).
    const undoSecret = await issueLink(tx, { accountId: link.accountId, kind: "EMAIL_UNDO", newEmail: before.email });
    await notifyMailSent(tx, { accountId: link.accountId, kind: "EMAIL_CHANGED" });
    await queueMail(
      tx,
      emailChangedMail({
        to: before.email,
        language: before.language,
        firstName: before.firstName,
        newEmail: link.newEmail,
        undoHref: appUrl(`/shift-email-confirm?secret=${encodeURIComponent(undoSecret)}`),
      }),
      ctx.requestId,
    );
    return { email: link.newEmail };
  });
  return { email: changed.email };
}
