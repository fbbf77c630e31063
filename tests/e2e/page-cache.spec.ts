import type { Page, Response } from "@playwright/test";
import { contextIn, createUser, expect, test } from "./fixtures";

// Issue 8 item 3 (docs/adr/0093): the signed-out pages that are the same for everyone are rendered once
// per language and served from the custom server's cache, each response with a nonce of its own.

const TEXT = {
  ru: { login: "Вход в Круг", password: "Пароль", submit: "Войти", registration: "Регистрация" },
  en: { login: "Sign in to Krug", password: "Password", submit: "Sign in", registration: "Sign up" },
} as const;

const nonceOf = (res: Response) => /'nonce-([^']+)'/.exec(res.headers()["content-security-policy"])?.[1];

/** The nonces of the page's inline scripts (chunks the runtime loads later are external, allowed by 'strict-dynamic'). */
async function scriptNonces(page: Page): Promise<Set<string>> {
  return new Set(
    await page.locator("script:not([src])").evaluateAll((els) => els.map((e) => (e as HTMLScriptElement).nonce ?? "")),
  );
}

/** Every nonce attribute the server sent in the HTML. */
const bodyNonces = async (res: Response) => new Set([...(await res.text()).matchAll(/nonce="([^"]*)"/g)].map((m) => m[1]));

for (const lang of ["ru", "en"] as const) {
  test(`/login from the cache (${lang}): two visitors, each with a nonce of its own, no CSP violation`, async ({ browser, baseURL }) => {
    test.setTimeout(60_000); // two browser contexts on a loaded machine
    const violations: string[] = [];
    const contexts = [await contextIn(browser, lang, baseURL!), await contextIn(browser, lang, baseURL!)];
    const [a, b] = [await contexts[0].newPage(), await contexts[1].newPage()];
    for (const p of [a, b]) {
      p.on("console", (m) => {
        if (m.type() === "error" && /Content Security Policy|Content-Security-Policy/i.test(m.text())) violations.push(m.text());
      });
    }
    const ra = (await a.goto("/login"))!;
    const rb = (await b.goto("/login"))!;
    expect(rb.headers()["x-krug-page-cache"]).toBe("hit");
    const [na, nb] = [nonceOf(ra), nonceOf(rb)];
    expect(na).toBeTruthy();
    expect(na).not.toBe(nb);
    // Each page runs with its own response's nonce on every script; the other's appears nowhere.
    expect(await bodyNonces(ra)).toEqual(new Set([na]));
    expect(await bodyNonces(rb)).toEqual(new Set([nb]));
    expect(await scriptNonces(a)).toEqual(new Set([na]));
    expect(await scriptNonces(b)).toEqual(new Set([nb]));
    expect(await rb.text()).not.toContain(na!);
    expect(ra.headers()["set-cookie"]).toBeUndefined();
    await expect(a.locator("html")).toHaveAttribute("lang", lang);
    await expect(b.getByRole("heading", { level: 1, name: TEXT[lang].login })).toBeVisible();
    // The theme script ran under the fresh nonce (data-theme is set before paint).
    await expect(b.locator("html")).toHaveAttribute("data-theme", /light|dark/);
    expect(violations).toEqual([]);
    await Promise.all(contexts.map((c) => c.close()));
  });

  test(`the cached login form signs in (${lang}); signed in, /login is the guard's redirect`, async ({ browser, baseURL }) => {
    test.setTimeout(60_000); // sign-in and the news page on a loaded machine
    const user = await createUser();
    const context = await contextIn(browser, lang, baseURL!);
    const page = await context.newPage();
    expect((await page.goto("/login"))!.headers()["x-krug-page-cache"]).toBe("hit");
    await page.getByLabel("E-mail").fill(user.email);
    await page.getByLabel(TEXT[lang].password, { exact: true }).fill(user.password);
    await page.getByRole("button", { name: TEXT[lang].submit }).click();
    await expect(page).toHaveURL("/");
    const again = await page.request.get("/login", { maxRedirects: 0 });
    expect(again.status()).toBe(307);
    expect(again.headers()["location"]).toBe("/");
    expect(again.headers()["x-krug-page-cache"]).toBeUndefined();
    await context.close();
  });
}

test("the browser's language alone (no cookie) picks the cached page's language", async ({ browser }) => {
  for (const [locale, lang] of [["en-US", "en"], ["ru-RU", "ru"]] as const) {
    const context = await browser.newContext({ locale });
    const page = await context.newPage();
    const res = (await page.goto("/registration"))!;
    expect(res.headers()["x-krug-page-cache"]).toBe("hit");
    await expect(page.locator("html")).toHaveAttribute("lang", lang);
    await expect(page.getByRole("heading", { level: 1, name: TEXT[lang].registration })).toBeVisible();
    await context.close();
  }
});
