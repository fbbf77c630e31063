import { describe, expect, it } from "vitest";
import { getDb, getSql } from "@/db/client";
import { POST as changeEmailLinkRoute } from "@/app/api/v1/auth/change-email-link/route";
import { POST as changePasswordLinkRoute } from "@/app/api/v1/auth/change-password-link/route";
import { PUT as emailRoute } from "@/app/api/v1/auth/email/route";
import { POST as loginRoute } from "@/app/api/v1/auth/login/route";
import { POST as recoveryRoute } from "@/app/api/v1/auth/password/recovery/route";
import { PUT as passwordRoute } from "@/app/api/v1/auth/password/route";
import { POST as refreshRoute } from "@/app/api/v1/auth/refresh/route";
import { hashToken } from "@/lib/server/auth/tokens";
import { resolveViewer } from "@/lib/server/auth/viewer";
import { env } from "@/lib/server/env";
import { createTestAccount, signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { cookieHeader, lastMail, secretOf, snapshot, uniqueEmail, uniqueIp } from "./helpers/auth";

const NEW_PASSWORD = "Shifted-pass4%";
const login = (email: string, password: string) =>
  call(loginRoute, { body: { email, password }, headers: { "x-krug-client-address": uniqueIp() } });
const viewerOf = (accessToken: string) => resolveViewer(getDb(), accessToken, env().AUTH_SECRET);

/** A signed-in account and the secret of the password-change link mailed to it. */
async function passwordChangeLink() {
  const me = await signedInAccount({ email: uniqueEmail("pw") });
  const res = await call(changePasswordLinkRoute, { method: "POST", token: me.accessToken });
  expect(res.status).toBe(200);
  const mail = (await lastMail(me.email))!;
  return { me, mail, secret: secretOf(mail.links[0]) };
}

describe("POST auth/change-password-link", () => {
  it("needs a session", async () => {
    const before = await snapshot();
    expect((await call(changePasswordLinkRoute, { method: "POST" })).status).toBe(401);
    expect((await call(changePasswordLinkRoute, { method: "POST", token: "forged.token.value" })).status).toBe(401);
    expect(await snapshot()).toEqual(before);
  });

  it("mails the own address a link to /shift-password", async () => {
    const { me, mail, secret } = await passwordChangeLink();
    expect(mail.to).toBe(me.email);
    expect(mail.subject).toBe("Круг: смена пароля");
    expect(mail.links[0]).toBe(`${env().PUBLIC_URL}/shift-password?secret=${secret}`);
    const [row] = await getSql()`select kind, account_id::int as account_id from one_time_links where token_hash = ${hashToken(secret)}`;
    expect(row).toEqual({ kind: "PASSWORD_CHANGE", account_id: me.id });
  });
});

describe("PUT auth/password", () => {
  it("changes the password, ends every other session and keeps this browser signed in with new cookies", async () => {
    const { me, secret } = await passwordChangeLink();
    const other = (await login(me.email, me.password)).body;
    const res = await call(passwordRoute, {
      method: "PUT",
      cookie: cookieHeader(me),
      body: { secret, password1: NEW_PASSWORD, password2: NEW_PASSWORD },
    });
    expect(res.status).toBe(200);
    // A cookie client gets cookies only: the httpOnly tokens never reach script on the page.
    expect(res.body).toEqual({ ok: true, signedIn: true });
    const cookies = res.headers.getSetCookie().join("\n");
    const newAccess = decodeURIComponent(/access_token=([^;]+)/.exec(cookies)![1]);
    expect(cookies).toMatch(/refresh_token=[^;]+; Path=\/; .*HttpOnly/);
    // The new pair works; the old session of this browser and the other device are out.
    expect((await viewerOf(newAccess))?.id).toBe(me.id);
    expect(await viewerOf(me.accessToken)).toBeNull();
    expect(await viewerOf(other.accessToken)).toBeNull();
    expect((await call(refreshRoute, { body: { refreshToken: other.refreshToken } })).status).toBe(401);
    expect((await login(me.email, me.password)).status).toBe(401);
    expect((await login(me.email, NEW_PASSWORD)).status).toBe(200);
    // Single use.
    const before = await snapshot();
    const again = await call(passwordRoute, { method: "PUT", token: newAccess, body: { secret, password1: NEW_PASSWORD, password2: NEW_PASSWORD } });
    expect(again.status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it("gives a Bearer client its new pair in the body and sets no cookies", async () => {
    const { me, secret } = await passwordChangeLink();
    const res = await call(passwordRoute, { method: "PUT", token: me.accessToken, body: { secret, password1: NEW_PASSWORD, password2: NEW_PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, signedIn: true });
    expect(res.headers.getSetCookie()).toEqual([]);
    expect((await viewerOf(res.body.accessToken))?.id).toBe(me.id);
    expect((await call(refreshRoute, { body: { refreshToken: res.body.refreshToken } })).status).toBe(200);
  });

  it("works from the mailed link in a signed-out browser, signing every session out", async () => {
    const { me, secret } = await passwordChangeLink();
    const res = await call(passwordRoute, { method: "PUT", body: { secret, password1: NEW_PASSWORD, password2: NEW_PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, signedIn: false });
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await viewerOf(me.accessToken)).toBeNull();
  });

  it("does not sign another signed-in account into the link's account", async () => {
    const { me, secret } = await passwordChangeLink();
    const stranger = await signedInAccount();
    const res = await call(passwordRoute, { method: "PUT", token: stranger.accessToken, body: { secret, password1: NEW_PASSWORD, password2: NEW_PASSWORD } });
    expect(res.body).toEqual({ ok: true, signedIn: false });
    expect((await viewerOf(stranger.accessToken))?.id).toBe(stranger.id);
    expect(await viewerOf(me.accessToken)).toBeNull();
  });

  it("refuses bad passwords, missing or dead secrets, and changes nothing", async () => {
    const { me, secret } = await passwordChangeLink();
    const recovery = await createTestAccount({ email: uniqueEmail("kind") });
    await call(recoveryRoute, {
      body: { email: recovery.email },
      headers: { "x-krug-client-address": uniqueIp() },
    });
    const recoverySecret = secretOf((await lastMail(recovery.email))!.links[0]);
    const before = await snapshot();
    const cases: Array<[unknown, number, string?, string?]> = [
      [{ secret, password1: NEW_PASSWORD, password2: "Different-pass5&" }, 422, "password2", "Пароли должны совпадать."],
      [{ secret, password1: "short1!", password2: "short1!" }, 422, "password1", "Пароль должен содержать не менее 8 символов."],
      [{ secret, password1: "NoDigitsHere!", password2: "NoDigitsHere!" }, 422, "password1"],
      [{ password1: NEW_PASSWORD, password2: NEW_PASSWORD }, 422, "secret"],
      [{ secret: 12345, password1: NEW_PASSWORD, password2: NEW_PASSWORD }, 422, "secret"],
      [{ secret: "no-such-link-0000000000000", password1: NEW_PASSWORD, password2: NEW_PASSWORD }, 404],
      [{ secret: recoverySecret, password1: NEW_PASSWORD, password2: NEW_PASSWORD }, 404],
      [{ secret: "<script>alert(1)</script>", password1: NEW_PASSWORD, password2: NEW_PASSWORD }, 404],
    ];
    for (const [body, status, path, message] of cases) {
      const res = await call(passwordRoute, { method: "PUT", token: me.accessToken, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (path) expect(res.body.error.issues.map((i: { path: string }) => i.path)).toContain(path);
      if (message) expect(res.body.error.issues.find((i: { path: string }) => i.path === path).message).toBe(message);
    }
    await getSql()`update one_time_links set expires_at = now() - interval '1 second' where token_hash = ${hashToken(secret)}`;
    const expiredBefore = await snapshot();
    const expired = await call(passwordRoute, { method: "PUT", token: me.accessToken, body: { secret, password1: NEW_PASSWORD, password2: NEW_PASSWORD } });
    expect(expired.status).toBe(404);
    expect(await snapshot()).toEqual(expiredBefore);
    expect({ ...expiredBefore }).toEqual(before);
    expect(await viewerOf(me.accessToken)).not.toBeNull();
  });
});

describe("POST auth/change-email-link and PUT auth/email", () => {
  async function requestChange(me: { accessToken: string; password: string }, email: unknown, password: unknown = me.password) {
    return call(changeEmailLinkRoute, { body: { email, password }, token: me.accessToken });
  }

  it("requires the current password: a session alone cannot move the account", async () => {
    const me = await signedInAccount({ email: uniqueEmail("pwd") });
    const next = uniqueEmail("thief");
    const before = await snapshot();
    const wrong = await requestChange(me, next, "Not-the-password1!");
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.issues).toEqual([{ path: "password", message: "Неверный пароль" }]);
    for (const bad of [null, "", 5, "x".repeat(200)]) {
      expect((await requestChange(me, next, bad)).status, JSON.stringify(bad)).toBe(422);
    }
    expect(await snapshot()).toEqual(before);
    expect(await lastMail(next)).toBeNull();
  });

  it("the mail to the old address undoes the change: old address back, every session ended", async () => {
    const me = await signedInAccount({ email: uniqueEmail("victim"), language: "en" });
    const next = uniqueEmail("hijack");
    expect((await requestChange(me, next)).status).toBe(200);
    const secret = secretOf((await lastMail(next))!.links[0]);
    expect((await call(emailRoute, { method: "PUT", body: { secret } })).status).toBe(200);
    const notice = (await lastMail(me.email))!;
    expect(notice.links).toHaveLength(1);
    expect(notice.text).toContain("Restore my previous e-mail");
    const undo = secretOf(notice.links[0]);
    expect(notice.links[0]).toBe(`${env().PUBLIC_URL}/shift-email-confirm?secret=${undo}`);
    const undone = await call(emailRoute, { method: "PUT", body: { secret: undo } });
    expect(undone.status).toBe(200);
    expect(undone.body).toEqual({ email: me.email });
    const [row] = await getSql()`select email from accounts where id = ${me.id}`;
    expect(row.email).toBe(me.email);
    expect(await viewerOf(me.accessToken)).toBeNull();
    const [{ live }] = await getSql()`select count(*)::int as live from sessions where account_id = ${me.id} and revoked_at is null`;
    expect(live).toBe(0);
    // Single use, and no further notice is sent for an undo.
    expect((await call(emailRoute, { method: "PUT", body: { secret: undo } })).status).toBe(404);
    expect((await lastMail(me.email))!.links[0]).toBe(notice.links[0]);
  });

  it("mails the NEW address and changes nothing until that link is confirmed", async () => {
    const me = await signedInAccount({ email: uniqueEmail("old"), language: "en" });
    const next = uniqueEmail("new");
    const res = await requestChange(me, next);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(await lastMail(me.email)).toBeNull();
    const mail = (await lastMail(next))!;
    expect(mail.subject).toBe("Krug: confirm your new e-mail");
    const secret = secretOf(mail.links[0]);
    expect(mail.links[0]).toBe(`${env().PUBLIC_URL}/shift-email-confirm?secret=${secret}`);
    const [link] = await getSql()`select kind, new_email from one_time_links where token_hash = ${hashToken(secret)}`;
    expect(link).toEqual({ kind: "EMAIL_CHANGE", new_email: next });

    // Not applied yet: the old address still signs in, the new one does not.
    const [stillOld] = await getSql()`select email from accounts where id = ${me.id}`;
    expect(stillOld.email).toBe(me.email);
    expect((await login(next, me.password)).status).toBe(401);

    const confirm = await call(emailRoute, { method: "PUT", body: { secret } });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toEqual({ email: next });
    const [row] = await getSql()`select email from accounts where id = ${me.id}`;
    expect(row.email).toBe(next);
    expect((await login(next, me.password)).status).toBe(200);
    expect((await login(me.email, me.password)).status).toBe(401);
    // The old address is told.
    const notice = (await lastMail(me.email))!;
    expect(notice.subject).toBe("Krug: your account e-mail was changed");
    expect(notice.text).toContain(next);
    // Single use.
    const before = await snapshot();
    expect((await call(emailRoute, { method: "PUT", body: { secret } })).status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses a taken address (any case) with 409, the own address and bad input with 422, creating no link", async () => {
    const me = await signedInAccount({ email: uniqueEmail("me") });
    const other = await createTestAccount({ email: uniqueEmail("other") });
    const before = await snapshot();
    const taken = await requestChange(me, other.email.toUpperCase());
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe("Пользователь с таким e-mail уже зарегистрирован");
    const same = await requestChange(me, me.email.toUpperCase());
    expect(same.status).toBe(422);
    expect(same.body.error.issues).toEqual([{ path: "email", message: "Это и так e-mail вашего аккаунта" }]);
    for (const bad of ["not-mail", "", 7, null, ["a@b.cd"], "x@y.z<script>"]) {
      const res = await requestChange(me, bad);
      expect(res.status, JSON.stringify(bad)).toBe(422);
    }
    expect((await call(changeEmailLinkRoute, { body: { email: "a@b.cd", password: me.password } })).status).toBe(401);
    expect(await snapshot()).toEqual(before);
    expect(await lastMail(other.email)).toBeNull();
  });

  it("refuses the confirmation when the address was taken meanwhile, leaving everything as it was", async () => {
    const me = await signedInAccount({ email: uniqueEmail("me") });
    const next = uniqueEmail("contested");
    expect((await requestChange(me, next)).status).toBe(200);
    const secret = secretOf((await lastMail(next))!.links[0]);
    await createTestAccount({ email: next.toUpperCase() });
    const before = await snapshot();
    const res = await call(emailRoute, { method: "PUT", body: { secret } });
    expect(res.status).toBe(409);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses expired, unknown, superseded and malformed confirmation secrets", async () => {
    const me = await signedInAccount({ email: uniqueEmail("me") });
    const first = uniqueEmail("first");
    const second = uniqueEmail("second");
    await requestChange(me, first);
    await requestChange(me, second);
    const superseded = secretOf((await lastMail(first))!.links[0]);
    const current = secretOf((await lastMail(second))!.links[0]);
    await getSql()`update one_time_links set expires_at = now() - interval '1 second' where token_hash = ${hashToken(current)}`;
    const before = await snapshot();
    for (const secret of [superseded, current, "unknown-secret-00000000000000", "'; drop table accounts; --"]) {
      expect((await call(emailRoute, { method: "PUT", body: { secret } })).status, secret).toBe(404);
    }
    for (const body of [{}, { secret: 1 }, { secret: "" }, { secret: "x".repeat(300) }]) {
      expect((await call(emailRoute, { method: "PUT", body })).status, JSON.stringify(body)).toBe(422);
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe("cookie-authenticated mutations check Origin", () => {
  it("refuses a cross-origin request carrying the session cookie with 403, and changes nothing", async () => {
    const me = await signedInAccount({ email: uniqueEmail("csrf") });
    const before = await snapshot();
    const hostile: Record<string, string>[] = [{ origin: "https://evil.example" }, { origin: "null" }, { "sec-fetch-site": "cross-site" }];
    for (const headers of hostile) {
      const res = await call(changePasswordLinkRoute, { method: "POST", cookie: cookieHeader(me), headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      const email = await call(changeEmailLinkRoute, { cookie: cookieHeader(me), headers, body: { email: uniqueEmail("csrf-new"), password: me.password } });
      expect(email.status).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
    expect(await lastMail(me.email)).toBeNull();
  });

  it("accepts the same request from our own origin, and a bearer token from anywhere", async () => {
    const me = await signedInAccount({ email: uniqueEmail("csrf") });
    const own = await call(changePasswordLinkRoute, { method: "POST", cookie: cookieHeader(me), headers: { origin: "http://localhost:3000" } });
    expect(own.status).toBe(200);
    const bearer = await call(changePasswordLinkRoute, { method: "POST", token: me.accessToken, headers: { origin: "https://evil.example" } });
    expect(bearer.status).toBe(200);
  });
});
