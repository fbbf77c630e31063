import { createUser, expect, signIn, test } from "./fixtures";

// Spec section 1: language (RU default, saved as selectedLanguage) and theme (light, dark, system).

test("the language switch survives a reload and the server renders the chosen language", async ({ page }) => {
  await signIn(page, await createUser());
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("lang", "ru");
  await page.getByRole("button", { name: "Сменить язык" }).click();
  await page.getByRole("menuitemradio", { name: "English" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "News" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  expect(await page.evaluate(() => localStorage.getItem("selectedLanguage"))).toBe("en");

  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "News" })).toBeVisible();
  await expect(page).toHaveTitle("News");

  // The raw HTML, as the server sends it with this browser's cookies: already English, no flash.
  const html = await (await page.request.get("/")).text();
  expect(html).toMatch(/<html[^>]* lang="en"/);
  expect(html).toContain("<title>News</title>");
  expect(html).toContain("Your feed is empty so far");
  expect(html).not.toContain("Лента пока пуста");
});

test("a language kept in localStorage wins over a missing cookie on the first load", async ({ page, context }) => {
  await page.goto("/login");
  await page.evaluate(() => localStorage.setItem("selectedLanguage", "en"));
  await context.clearCookies({ name: "NEXT_LOCALE" });
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in to Krug" })).toBeVisible();
  const html = await (await page.request.get("/login")).text();
  expect(html).toMatch(/<html[^>]* lang="en"/);
  expect(html).toContain("Krug | Sign in");
});

test("the theme switch survives a reload, and 'system' follows the OS preference live", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/login");
  const html = page.locator("html");
  await expect(html).toHaveAttribute("data-theme", "light");

  await page.getByRole("button", { name: "Сменить тему" }).click();
  await page.getByRole("menuitemradio", { name: "Тёмная" }).click();
  await expect(html).toHaveAttribute("data-theme", "dark");
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
  await page.reload();
  await expect(html).toHaveAttribute("data-theme", "dark");

  await page.getByRole("button", { name: "Сменить тему" }).click();
  await page.getByRole("menuitemradio", { name: "Как в системе" }).click();
  await expect(html).toHaveAttribute("data-theme", "light");
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(html).toHaveAttribute("data-theme", "dark");
  await page.emulateMedia({ colorScheme: "light" });
  await expect(html).toHaveAttribute("data-theme", "light");
});

test("the profile menu offers settings, language, theme and logout", async ({ page }) => {
  const user = await createUser({ firstName: "Ольга", lastName: "Меню" });
  await signIn(page, user);
  await page.goto("/");
  await page.getByRole("button", { name: "Меню профиля" }).click();
  const menu = page.getByRole("menu");
  await expect(menu.getByText("Ольга Меню")).toBeVisible();
  await expect(menu.getByRole("menuitem", { name: "Настройки" })).toBeVisible();
  await expect(menu.getByRole("menuitem", { name: "Язык" })).toBeVisible();
  await expect(menu.getByRole("menuitem", { name: "Тема" })).toBeVisible();
  await menu.getByRole("menuitem", { name: "Выйти" }).click();
  await expect(page).toHaveURL("/login");
  await page.goto("/profile");
  await expect(page).toHaveURL("/login?redirect=Profile");
});

test("the bell opens an honest empty panel and shows no badge at zero", async ({ page }) => {
  await signIn(page, await createUser());
  await page.goto("/");
  const bell = page.getByRole("button", { name: "Уведомления" });
  await expect(bell).toHaveText("");
  await bell.click();
  const panel = page.getByRole("dialog", { name: "Уведомления" });
  await expect(panel.getByText("Новых уведомлений нет")).toBeVisible();
  await panel.getByRole("link", { name: "Все уведомления" }).click();
  await expect(page).toHaveURL("/push");
});
