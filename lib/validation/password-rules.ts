// The password rules without zod (spec section 5), for the strength meter of the sign-up and
// new-password forms, which load the schemas themselves only when first validated (docs/adr/0103).
// lib/validation/auth.ts builds the password schema from these.

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

const hasUpper = (pw: string) => /\p{Lu}/u.test(pw);
const hasLower = (pw: string) => /\p{Ll}/u.test(pw);
const hasDigit = (pw: string) => /\p{Nd}/u.test(pw);
// Anything that is neither a letter, a digit nor white space: punctuation, symbols, emoji.
const hasSpecial = (pw: string) => /[^\p{L}\p{N}\s]/u.test(pw);

/** True when a password meets every complexity rule (length is checked separately). */
export function isComplexPassword(pw: string): boolean {
  return hasUpper(pw) && hasLower(pw) && hasDigit(pw) && hasSpecial(pw);
}

export type PasswordStrength = "weak" | "average" | "reliable";
export const RELIABLE_PASSWORD_LENGTH = 12;

/**
 * The strength meter of the password fields. "weak" is exactly what the server refuses, so the
 * meter never praises a password that will bounce; an accepted password is "average", and
 * "reliable" once it is also long (length beats character classes against guessing).
 */
export function passwordStrength(pw: string): PasswordStrength {
  if (pw.length < PASSWORD_MIN || !isComplexPassword(pw)) return "weak";
  return pw.length >= RELIABLE_PASSWORD_LENGTH ? "reliable" : "average";
}
