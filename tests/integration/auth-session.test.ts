import { describe, expect, it } from "vitest";
import { getDb, getSql } from "@/db/client";
import { hashToken } from "@/lib/server/auth/tokens";
import { POST as changePasswordLinkRoute } from "@/app/api/v1/auth/change-password-link/route";
import { POST as loginRoute } from "@/app/api/v1/auth/login/route";
import { POST as logoutRoute } from "@/app/api/v1/auth/logout/route";
import { POST as refreshRoute } from "@/app/api/v1/auth/refresh/route";
import { resolveViewer } from "@/lib/server/auth/viewer";
import { env } from "@/lib/server/env";
import { createTestAccount } from "./helpers/factories";
import { call } from "./helpers/http";

/** Moves a spent refresh token's rotation out of the grace window. */
async function pastGrace(refreshToken: string) {
  await getSql()`update refresh_tokens set spent_at = now() - interval '31 seconds' where token_hash = ${hashToken(refreshToken)}`;
}

describe("sessions: login, refresh rotation, reuse detection, logout", () => {
  it("logs in and sets both httpOnly cookies", async () => {
    const a = await createTestAccount();
    const res = await call(loginRoute, { body: { email: a.email.toUpperCase(), password: a.password } });
    expect(res.status).toBe(200);
    expect(res.body.accessToken).toMatch(/^ey/);
    const cookies = res.headers.getSetCookie().join("\n");
    expect(cookies).toMatch(/access_token=.*HttpOnly; SameSite=Lax/);
    expect(cookies).toMatch(/refresh_token=.*HttpOnly/);
  });

  it("a cookie session (Krug's own sign-in form) gets the cookies and no token in the body; other clients get both (issue 24 item 5)", async () => {
    const a = await createTestAccount();
    const asked = await call(loginRoute, { body: { email: a.email, password: a.password, session: "cookie" } });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ ok: true });
    const cookies = asked.headers.getSetCookie().join("\n");
    expect(cookies).toMatch(/access_token=ey[^;]+; .*HttpOnly/);
    expect(cookies).toMatch(/refresh_token=[^;]{10,}; .*HttpOnly/);
    // The cookies it got are a working session: a cookie refresh renews it, again without a token in the body.
    const refreshToken = /refresh_token=([^;]+)/.exec(cookies)![1];
    const renewed = await call(refreshRoute, { method: "POST", cookie: `refresh_token=${refreshToken}` });
    expect(renewed.status).toBe(200);
    expect(renewed.body).toEqual({ ok: true });
    expect(renewed.headers.getSetCookie().join("\n")).toMatch(/access_token=ey/);

    const plain = await call(loginRoute, { body: { email: a.email, password: a.password } });
    expect(plain.status).toBe(200);
    expect(Object.keys(plain.body).sort()).toEqual(["accessToken", "refreshToken"]);
    expect(plain.headers.getSetCookie().join("\n")).toContain(`refresh_token=${plain.body.refreshToken};`);
    // Any other value of the field is refused like any other bad input, and signs nobody in.
    const odd = await call(loginRoute, { body: { email: a.email, password: a.password, session: "body" } });
    expect(odd.status).toBe(422);
    expect(odd.headers.getSetCookie()).toEqual([]);
  });

  it("answers 401 with one message for a wrong password and an unknown e-mail", async () => {
    const a = await createTestAccount();
    const wrong = await call(loginRoute, { body: { email: a.email, password: "nope-nope" } });
    const unknown = await call(loginRoute, { body: { email: "ghost@example.com", password: "nope-nope" } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error.message).toBe(unknown.body.error.message);
    expect(wrong.body.requestId).toBeTruthy();
  });

  it("rejects malformed input with a clean 4xx", async () => {
    expect((await call(loginRoute, { body: { email: 5, password: [] } })).status).toBe(422);
    expect((await call(loginRoute, { rawBody: "{not json", headers: { "content-type": "application/json" } })).status).toBe(400);
    expect((await call(loginRoute, { rawBody: "email=x", headers: { "content-type": "text/plain" } })).status).toBe(415);
    const huge = await call(loginRoute, { body: { email: "a@b.cd", password: "x".repeat(100_000) } });
    expect(huge.status).toBe(413);
  });

  it("rotates refresh tokens and revokes the family when a spent one is reused after the grace window", async () => {
    const a = await createTestAccount();
    const first = (await call(loginRoute, { body: { email: a.email, password: a.password } })).body;
    const second = await call(refreshRoute, { body: { refreshToken: first.refreshToken } });
    expect(second.status).toBe(200);
    expect(second.body.refreshToken).not.toBe(first.refreshToken);
    // A body client gets the pair in the body and no cookies.
    expect(second.headers.getSetCookie()).toEqual([]);

    // The spent token comes back after the grace window: the newest refresh and access tokens stop working.
    await pastGrace(first.refreshToken);
    const reuse = await call(refreshRoute, { body: { refreshToken: first.refreshToken } });
    expect(reuse.status).toBe(401);
    expect((await call(refreshRoute, { body: { refreshToken: second.body.refreshToken } })).status).toBe(401);
    const logoutWithOld = await call(logoutRoute, { token: second.body.accessToken, method: "POST" });
    expect(logoutWithOld.status).toBe(204);
    // The access tokens of the revoked family are refused by every signed-in route too.
    for (const token of [first.accessToken, second.body.accessToken]) {
      expect(await resolveViewer(getDb(), token, env().AUTH_SECRET)).toBeNull();
      expect((await call(changePasswordLinkRoute, { method: "POST", token })).status).toBe(401);
    }
  });

  it("ten parallel refreshes with one token all get the same successor; the session lives on", async () => {
    const a = await createTestAccount();
    const first = (await call(loginRoute, { body: { email: a.email, password: a.password } })).body;
    const results = await Promise.all(Array.from({ length: 10 }, () => call(refreshRoute, { body: { refreshToken: first.refreshToken } })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const successors = new Set(results.map((r) => r.body.refreshToken));
    expect(successors.size).toBe(1);
    for (const r of results) expect((await resolveViewer(getDb(), r.body.accessToken, env().AUTH_SECRET))?.id).toBe(a.id);
    const [only] = successors;
    expect(only).not.toBe(first.refreshToken);
    // One session, one new token row: the repeats made nothing new.
    const [{ sessions, tokens }] = await getSql()`
      select count(distinct s.id)::int as sessions, count(t.token_hash)::int as tokens
      from sessions s join refresh_tokens t on t.session_id = s.id where s.account_id = ${a.id} and s.revoked_at is null`;
    expect({ sessions, tokens }).toEqual({ sessions: 1, tokens: 2 });
    // The successor rotates normally; a repeat of the first token within the window follows the chain.
    const third = await call(refreshRoute, { body: { refreshToken: only } });
    expect(third.status).toBe(200);
    const late = await call(refreshRoute, { body: { refreshToken: first.refreshToken } });
    expect(late.status).toBe(200);
    expect(late.body.refreshToken).toBe(third.body.refreshToken);
  });

  it("rotates through the refresh cookie alone, replacing both cookies and keeping the tokens out of the body", async () => {
    const a = await createTestAccount();
    const first = (await call(loginRoute, { body: { email: a.email, password: a.password } })).body;
    const res = await call(refreshRoute, { method: "POST", cookie: `refresh_token=${first.refreshToken}` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const cookies = res.headers.getSetCookie().join("\n");
    const access = decodeURIComponent(/access_token=([^;]+)/.exec(cookies)![1]);
    const refresh = decodeURIComponent(/refresh_token=([^;]+)/.exec(cookies)![1]);
    expect(refresh).not.toBe(first.refreshToken);
    expect((await resolveViewer(getDb(), access, env().AUTH_SECRET))?.id).toBe(a.id);
    // Presenting the spent cookie again after the grace window is reuse: refused, cookies cleared, the new pair revoked.
    await pastGrace(first.refreshToken);
    const reuse = await call(refreshRoute, { method: "POST", cookie: `refresh_token=${first.refreshToken}` });
    expect(reuse.status).toBe(401);
    expect(reuse.headers.getSetCookie().join("\n")).toMatch(/refresh_token=; .*Max-Age=0/);
    expect(await resolveViewer(getDb(), access, env().AUTH_SECRET)).toBeNull();
  });

  it("refuses to refresh an account blocked by the administration", async () => {
    const a = await createTestAccount();
    const first = (await call(loginRoute, { body: { email: a.email, password: a.password } })).body;
    await getSql()`update accounts set is_blocked = true where id = ${a.id}`;
    expect((await call(refreshRoute, { body: { refreshToken: first.refreshToken } })).status).toBe(401);
  });

  it("logout revokes the session", async () => {
    const a = await createTestAccount();
    const pair = (await call(loginRoute, { body: { email: a.email, password: a.password } })).body;
    await call(logoutRoute, { method: "POST", token: pair.accessToken });
    expect((await call(refreshRoute, { body: { refreshToken: pair.refreshToken } })).status).toBe(401);
    expect(await resolveViewer(getDb(), pair.accessToken, env().AUTH_SECRET)).toBeNull();
  });
});
