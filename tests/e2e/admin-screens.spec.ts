import { createUser, expect, signIn, test } from "./fixtures";
import { createPost } from "./posts-support";

// Issue 13: the admin screens in both languages and themes, at a desktop and a phone width. Each page
// renders its heading without a horizontal scrollbar on the page itself (wide tables scroll inside their
// own box); screenshots land in test-results/ for a look.

test.describe.configure({ timeout: 300_000 });

for (const lang of ["ru", "en"] as const) {
  test(`admin pages fit both widths in both themes (${lang})`, async ({ browser, baseURL }, testInfo) => {
    const admin = await createUser({ role: "ADMIN", language: lang, firstName: "Экран", lastName: "Проверка" });
    // Overflow does not depend on the theme: each language takes each width once, in opposite themes, so
    // both themes are seen at both widths across the two runs (half the page loads of the full grid).
    const views = lang === "ru" ? ([["light", 1280], ["dark", 390]] as const) : ([["dark", 1280], ["light", 390]] as const);
    for (const [theme, width] of views) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: theme });
      if (lang === "en") {
        await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL! }]);
        await context.addInitScript(() => localStorage.setItem("selectedLanguage", "en"));
      }
      const page = await context.newPage();
      await signIn(page, admin);
      if (width === 1280) await createPost(page.request, { title: "Пост для экрана", postText: "<p>Текст записи для экрана</p>" });
      for (const path of ["/admin", "/admin/users", "/admin/publications", "/admin/audit"]) {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        if (path === "/admin") await expect(page.getByTestId("statistics-chart")).toBeVisible({ timeout: 30_000 });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${path} at ${width}px`).toBeLessThanOrEqual(1);
        await page.screenshot({ path: testInfo.outputPath(`${path.replaceAll("/", "_")}-${lang}-${theme}-${width}.png`), fullPage: true });
      }
      await context.close();
    }
  });
}
