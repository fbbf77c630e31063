import { describe, expect, it } from "vitest";
import { getDb, getSql } from "@/db/client";
import { POST as changePasswordLinkRoute } from "@/app/api/v1/auth/change-password-link/route";
import { POST as loginRoute } from "@/app/api/v1/auth/login/route";
import { GET as recoveryRedirect, POST as recoverySetRoute } from "@/app/api/v1/auth/password/recovery/[secret]/route";
import { POST as recoveryRoute } from "@/app/api/v1/auth/password/recovery/route";
import { POST as refreshRoute } from "@/app/api/v1/auth/refresh/route";
import { resolveViewer } from "@/lib/server/auth/viewer";
import { hashToken } from "@/lib/server/auth/tokens";
import { env } from "@/lib/server/env";
import { createTestAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { allMails, lastMail, secretOf, snapshot, uniqueEmail, uniqueIp } from "./helpers/auth";

const NEW_PASSWORD = "Brand-new-pass2?";

const requestRecovery = (email: unknown, headers: Record<string, string> = {}) =>
  call(recoveryRoute, { body: { email }, headers: { "x-krug-client-address": uniqueIp(), ...headers } });
const setPassword = (secret: string, body: unknown) => call(recoverySetRoute, { body, params: { secret } });
const login = (email: string, password: string) =>
  call(loginRoute, { body: { email, password }, headers: { "x-krug-client-address": uniqueIp() } });

/** An account, and the secret of the recovery link it was mailed. */
async function recoveryLinkFor(language: "ru" | "en" = "ru") {
  const account = await createTestAccount({ email: uniqueEmail("rec"), language });
  expect((await requestRecovery(account.email)).status).toBe(200);
  const mail = (await lastMail(account.email))!;
  return { account, mail, secret: secretOf(mail.links[0]) };
}

describe("POST auth/password/recovery/", () => {
  it("answers the same for a known and an unknown address, and mails only the known one", async () => {
    const known = await createTestAccount({ email: uniqueEmail("known") });
    const unknown = uniqueEmail("ghost");
    const a = await requestRecovery(known.email);
    const b = await requestRecovery(unknown);
    expect(a.status).toBe(200);
    expect(b.status).toBe(a.status);
    expect(b.body).toEqual(a.body);
    expect(a.body).toEqual({ ok: true });

    const mail = await lastMail(known.email);
    expect(mail).not.toBeNull();
    expect(await lastMail(unknown)).toBeNull();
    expect(mail!.subject).toBe("Круг: восстановление пароля");
    expect(mail!.text).toContain("5 минут");
    expect(mail!.links).toHaveLength(1);
    expect(mail!.links[0]).toMatch(new RegExp(`^${env().PUBLIC_URL}/change-password/[A-Za-z0-9_-]{40,}$`));
    expect(mail!.html).toContain(`href="${mail!.links[0]}"`);
    // Only the hash of the secret is stored.
    const secret = secretOf(mail!.links[0]);
    const rows = await getSql()`select * from one_time_links where account_id = ${known.id}`;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "PASSWORD_RECOVERY", token_hash: hashToken(secret), used_at: null });
    expect(JSON.stringify(rows[0])).not.toContain(secret);
    const ttl = (new Date(rows[0].expires_at).getTime() - new Date(rows[0].created_at).getTime()) / 1000;
    expect(ttl).toBeGreaterThan(295);
    expect(ttl).toBeLessThanOrEqual(301);
  });

  it("writes the mail in the account's language, to the stored address, whatever case was typed", async () => {
    const account = await createTestAccount({ email: uniqueEmail("Mixed"), language: "en" });
    expect((await requestRecovery(account.email.toUpperCase())).status).toBe(200);
    const mail = (await lastMail(account.email))!;
    expect(mail.to).toBe(account.email);
    expect(mail.subject).toBe("Krug: password recovery");
    expect(mail.text).toMatch(/^Hello, Ivan!/);
  });

  it("refuses a malformed address with 422 and changes nothing", async () => {
    const before = await snapshot();
    for (const email of ["nope", "", 42, null, "<script>@x", "a@b.c' OR '1'='1"]) {
      const res = await requestRecovery(email);
      expect(res.status, String(email)).toBe(422);
      expect(res.body.error.issues[0].path).toBe("email");
    }
    expect((await call(recoveryRoute, { body: { email: "a@example.com", pad: "x".repeat(70_000) } })).status).toBe(413);
    expect(await snapshot()).toEqual(before);
  });

  it("supersedes an earlier link with a newer one", async () => {
    const { account, secret: first } = await recoveryLinkFor();
    expect((await requestRecovery(account.email)).status).toBe(200);
    const mails = await allMails(account.email);
    expect(mails).toHaveLength(2);
    const second = secretOf(mails[1].links[0]);
    expect(second).not.toBe(first);
    expect((await setPassword(first, { password: NEW_PASSWORD })).status).toBe(404);
    expect((await setPassword(second, { password: NEW_PASSWORD })).status).toBe(200);
  });
});

