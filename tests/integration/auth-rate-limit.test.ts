import { afterAll, describe, expect, it, vi } from "vitest";
import { getSql } from "@/db/client";
import { GET as captchaRoute } from "@/app/api/v1/auth/captcha/route";
import { POST as changeEmailLinkRoute } from "@/app/api/v1/auth/change-email-link/route";
import { POST as loginRoute } from "@/app/api/v1/auth/login/route";
import { POST as recoveryRoute } from "@/app/api/v1/auth/password/recovery/route";
import { POST as registerRoute } from "@/app/api/v1/auth/register/route";
import { RateLimitedError } from "@/lib/server/http/errors";
import { consumeUploadLimit } from "@/lib/server/http/rate-limit";
import { createTestAccount, signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { lastMail, registrationBody, snapshot, uniqueEmail, uniqueIp } from "./helpers/auth";

// Small limits for this file only (read on first use; every test file runs in a fresh module graph).
vi.stubEnv("RATE_LIMIT_LOGIN_ACCOUNT", "3/5m");
vi.stubEnv("RATE_LIMIT_LOGIN_IP", "8/5m");
vi.stubEnv("RATE_LIMIT_REGISTER", "2/30m");
vi.stubEnv("RATE_LIMIT_CAPTCHA", "3/5m");
vi.stubEnv("RATE_LIMIT_RECOVERY", "2/30m");
vi.stubEnv("RATE_LIMIT_UPLOAD", "2/30m");
afterAll(() => vi.unstubAllEnvs());

function expectLimited(res: { status: number; body: any; headers: Headers }, windowSeconds: number) {
  expect(res.status).toBe(429);
  expect(res.body.error.code).toBe("rate_limited");
  expect(res.body.error.message).toBe("Слишком много попыток. Попробуйте позже.");
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

const loginFrom = (ip: string, email: string, password: string) =>
  call(loginRoute, { body: { email, password }, headers: { "x-krug-client-address": ip } });

describe("rate limits", () => {
  it("login: wrong passwords per account and address; the owner elsewhere still signs in", async () => {
    const a = await createTestAccount({ email: uniqueEmail("lim") });
    const attacker = uniqueIp();
    for (let i = 0; i < 3; i++) expect((await loginFrom(attacker, a.email, "Wrong-pass1!")).status).toBe(401);
    // From the attacker's address the account is locked, the right password included.
    expectLimited(await loginFrom(attacker, a.email.toUpperCase(), a.password), 300);
    // The owner, from their own address, is not locked out.
    expect((await loginFrom(uniqueIp(), a.email, a.password)).status).toBe(200);
  });

  it("login: only failures count; a successful sign-in clears the failures of its address", async () => {
    const a = await createTestAccount({ email: uniqueEmail("lim") });
    const ip = uniqueIp();
    // Many successful sign-ins from one address spend nothing of the account's allowance.
    for (let i = 0; i < 2; i++) expect((await loginFrom(ip, a.email, a.password)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await loginFrom(ip, a.email, "Wrong-pass1!")).status).toBe(401);
    expect((await loginFrom(ip, a.email, a.password)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await loginFrom(ip, a.email, "Wrong-pass1!")).status).toBe(401);
    expect((await loginFrom(ip, a.email, a.password)).status).toBe(200);
  });

  it("login: attempts per client address, across accounts", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 8; i++) expect((await loginFrom(ip, uniqueEmail("spray"), "Wrong-pass1!")).status).toBe(401);
    expectLimited(await loginFrom(ip, uniqueEmail("spray"), "Wrong-pass1!"), 300);
    // Another address is unaffected.
    expect((await loginFrom(uniqueIp(), uniqueEmail("spray"), "Wrong-pass1!")).status).toBe(401);
  });

  it("the window ends: an expired counter starts afresh", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 8; i++) await loginFrom(ip, uniqueEmail("w"), "Wrong-pass1!");
    expect((await loginFrom(ip, uniqueEmail("w"), "Wrong-pass1!")).status).toBe(429);
    await getSql()`update rate_limits set expire = ${Date.now() - 1000} where key like 'loginIp:%'`;
    expect((await loginFrom(ip, uniqueEmail("w"), "Wrong-pass1!")).status).toBe(401);
  });

  it("captcha: per client address", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 3; i++) expect((await call(captchaRoute, { method: "GET", headers: { "x-krug-client-address": ip } })).status).toBe(200);
    expectLimited(await call(captchaRoute, { method: "GET", headers: { "x-krug-client-address": ip } }), 300);
  });

  it("registration: per client address, and a refused attempt creates nothing", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 2; i++) {
      const res = await call(registerRoute, { body: await registrationBody(), headers: { "x-krug-client-address": ip } });
      expect(res.status).toBe(201);
    }
    const body = await registrationBody();
    const before = await snapshot();
    expectLimited(await call(registerRoute, { body, headers: { "x-krug-client-address": ip } }), 1800);
    // The captcha was not even spent.
    expect(await snapshot()).toEqual(before);
  });

  it("recovery: per client address and per target address", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 2; i++) expect((await call(recoveryRoute, { body: { email: uniqueEmail("r") }, headers: { "x-krug-client-address": ip } })).status).toBe(200);
    expectLimited(await call(recoveryRoute, { body: { email: uniqueEmail("r") }, headers: { "x-krug-client-address": ip } }), 1800);

    // One address from many clients: the third mail is refused, for a known and an unknown address alike.
    const known = await createTestAccount({ email: uniqueEmail("known") });
    const unknown = uniqueEmail("ghost");
    for (const email of [known.email, unknown]) {
      for (let i = 0; i < 2; i++) expect((await call(recoveryRoute, { body: { email }, headers: { "x-krug-client-address": uniqueIp() } })).status).toBe(200);
      expectLimited(await call(recoveryRoute, { body: { email }, headers: { "x-krug-client-address": uniqueIp() } }), 1800);
    }
    expect(await lastMail(known.email)).not.toBeNull();
  });

  it("e-mail change links: per account", async () => {
    const me = await signedInAccount({ email: uniqueEmail("me") });
    for (let i = 0; i < 2; i++) expect((await call(changeEmailLinkRoute, { body: { email: uniqueEmail("to"), password: me.password }, token: me.accessToken })).status).toBe(200);
    expectLimited(await call(changeEmailLinkRoute, { body: { email: uniqueEmail("to"), password: me.password }, token: me.accessToken }), 1800);
  });

  it("uploads: the exported per-account limiter throws RateLimitedError with Retry-After", async () => {
    await consumeUploadLimit(101);
    await consumeUploadLimit(101);
    const err = await consumeUploadLimit(101).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect(Number((err as RateLimitedError).headers?.["Retry-After"])).toBeGreaterThan(1700);
    await consumeUploadLimit(102);
  });

  it("keeps neither addresses nor e-mails in the table", async () => {
    const rows = await getSql()`select key from rate_limits`;
    expect(rows.length).toBeGreaterThan(0);
    for (const { key } of rows) expect(key).toMatch(/^[a-zA-Z]+:[0-9a-f]{40}$/);
  });
});
