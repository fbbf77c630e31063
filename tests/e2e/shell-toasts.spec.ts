import { createUser, expect, signIn, test } from "./fixtures";

// Spec sections 4 and 9: toasts are queued — one visible at a time, the next after the previous closes.
test("toasts appear one after another, never together", async ({ page, context, baseURL }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await signIn(page, await createUser());
  await page.goto("/calculator");
  const copy = page.getByRole("button", { name: "Скопировать результат" });
  await expect(page.getByTestId("calculator")).toHaveAttribute("data-ready", "true");
  // The language menu loads Radix on intent (docs/adr/0092): pointing at it first keeps that load out of
  // the 3-second toasts timed below. Loaded, Radix's trigger (with its id) has taken the plain one's place.
  const languageSwitch = page.getByRole("button", { name: "Сменить язык" });
  await languageSwitch.hover();
  await expect(languageSwitch).toHaveAttribute("id", /^radix-/);

  await page.keyboard.type("7");
  await copy.click();
  await page.keyboard.press("Escape");
  await page.keyboard.type("8");
  await copy.click();
  await languageSwitch.click();
  await page.getByRole("menuitemradio", { name: "English" }).click();

  const first = page.getByText("Скопировано: 7");
  const second = page.getByText("Скопировано: 8");
  const third = page.getByText("Interface language: English");
  await expect(first).toBeVisible();
  await expect(second).toHaveCount(0);
  await expect(third).toHaveCount(0);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("8");

  await expect(second).toBeVisible();
  await expect(first).toHaveCount(0);
  await expect(third).toHaveCount(0);

  await expect(third).toBeVisible();
  await expect(second).toHaveCount(0);
  await expect(third).toHaveCount(0);
});
