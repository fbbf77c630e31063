import "server-only";
import { ConflictError } from "@/lib/server/http/errors";
import { registerInput } from "@/lib/validation/auth";
import { createAccount } from "../accounts/create-account";
import { eq, sql } from "drizzle-orm";
import { accounts } from "@/db/schema";
import { withTransaction, type ServiceCtx } from "../context";
import { verifyCaptcha } from "./captcha";
import { accountByEmail, isUniqueViolation } from "./lookup";
import { openSession, type TokenPair } from "./sessions";

/**
 * Creates an account from the registration form and signs the new person in: the same session and
 * token pair as a sign-in (issue 14 item 5), so nobody types the e-mail and password twice. Order matters: a malformed form changes nothing;
 * a well-formed one spends its captcha before the e-mail is looked at, so probing which addresses
 * are taken costs a solved captcha each time.
 */
export async function register({
  ctx,
  input,
  language,
  userAgent,
}: {
  ctx: ServiceCtx;
  input: unknown;
  language: "ru" | "en";
  userAgent?: string | null;
}): Promise<{ id: number; email: string } & TokenPair> {
  const data = registerInput.parse(input);
  await verifyCaptcha(ctx, { secret: data.captchaSecret, code: data.captchaCode });
  if (await accountByEmail(ctx.db, data.email)) throw new ConflictError("errors.emailTaken");
  let account: { id: number; email: string };
  try {
    account = await createAccount({
      ctx,
      input: { email: data.email, password: data.password1, firstName: data.firstName, lastName: data.lastName, language },
    });
  } catch (err) {
    // Two registrations of one address at the same moment: the unique index decides.
    if (isUniqueViolation(err)) throw new ConflictError("errors.emailTaken");
    throw err;
  }
  const pair = await withTransaction(ctx, async (tx) => {
    await tx.update(accounts).set({ lastOnlineTime: sql`now()` }).where(eq(accounts.id, account.id));
    return openSession(tx, { accountId: account.id, userAgent, ip: ctx.ip });
  });
  return { ...account, ...pair };
}
