import postgres from "postgres";
import { createUser, e2eServerInfo, expect, signIn, test } from "./fixtures";

// Issue 7, items 1, 3 and 7, through the real server `npm start` runs (scripts/next-server.ts).

async function withSql<T>(fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const info = e2eServerInfo();
  // Without DATABASE_URL the server runs the embedded cluster of its data dir: join it, never stop it.
  const url = info.databaseUrl ?? (await (await import("../../db/embedded")).startEmbeddedPostgres({ dataDir: info.dataDir, shared: true })).url;
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end();
  }
}

test("a spoofed X-Forwarded-For does not change the client address (TRUST_PROXY off)", async ({ playwright, baseURL }) => {
  const user = await createUser();
  const api = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { "x-forwarded-for": "203.0.113.7", "x-real-ip": "203.0.113.8", "x-krug-client-address": "203.0.113.9" },
  });
  const res = await api.post("/api/v1/auth/login", { data: { email: user.email, password: user.password } });
  expect(res.status()).toBe(200);
  const rows = await withSql((sql) => sql<{ ip: string }[]>`select ip from sessions where account_id = ${user.id}`);
  expect(rows.map((r) => r.ip)).toEqual(["127.0.0.1"]);
  await api.dispose();
});

test("pages and the API carry the security headers; pages run under a nonce CSP with no violations", async ({ page, request }) => {
  const api = await request.get("/api/health");
  expect(api.headers()["x-content-type-options"]).toBe("nosniff");
  expect(api.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(api.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  // PUBLIC_URL is http here: no HSTS (it would pin a plain-http host).
  expect(api.headers()["strict-transport-security"]).toBeUndefined();

  const violations: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy|Content-Security-Policy/i.test(m.text())) violations.push(m.text());
  });
  const user = await createUser({ firstName: "Ирина", lastName: "Орлова" });
  const login = await page.goto("/login");
  const csp = login!.headers()["content-security-policy"];
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce).toBeTruthy();
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("'strict-dynamic'");
  expect(login!.headers()["x-frame-options"]).toBe("DENY");
  // Every script the server sent carries this response's nonce (next-themes' inline one included); chunks
  // the runtime loads later are external and allowed by 'strict-dynamic', so only inline ones are read.
  const sent = [...(await login!.text()).matchAll(/<script\b[^>]*>/g)].map((m) => /nonce="([^"]*)"/.exec(m[0])?.[1] ?? "");
  expect(sent.length).toBeGreaterThan(0);
  expect(new Set(sent)).toEqual(new Set([nonce]));
  const scriptNonces = await page.locator("script:not([src])").evaluateAll((els) => els.map((e) => (e as HTMLScriptElement).nonce));
  expect(scriptNonces.length).toBeGreaterThan(0);
  expect(new Set(scriptNonces)).toEqual(new Set([nonce]));
  // A fresh nonce per response.
  const again = await page.request.get("/login");
  expect(again.headers()["content-security-policy"]).not.toContain(nonce);

  // The page works: the form hydrates and signs in, the theme script ran (data-theme set before paint).
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Пароль", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Войти" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.locator("html")).toHaveAttribute("data-theme", /light|dark/);
  await page.goto(`/profile/${user.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Ирина Орлова" })).toBeVisible();
  await page.goto("/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Настройки" })).toBeVisible();
  expect(violations).toEqual([]);
});

test("ten parallel page loads with an expired access token stay signed in, in one session", async ({ page, baseURL }) => {
  const user = await createUser();
  await signIn(page, user);
  // The access token goes stale (here: unreadable), the refresh cookie is still good.
  const host = new URL(baseURL!).hostname;
  await page.context().addCookies([{ name: "access_token", value: "expired.token.value", domain: host, path: "/", httpOnly: true, sameSite: "Lax" }]);
  // Ten document requests at once with the browser's cookies (the page guard renews for each).
  const loads = await Promise.all(Array.from({ length: 10 }, () => page.request.get("/settings")));
  for (const res of loads) {
    expect(res.status()).toBe(200);
    expect(new URL(res.url()).pathname).toBe("/settings");
  }
  // Still signed in afterwards in the browser, and still the one session of the sign-in.
  await page.goto("/friends");
  await expect(page).toHaveURL("/friends");
  await page.goto("/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Настройки" })).toBeVisible();
  const sessions = await withSql(
    (sql) => sql<{ live: number; all: number }[]>`
      select count(*) filter (where revoked_at is null)::int as live, count(*)::int as all from sessions where account_id = ${user.id}`,
  );
  expect(sessions).toEqual([{ live: 1, all: 1 }]);
});

// Issue 24 items 6 and 9 (docs/adr/0111, 0112), through the real server: an uploaded file keeps its own
// sandbox CSP, and what Next itself answered with a plain-text 500 is refused in the envelope.
test("an uploaded file is served sandboxed; TRACE and a malformed % escape are refused in the envelope", async ({ playwright, baseURL }) => {
  const user = await createUser();
  const api = await playwright.request.newContext({ baseURL });
  const login = await api.post("/api/v1/auth/login", { data: { email: user.email, password: user.password } });
  const { accessToken } = await login.json();
  const png = await (await import("sharp")).default({ create: { width: 16, height: 16, channels: 3, background: "#3366cc" } }).png().toBuffer();
  const stored = await api.post("/api/v1/storage?type=IMAGE", {
    headers: { authorization: `Bearer ${accessToken}` },
    multipart: { file: { name: "a.png", mimeType: "image/png", buffer: png } },
  });
  expect(stored.status()).toBe(200);
  const file = await api.get((await stored.json()).data);
  expect(file.status()).toBe(200);
  expect(file.headers()["content-security-policy"]).toBe("default-src 'none'; sandbox");
  expect(file.headers()["x-frame-options"]).toBe("DENY");

  const trace = await api.fetch("/api/health", { method: "TRACE" });
  expect(trace.status()).toBe(405);
  expect((await trace.json()).error.code).toBe("method_not_allowed");
  for (const path of ["/api/v1/post/%E0%A4%A", "/api/%ff", "/api/v1/dialogs/recipientId/%zz"]) {
    const res = await api.get(path);
    expect(res.status(), path).toBe(400);
    expect((await res.json()).error.code).toBe("bad_request");
  }
  await api.dispose();
});
