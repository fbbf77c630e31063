import { createUser, expect, signIn, test } from "./fixtures";

test("the top-bar search opens the people tab with the query and finds people", async ({ page }) => {
  const other = await createUser({ firstName: "Серафима", lastName: "Искомая" });
  await signIn(page, await createUser());
  await page.goto("/");
  await page.getByRole("searchbox", { name: "Поиск людей" }).fill("Серафима");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`/search?tab=people&query=${encodeURIComponent("Серафима")}`);
  await expect(page.getByRole("searchbox", { name: "Поисковый запрос" })).toHaveValue("Серафима");

  const tabs = page.getByRole("navigation", { name: "Что искать" });
  await tabs.getByRole("link", { name: "Новости" }).click();
  await expect(page).toHaveURL(`/search?tab=news&query=${encodeURIComponent("Серафима")}`);
  await expect(tabs.getByRole("link", { name: "Новости" })).toHaveAttribute("aria-current", "page");

  await tabs.getByRole("link", { name: "Люди" }).click();
  await page.getByRole("link", { name: "Серафима Искомая" }).click();
  await expect(page).toHaveURL(`/profile/${other.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Серафима Искомая" })).toBeVisible();
});

test("search asks a signed-out visitor to sign in and brings them back", async ({ page }) => {
  const user = await createUser();
  await page.goto("/search?tab=people");
  await page.getByRole("main").getByRole("link", { name: "Войти" }).click();
  await expect(page).toHaveURL("/login?redirect=Search");
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Пароль", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Войти" }).click();
  await expect(page).toHaveURL("/search");
});
