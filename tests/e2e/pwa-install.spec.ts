import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { createUser, expect, signIn, test } from "./fixtures";

// Issue 25 section 1 (docs/adr/0119): Krug installs in Chromium, its manifest speaks the reader's
// language, the service worker keeps the build's static files and the pages shown (docs/adr/0178), and
// a navigation without network that was never kept shows the offline page in that language.

const TEXT = {
  ru: { name: "Круг", offline: "Нет соединения", retry: "Обновить" },
  en: { name: "Krug", offline: "You are offline", retry: "Reload" },
} as const;

for (const lang of ["ru", "en"] as const) {
  test(`Krug installs, keeps pages only in the device cache and answers offline in ${lang}`, async ({ launchOptions, baseURL }) => {
    // A profile on disk: Chromium refuses to install from an incognito context (Playwright's newContext()).
    const profile = await mkdtemp(path.join(tmpdir(), "krug-pwa-"));
    const context = await chromium.launchPersistentContext(profile, { ...launchOptions, baseURL, serviceWorkers: "allow", locale: lang === "en" ? "en-GB" : "ru-RU" });
    try {
      if (lang === "en") await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL! }]);
      const page = context.pages()[0] ?? (await context.newPage());
      await signIn(page, await createUser({ language: lang }));
      await page.goto("/friends");

      // The head names the manifest of this language, the Apple icon and both theme colours.
      await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", `/manifest/${lang}.webmanifest`);
      await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute("href", "/icons/apple-touch-icon.png");
      await expect(page.locator('meta[name="apple-mobile-web-app-capable"]')).toHaveAttribute("content", "yes");
      await expect(page.locator('meta[name="apple-mobile-web-app-title"]')).toHaveAttribute("content", TEXT[lang].name);
      await expect(page.locator('meta[name="theme-color"]')).toHaveCount(2);

      // The worker script is never kept by the HTTP cache: each navigation can find a new build.
      const script = await page.request.get("/sw.js");
      expect(script.status()).toBe(200);
      expect(script.headers()["content-type"]).toContain("javascript");
      expect(script.headers()["cache-control"]).toBe("no-cache");

      // The worker is installed (precache done) and active.
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      const cdp = await context.newCDPSession(page);
      const app = await cdp.send("Page.getAppManifest");
      expect(app.errors).toEqual([]);
      expect(JSON.parse(app.data ?? "{}")).toMatchObject({ name: TEXT[lang].name, short_name: TEXT[lang].name, display: "standalone", lang });
      expect((await cdp.send("Page.getInstallabilityErrors")).installabilityErrors).toEqual([]);

      // The next navigation is the worker's; besides the build's static files it keeps only the pages shown
      // (docs/adr/0178), in the account's own krug-device-* cache, and no API answer.
      await page.goto("/profile");
      expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
      const cached = await page.evaluate(async () => {
        const paths: string[] = [];
        for (const name of await caches.keys()) {
          const device = name.startsWith("krug-device-");
          for (const request of await (await caches.open(name)).keys()) paths.push(`${device ? "device " : ""}${new URL(request.url).pathname}`);
        }
        return paths;
      });
      expect(cached.length).toBeGreaterThan(0);
      expect(cached.filter((p) => !p.startsWith("/_next/static/") && !p.startsWith("device ")).sort()).toEqual([]);
      expect(cached.filter((p) => p.startsWith("device /api/"))).toEqual([]);

      // Offline: a navigation gets the offline page in the reader's language; back online, its link loads the page.
      await context.setOffline(true);
      await page.goto("/im");
      await expect(page.getByRole("heading", { level: 1, name: TEXT[lang].offline })).toBeVisible();
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await context.setOffline(false);
      await page.getByRole("link", { name: TEXT[lang].retry }).click();
      await expect(page).toHaveURL(/\/im$/);
      await expect(page.getByRole("heading", { level: 1, name: TEXT[lang].offline })).toHaveCount(0);
      await expect(page.locator("main").first()).toBeVisible();
    } finally {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    }
  });
}
