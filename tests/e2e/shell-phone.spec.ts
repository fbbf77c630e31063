import { baseURL } from "../../playwright.config";
import { createUser, expect, signIn, test } from "./fixtures";

test.use({ viewport: { width: 360, height: 740 }, hasTouch: true });

test("at phone width a bottom bar replaces the sidebar and reaches every section", async ({ page }) => {
  await signIn(page, await createUser());
  await page.goto("/");
  await expect(page.getByRole("navigation", { name: "Основное меню" })).toBeHidden();
  const bar = page.getByRole("navigation", { name: "Навигация" });
  await expect(bar).toBeVisible();

  await bar.getByRole("link", { name: "Сообщения" }).click();
  await expect(page).toHaveURL("/im");
  await expect(page.getByRole("heading", { level: 1, name: "Сообщения" })).toBeVisible();

  await bar.getByRole("button", { name: "Ещё" }).click();
  await page.getByRole("menuitem", { name: "Калькулятор" }).click();
  await expect(page).toHaveURL("/calculator");

  await bar.getByRole("link", { name: "Профиль" }).click();
  await expect(page).toHaveURL("/profile");

  // Nothing sticks out sideways at 360 px.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test("a signed-out visitor on the narrowest phone: the header search is a magnifier that opens across the bar, in both languages", async ({ browser }) => {
  // A public profile shell: the one page a signed-out visitor sees with the full header.
  const someone = await createUser();
  for (const [locale, label] of [["ru", "Поиск людей"], ["en", "Search people"]] as const) {
    const context = await browser.newContext({ baseURL, viewport: { width: 320, height: 640 }, locale: locale === "en" ? "en-US" : "ru-RU" });
    await context.addCookies([{ name: "NEXT_LOCALE", value: locale, url: baseURL }]);
    await context.addInitScript((l) => localStorage.setItem("selectedLanguage", l), locale);
    const page = await context.newPage();
    await page.goto(`/profile/${someone.id}`);
    const box = page.getByRole("searchbox", { name: label });
    // Closed, it is only the icon wide and leaves room for the switches and "Sign in".
    expect((await box.boundingBox())!.width).toBeLessThanOrEqual(40);
    await box.click();
    // Open, it spans the bar so a query can be read while typed.
    await expect.poll(async () => (await box.boundingBox())!.width).toBeGreaterThan(280);
    await box.fill("Анна");
    await expect(box).toHaveValue("Анна");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await context.close();
  }
});
