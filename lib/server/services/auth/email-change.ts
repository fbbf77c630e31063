import "server-only";
import { eq, sql } from "drizzle-orm";
import { accounts } from "@/db/schema";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/server/http/errors";
import { sendMailInBackground } from "@/lib/server/mail/send";
import { emailChangedMail, linkMail } from "@/lib/server/mail/templates";
import { emailChangeConfirmInput, emailChangeRequestInput } from "@/lib/validation/auth";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { appUrl, consumeLink, issueLink, LINK_TTL_SECONDS } from "./links";
import { accountByEmail, accountById, isUniqueViolation } from "./lookup";
import { sendRequestedMail } from "./password-change";

/**
 * Settings → "change e-mail": mails a confirmation link to the NEW address. Nothing changes until
 * that link is opened, so a typo or somebody else's address never takes over the account.
 */
export async function requestEmailChangeLink({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<void> {
  const viewer = requireViewer(ctx);
  const { email } = emailChangeRequestInput.parse(input);
  const account = await accountById(ctx.db, viewer.id);
  if (!account) throw new NotFoundError();
  if (account.email.toLowerCase() === email.toLowerCase()) {
    throw new ValidationError("errors.sameEmail", [{ path: "email", message: "errors.sameEmail" }]);
  }
  if (await accountByEmail(ctx.db, email)) throw new ConflictError("errors.emailTaken");
  const secret = await withTransaction(ctx, (tx) => issueLink(tx, { accountId: account.id, kind: "EMAIL_CHANGE", newEmail: email }));
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

/** Applies an e-mail change from its confirmation link; the old address is told about it. */
export async function confirmEmailChange({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<{ email: string }> {
  const { secret } = emailChangeConfirmInput.parse(input);
  const changed = await withTransaction(ctx, async (tx) => {
    const link = await consumeLink(tx, "EMAIL_CHANGE", secret);
    if (!link?.newEmail) throw new NotFoundError("errors.linkInvalid");
    const before = await accountById(tx, link.accountId);
    if (!before) throw new NotFoundError("errors.linkInvalid");
    // Somebody may have registered the address since the link was sent.
    const holder = await accountByEmail(tx, link.newEmail);
    if (holder && holder.id !== link.accountId) throw new ConflictError("errors.emailTaken");
    try {
      await tx.update(accounts).set({ email: link.newEmail, updatedAt: sql`now()` }).where(eq(accounts.id, link.accountId));
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError("errors.emailTaken");
      throw err;
    }
    return { before, email: link.newEmail };
  });
  sendMailInBackground(
    emailChangedMail({
      to: changed.before.email,
      language: changed.before.language,
      firstName: changed.before.firstName,
      newEmail: changed.email,
    }),
    ctx.requestId,
  );
  return { email: changed.email };
}