describe("GET auth/password/recovery/{secret}", () => {
  it("redirects to the change-password page without spending the link", async () => {
    const { secret } = await recoveryLinkFor();
    const res = await call(recoveryRedirect, { method: "GET", params: { secret } });
    expect([302, 303]).toContain(res.status);
    expect(res.headers.get("location")).toBe(`/change-password/${secret}`);
    const [row] = await getSql()`select used_at from one_time_links where token_hash = ${hashToken(secret)}`;
    expect(row.used_at).toBeNull();
  });

  it("keeps a hostile path inside our own site", async () => {
    const res = await call(recoveryRedirect, { method: "GET", params: { secret: "//evil.example/x?y=1" } });
    expect(res.headers.get("location")).toBe("/change-password/%2F%2Fevil.example%2Fx%3Fy%3D1");
  });
});

describe("POST auth/password/recovery/{secret}", () => {
  it("sets the password, signs every session out, and the link works once", async () => {
    const { account, secret } = await recoveryLinkFor();
    const phone = (await login(account.email, account.password)).body;
    const laptop = (await login(account.email, account.password)).body;

    const res = await setPassword(secret, { password: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });

    // Every earlier session is over: access tokens and refresh tokens alike.
    for (const s of [phone, laptop]) {
      expect(await resolveViewer(getDb(), s.accessToken, env().AUTH_SECRET)).toBeNull();
      expect((await call(refreshRoute, { body: { refreshToken: s.refreshToken } })).status).toBe(401);
      expect((await call(changePasswordLinkRoute, { method: "POST", token: s.accessToken })).status).toBe(401);
    }
    expect((await login(account.email, account.password)).status).toBe(401);
    expect((await login(account.email, NEW_PASSWORD)).status).toBe(200);

    const before = await snapshot();
    const reused = await setPassword(secret, { password: "Another-pass3#" });
    expect(reused.status).toBe(404);
    expect(reused.body.error).toEqual({ code: "not_found", message: "Ссылка недействительна или устарела. Запросите новую." });
    expect(await snapshot()).toEqual(before);
  });

  it("refuses an expired link (older than 5 minutes) and changes nothing", async () => {
    const { account, secret } = await recoveryLinkFor();
    await getSql()`update one_time_links set expires_at = now() - interval '1 second' where token_hash = ${hashToken(secret)}`;
    const before = await snapshot();
    const res = await setPassword(secret, { password: NEW_PASSWORD });
    expect(res.status).toBe(404);
    expect(await snapshot()).toEqual(before);
    expect((await login(account.email, account.password)).status).toBe(200);
  });

  it("refuses unknown and malformed secrets, and links of another kind", async () => {
    const { secret } = await recoveryLinkFor();
    await getSql()`update one_time_links set kind = 'PASSWORD_CHANGE' where token_hash = ${hashToken(secret)}`;
    const before = await snapshot();
    for (const s of [secret, "A".repeat(43), "short", "../../etc/passwd", "x".repeat(500), "' OR 1=1 --"]) {
      const res = await setPassword(s, { password: NEW_PASSWORD });
      expect(res.status, s).toBe(404);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("checks the new password like registration does, leaving the link usable", async () => {
    const { secret } = await recoveryLinkFor("en");
    const before = await snapshot();
    const cases: Array<[unknown, string]> = [
      [{ password: "Aa1!" }, "The password must be at least 8 characters long."],
      [{ password: "alllowercase1!" }, "The password must contain an uppercase and a lowercase letter, a digit and a special character."],
      [{ password: 12345678 }, ""],
      [{}, ""],
      [{ password: "A1!" + "a".repeat(200) }, "The value is too long"],
    ];
    for (const [body, message] of cases) {
      const res = await call(recoverySetRoute, { body, params: { secret }, cookie: "NEXT_LOCALE=en" });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.issues[0].path).toBe("password");
      if (message) expect(res.body.error.issues[0].message).toBe(message);
    }
    expect(await snapshot()).toEqual(before);
    expect((await setPassword(secret, { password: NEW_PASSWORD })).status).toBe(200);
  });
});
