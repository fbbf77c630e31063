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
