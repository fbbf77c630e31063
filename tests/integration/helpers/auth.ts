// Helpers for the auth-flow suites: solved captchas, registration bodies, database snapshots, mail.
import { randomBytes, randomInt } from "node:crypto";
import { getSql } from "@/db/client";
import { env } from "@/lib/server/env";
import { latestMailTo, mailsTo, outboxDir, type StoredMail } from "@/lib/server/mail/mailbox";
import { drainMailQueue } from "@/lib/server/mail/queue";
import { storeCaptcha } from "@/lib/server/services/auth/captcha";
import { ctxOf, TEST_PASSWORD } from "./factories";

/** A captcha whose code we know (the picture is irrelevant here). */
export async function solvedCaptcha(code = "ACE347"): Promise<{ captchaSecret: string; captchaCode: string }> {
  return { captchaSecret: await storeCaptcha(ctxOf(), code), captchaCode: code };
}

export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${randomBytes(5).toString("hex")}@example.com`;
}

/** A distinct client address, so per-IP limits of one test never touch another's. */
export function uniqueIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

/** A valid registration body with a fresh solved captcha; any field can be overridden. */
export async function registrationBody(overrides: Record<string, unknown> = {}) {
  return {
    email: uniqueEmail("reg"),
    password1: TEST_PASSWORD,
    password2: TEST_PASSWORD,
    firstName: "Анна",
    lastName: "Smith",
    ...(await solvedCaptcha()),
    ...overrides,
  };
}

/**
 * Everything an auth flow may change, as counts and digests, to show that a refused request
 * changed nothing. Rate-limit counters are left out on purpose: counting attempts is their job.
 */
export async function snapshot() {
  const sql = getSql();
  const [row] = await sql`
    select
      (select count(*)::int from accounts) as accounts,
      (select md5(coalesce(string_agg(concat_ws('|', id, email, password_hash, first_name, last_name, language), ',' order by id), ''))
         from accounts) as accounts_digest,
      (select count(*)::int from sessions) as sessions,
      (select count(*)::int from sessions where revoked_at is null) as live_sessions,
      (select count(*)::int from refresh_tokens) as refresh_tokens,
      (select count(*)::int from one_time_links) as links,
      (select count(*)::int from one_time_links where used_at is not null) as used_links,
      (select count(*)::int from captchas) as captchas,
      (select count(*)::int from captchas where used_at is not null) as used_captchas`;
  return { ...row };
}

/** The newest mail to an address once every queued mail is out (sent here, as the worker would). */
export async function lastMail(address: string): Promise<StoredMail | null> {
  await drainMailQueue();
  return latestMailTo(address, outboxDir(env().DATA_DIR));
}

export async function allMails(address: string): Promise<StoredMail[]> {
  await drainMailQueue();
  return mailsTo(address, outboxDir(env().DATA_DIR));
}

/** The secret of a mailed link: the path segment or the ?secret= parameter. */
export function secretOf(link: string): string {
  const url = new URL(link);
  return url.searchParams.get("secret") ?? decodeURIComponent(url.pathname.split("/").pop()!);
}

export function cookieHeader(tokens: { accessToken: string; refreshToken?: string }): string {
  return [`access_token=${tokens.accessToken}`, tokens.refreshToken ? `refresh_token=${tokens.refreshToken}` : ""].filter(Boolean).join("; ");
}
