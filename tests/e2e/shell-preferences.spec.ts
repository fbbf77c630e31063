import { contextIn, createUser, expect, signIn, test } from "./fixtures";

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
  // Once the page has mounted, the language in use is stored; only then is the stored one replaced here
  // (earlier, the page itself would find "en" and reload into it while this test reloads too).
  await expect.poll(() => page.evaluate(() => localStorage.getItem("selectedLanguage"))).toBe("ru");
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

// Menus and popovers load Radix on intent (docs/adr/0092): the first press on the plain trigger is kept
// while the module loads, then opens it as Radix would — from the keyboard on its first item — and
// Escape gives focus back to the (now Radix) trigger.
const KEYBOARD = {
  ru: { profileMenu: "Меню профиля", settings: "Настройки", bell: "Уведомления" },
  en: { profileMenu: "Profile menu", settings: "Settings", bell: "Notifications" },
} as const;

for (const lang of ["ru", "en"] as const) {
  test(`a lazily loaded menu and popover open from the keyboard on the first press (${lang})`, async ({ browser, baseURL }) => {
    const L = KEYBOARD[lang];
    const context = await contextIn(browser, lang, baseURL!);
    const page = await context.newPage();
    await signIn(page, await createUser({ language: lang }));
    await page.goto("/");
    const profileMenu = page.getByRole("button", { name: L.profileMenu });
    const bell = page.getByRole("button", { name: L.bell });
    // Hydrated: React has attached its handlers to the trigger.
    await expect.poll(() => profileMenu.evaluate((el) => Object.keys(el).some((k) => k.startsWith("__reactProps")))).toBe(true);

    // Every script asked for from now on waits until released: the press lands before Radix is there.
    let release = () => {};
    const hold = () => new Promise<void>((resolve) => (release = resolve));
    let held = hold();
    await page.route("**/_next/static/chunks/**", async (route) => {
      await held;
      await route.continue();
    });

    await profileMenu.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("menu")).toHaveCount(0);
    await expect(profileMenu).toBeFocused();
    await expect(profileMenu).toHaveAttribute("aria-expanded", "false");
    release();
    const menu = page.getByRole("menu");
    await expect(menu.getByRole("menuitem", { name: L.settings })).toBeVisible();
    await expect(menu.getByRole("menuitem").first()).toBeFocused();
    await expect(profileMenu).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Escape");
    await expect(menu).toHaveCount(0);
    await expect(profileMenu).toBeFocused();

    // The bell's popover (another module), by Space.
    held = hold();
    await bell.focus();
    await page.keyboard.press(" ");
    await expect(page.getByRole("dialog", { name: L.bell })).toHaveCount(0);
    release();
    const panel = page.getByRole("dialog", { name: L.bell });
    await expect(panel.getByRole("heading", { name: L.bell, exact: true })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(panel).toHaveCount(0);
    await expect(bell).toBeFocused();
    await context.close();
  });
}
