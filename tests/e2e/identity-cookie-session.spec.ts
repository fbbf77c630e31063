import { createUser, expect, test } from "./fixtures";

// Issue 24 item 5, ADR 113: Krug's own sign-in form asks for a cookie session, so the answers its page
// script reads (the sign-in, and the renewal it makes later) hold no token; the session lives in the
// httpOnly cookies only.

const TEXTS = {
  ru: { password: "Пароль", submit: "Войти" },
  en: { password: "Password", submit: "Sign in" },
} as const;

for (const lang of ["ru", "en"] as const) {
  test(`signing in through the form hands no token to the page (${lang})`, async ({ page, context, baseURL }) => {
    if (lang === "en") await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL! }]);
    const x = TEXTS[lang];
    const user = await createUser({ language: lang });
    await page.goto("/login");
    await page.getByLabel("E-mail", { exact: true }).fill(user.email);
    await page.getByLabel(x.password, { exact: true }).fill(user.password);
    const answer = page.waitForResponse((res) => res.url().endsWith("/api/v1/auth/login") && res.request().method() === "POST");
    await page.getByRole("button", { name: x.submit, exact: true }).click();
    const login = await answer;
    expect(login.status()).toBe(200);
    expect(login.request().postDataJSON()).toMatchObject({ email: user.email, session: "cookie" });
    const body = await login.text();
    expect(JSON.parse(body)).toEqual({ ok: true });
    expect(body).not.toMatch(/token|ey[A-Za-z0-9_-]{10,}\./i);
    await expect(page).not.toHaveURL(/\/login/);

    // The session is in httpOnly cookies, out of script's reach, and a renewal from the page gets none either.
    const cookies = await context.cookies();
    for (const name of ["access_token", "refresh_token"]) expect(cookies.find((c) => c.name === name)).toMatchObject({ httpOnly: true });
    expect(await page.evaluate(() => document.cookie)).not.toMatch(/access_token|refresh_token/);
    const renewed = await page.evaluate(async () => {
      const res = await fetch("/api/v1/auth/refresh", { method: "POST", credentials: "include" });
      return { status: res.status, body: await res.text() };
    });
    expect(renewed).toEqual({ status: 200, body: JSON.stringify({ ok: true }) });
  });
}
