import "server-only";
import { timingSafeEqual } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { captchas } from "@/db/schema";
import { generateCaptcha } from "@/lib/server/auth/captcha-image";
import { hashToken, randomToken } from "@/lib/server/auth/tokens";
import { env } from "@/lib/server/env";
import { ValidationError } from "@/lib/server/http/errors";
import { log } from "@/lib/server/log";
import type { ServiceCtx } from "../context";

export const CAPTCHA_TTL_SECONDS = 10 * 60;

// Russian keyboards type А, С, Е… for the Latin letters that look the same; both count.
const CYRILLIC_LOOKALIKES: Record<string, string> = {
  А: "A", В: "B", С: "C", Е: "E", Н: "H", К: "K", М: "M", О: "O", Р: "P", Т: "T", Х: "X", У: "Y",
};

export function normalizeCaptchaCode(code: string): string {
  return Array.from(code.trim().toUpperCase(), (c) => CYRILLIC_LOOKALIKES[c] ?? c).join("");
}

/** The code is stored bound to its secret: a leaked table gives neither codes nor usable secrets. */
function codeHash(secret: string, code: string): string {
  return hashToken(`${secret}:${normalizeCaptchaCode(code)}`);
}

/** Stores a captcha for a known code and returns its secret (expired rows: lib/server/jobs/purge-expired.ts). */
export async function storeCaptcha(ctx: ServiceCtx, code: string): Promise<string> {
  const secret = randomToken(24);
  const db = ctx.tx ?? ctx.db;
  await db.insert(captchas).values({
    secretHash: hashToken(secret),
    codeHash: codeHash(secret, code),
    expiresAt: new Date(Date.now() + CAPTCHA_TTL_SECONDS * 1000),
  });
  return secret;
}

/** A new captcha: the secret to send back with the answer and the picture as a data URL. */
export async function issueCaptcha({ ctx }: { ctx: ServiceCtx }): Promise<{ secret: string; image: string }> {
  warnAboutTestCode();
  const { code, image } = await generateCaptcha();
  return { secret: await storeCaptcha(ctx, code), image };
}

let warned = false;
function warnAboutTestCode(): string | undefined {
  const testCode = env().CAPTCHA_TEST_CODE;
  if (testCode && !warned) {
    warned = true;
    log.warn(
      "!!! CAPTCHA_TEST_CODE is set: that code passes EVERY registration captcha. Use it for tests only, never in production !!!",
    );
  }
  return testCode;
}

const expired = () => new ValidationError("validation.captchaExpired", [{ path: "captchaCode", message: "validation.captchaExpired" }]);
const mismatch = () => new ValidationError("validation.captchaMismatch", [{ path: "captchaCode", message: "validation.captchaMismatch" }]);

/**
 * Spends a captcha and checks its code. The secret is used up by any attempt, right or wrong (and
 * committed at once, whatever happens next), so a code cannot be guessed twice on one picture.
 */
export async function verifyCaptcha(ctx: ServiceCtx, input: { secret: string; code: string }): Promise<void> {
  const db = ctx.tx ?? ctx.db;
  const [row] = await db
    .update(captchas)
    .set({ usedAt: sql`now()` })
    .where(and(eq(captchas.secretHash, hashToken(input.secret)), isNull(captchas.usedAt), gt(captchas.expiresAt, sql`now()`)))
    .returning({ codeHash: captchas.codeHash });
  if (!row) throw expired();
  const testCode = warnAboutTestCode();
  if (testCode && normalizeCaptchaCode(input.code) === normalizeCaptchaCode(testCode)) return;
  const given = Buffer.from(codeHash(input.secret, input.code), "hex");
  const stored = Buffer.from(row.codeHash, "hex");
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) throw mismatch();
}
