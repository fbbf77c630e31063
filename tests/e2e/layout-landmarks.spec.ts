import { contextIn, createUser, expect, signIn, test } from "./fixtures";

// Issue 24 item 21 (docs/adr/0117): the 404 card sits in its layout's one <main> (not a second one
// nested in it), and the admin sidebar's column runs the whole height of a long page.

test.describe.configure({ timeout: 120_000 });

const TEXT = {
  ru: { notFound: "Страница не найдена", users: "Пользователи" },
  en: { notFound: "Page not found", users: "Users" },
} as const;

for (const lang of ["ru", "en"] as const) {
  const L = TEXT[lang];

  test(`a missing post's page has one <main> (${lang})`, async ({ browser, baseURL }) => {
    const context = await contextIn(browser, lang, baseURL!);
    const page = await context.newPage();
    await signIn(page, await createUser({ language: lang }));
    await page.goto("/post/999999999");
    await expect(page.getByRole("heading", { level: 1, name: L.notFound })).toBeVisible();
    await expect(page.getByRole("main")).toHaveCount(1);
    await expect(page.locator("main main")).toHaveCount(0);
    await context.close();
  });

  test(`the admin sidebar's background runs the whole height of a long page (${lang})`, async ({ browser, baseURL }) => {
    const admin = await createUser({ role: "ADMIN", language: lang });
    // Enough accounts for a full page of the users list (20 rows), far taller than the window.
    for (let i = 0; i < 20; i++) await createUser({ language: lang });
    const context = await contextIn(browser, lang, baseURL!);
    const page = await context.newPage();
    await signIn(page, admin);
    await page.goto("/admin/users");
    await expect(page.getByRole("heading", { level: 1, name: L.users })).toBeVisible();
    await expect(page.locator("tbody tr")).toHaveCount(20);
    const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
    const viewport = page.viewportSize()!.height;
    expect(pageHeight).toBeGreaterThan(viewport + 200);
    // The column with its background is as tall as the page …
    const aside = page.getByRole("complementary");
    expect((await aside.boundingBox())!.height).toBeGreaterThanOrEqual(pageHeight - 1);
    // … and its menu stays in view at the bottom of the page.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(page.getByRole("navigation").getByRole("link", { name: L.users })).toBeInViewport();

    // The admin area's 404 card is in its one <main> too, beside the sidebar.
    await page.goto("/admin/publications/999999999");
    await expect(page.getByRole("heading", { level: 1, name: L.notFound })).toBeVisible();
    await expect(page.getByRole("main")).toHaveCount(1);
    await expect(page.getByRole("complementary")).toBeVisible();
    await context.close();
  });
}
