import { z } from "zod";
import { lineString } from "./text";

// Messages are keys of messages/*.json; forms and the API translate them.
export const emailSchema = z.string().trim().max(254, "validation.tooLong").email("validation.email");

export const loginInput = z.object({
  email: emailSchema,
  password: z.string().min(1, "validation.required").max(128, "validation.tooLong"),
  /**
   * "cookie": Krug's own sign-in form asks for a cookie session: the pair is set as httpOnly cookies
   * only and the body is {ok:true}, so script on the page never sees a token (docs/adr/0113). Without
   * it (other clients, spec section 7) the pair is in the body as well.
   */
  session: z.enum(["cookie"]).optional(),
});
export type LoginInput = z.infer<typeof loginInput>;

export const refreshInput = z.object({ refreshToken: lineString().min(10).max(200).optional() });

// ---------------------------------------------------------------------------------------------
// Passwords (spec section 5): at least 8 characters, an uppercase and a lowercase letter, a digit
// and a special character. Letters of any script count, so a Cyrillic password is fine.

import { isComplexPassword, PASSWORD_MAX, PASSWORD_MIN, passwordStrength, RELIABLE_PASSWORD_LENGTH, type PasswordStrength } from "./password-rules";
export { isComplexPassword, PASSWORD_MAX, PASSWORD_MIN, passwordStrength, RELIABLE_PASSWORD_LENGTH, type PasswordStrength };

export const passwordSchema = z
  .string("validation.required")
  .min(PASSWORD_MIN, "validation.passwordMin")
  .max(PASSWORD_MAX, "validation.tooLong")
  .refine(isComplexPassword, "validation.passwordComplexity");

/**
 * Two password fields must match; the mismatch is reported on the second one. It runs whenever
 * both are strings, so a form shows "Passwords must match." next to other field errors at once.
 */
function passwordsMatch<S extends z.ZodType<{ password1: string; password2: string }>>(schema: S): S {
  return schema.refine((v) => v.password1 === v.password2, {
    message: "validation.passwordsMatch",
    path: ["password2"],
    when: (payload) => {
      const v = payload.value as { password1?: unknown; password2?: unknown } | undefined;
      return typeof v?.password1 === "string" && typeof v?.password2 === "string";
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Names: the one schema of lib/validation/name.ts (ADR 0050).

import { NAME_MAX, nameSchema, stripName } from "./name";
export { NAME_MAX, nameSchema, stripName };

// ---------------------------------------------------------------------------------------------
// Captcha (spec section 5: the verification code has at least 6 characters).

export const CAPTCHA_CODE_MIN = 6;

export const captchaCodeSchema = lineString("validation.required")
  .trim()
  .min(CAPTCHA_CODE_MIN, "validation.captchaMin")
  .max(32, "validation.captchaMismatch");

export const captchaSecretSchema = lineString("validation.captchaExpired").min(1, "validation.captchaExpired").max(200, "validation.captchaExpired");

// ---------------------------------------------------------------------------------------------
// Registration

const registerFields = z.object({
  email: z.string("validation.required").pipe(emailSchema),
  password1: passwordSchema,
  password2: z.string("validation.required").max(PASSWORD_MAX, "validation.tooLong"),
  firstName: nameSchema,
  lastName: nameSchema,
  captchaCode: captchaCodeSchema,
  captchaSecret: captchaSecretSchema,
});

export const registerInput = passwordsMatch(registerFields);
export type RegisterInput = z.infer<typeof registerInput>;

/**
 * The registration form adds the privacy consent checkbox; the API does not receive it. A boolean
 * that must be true (not a literal), so the form can start with the box unticked.
 */
export const registerForm = passwordsMatch(
  registerFields.extend({ consent: z.boolean("validation.privacyConsent").refine((v) => v, "validation.privacyConsent") }),
);
export type RegisterFormInput = z.input<typeof registerForm>;
export type RegisterFormValues = z.output<typeof registerForm>;

// ---------------------------------------------------------------------------------------------
// One-time links (password recovery, password change, e-mail change)

/** A link secret as mailed: base64url of 32 random bytes. Anything else cannot be one of ours. */
export const LINK_SECRET_PATTERN = /^[A-Za-z0-9_-]{20,100}$/;
export const linkSecretSchema = lineString("validation.required").min(1, "validation.required").max(200, "errors.linkInvalid");

export const recoveryRequestInput = z.object({ email: z.string("validation.required").pipe(emailSchema) });

export const recoverySetInput = z.object({ password: passwordSchema });

/** The shift-password form: the secret of the mailed link and the new password twice. */
export const passwordChangeInput = passwordsMatch(
  z.object({
    secret: linkSecretSchema,
    password1: passwordSchema,
    password2: z.string("validation.required").max(PASSWORD_MAX, "validation.tooLong"),
  }),
);

/**
 * Settings → change e-mail: the new address and the account's current password, so a stolen session
 * alone cannot move the account to another inbox.
 */
export const emailChangeRequestInput = z.object({
  email: z.string("validation.required").pipe(emailSchema),
  password: z.string("validation.required").min(1, "validation.required").max(PASSWORD_MAX, "validation.tooLong"),
});

export const emailChangeConfirmInput = z.object({ secret: linkSecretSchema });

/** The new-password forms (recovery link, shift-password link): the password twice, no secret. */
export const newPasswordForm = passwordsMatch(
  z.object({
    password1: passwordSchema,
    password2: z.string("validation.required").max(PASSWORD_MAX, "validation.tooLong"),
  }),
);
export type NewPasswordForm = z.infer<typeof newPasswordForm>;
