import "server-only";
import { ConflictError } from "@/lib/server/http/errors";
import { registerInput } from "@/lib/validation/auth";
import { createAccount } from "../accounts/create-account";
import type { ServiceCtx } from "../context";
import { verifyCaptcha } from "./captcha";
import { accountByEmail, isUniqueViolation } from "./lookup";

/**
 * Creates an account from the registration form. Order matters: a malformed form changes nothing;
 * a well-formed one spends its captcha before the e-mail is looked at, so probing which addresses
 * are taken costs a solved captcha each time.
 */
export async function register({
  ctx,
  input,
  language,
}: {
  ctx: ServiceCtx;
  input: unknown;
  language: "ru" | "en";
}): Promise<{ id: number; email: string }> {
  const data = registerInput.parse(input);
  await verifyCaptcha(ctx, { secret: data.captchaSecret, code: data.captchaCode });
  if (await accountByEmail(ctx.db, data.email)) throw new ConflictError("errors.emailTaken");
  try {
    return await createAccount({
      ctx,
      input: { email: data.email, password: data.password1, firstName: data.firstName, lastName: data.lastName, language },
    });
  } catch (err) {
    // Two registrations of one address at the same moment: the unique index decides.
    if (isUniqueViolation(err)) throw new ConflictError("errors.emailTaken");
    throw err;
  }
}
