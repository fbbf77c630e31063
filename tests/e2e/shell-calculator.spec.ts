import { createUser, expect, signIn, test } from "./fixtures";

test.beforeEach(async ({ page }) => {
  await signIn(page, await createUser());
  await page.goto("/calculator");
  await expect(page.getByRole("heading", { level: 1, name: "Калькулятор" })).toBeVisible();
  // Keys typed before the page comes alive would go nowhere, for a person as for a test.
  await expect(page.getByTestId("calculator")).toHaveAttribute("data-ready", "true");
});

test("the calculator works from the keyboard", async ({ page }) => {
  const display = page.getByTestId("calc-display");
  await page.keyboard.type("12+30");
  await page.keyboard.press("Enter");
  await expect(display).toHaveText("42");
  await page.keyboard.type("*2=");
  await expect(display).toHaveText("84");
  await page.keyboard.press("Escape");
  await expect(display).toHaveText("0");
  await page.keyboard.type("0.1+0.2=");
  await expect(display).toHaveText("0,3");
  await page.keyboard.type("9/0");
  await page.keyboard.press("Enter");
  await expect(display).toHaveText("На ноль делить нельзя");
  await page.keyboard.type("7");
  await expect(display).toHaveText("7");
  await page.keyboard.type("89");
  await page.keyboard.press("Backspace");
  await expect(display).toHaveText("78");
});

test("the calculator works with clicks", async ({ page }) => {
  const display = page.getByTestId("calc-display");
  const pad = page.getByRole("group", { name: "Клавиатура калькулятора" });
  await pad.getByRole("button", { name: "7", exact: true }).click();
  await pad.getByRole("button", { name: "Умножить" }).click();
  await pad.getByRole("button", { name: "6", exact: true }).click();
  await pad.getByRole("button", { name: "Равно" }).click();
  await expect(display).toHaveText("42");
  await expect(page.getByTestId("calc-expression")).toHaveText("7 × 6 =");
  await pad.getByRole("button", { name: "Очистить" }).click();
  await pad.getByRole("button", { name: "Десятичная запятая" }).click();
  await pad.getByRole("button", { name: "5", exact: true }).click();
  await pad.getByRole("button", { name: "Разделить" }).click();
  await pad.getByRole("button", { name: "2", exact: true }).click();
  await pad.getByRole("button", { name: "Равно" }).click();
  await expect(display).toHaveText("0,25");
  await pad.getByRole("button", { name: "Разделить" }).click();
  await pad.getByRole("button", { name: "0", exact: true }).click();
  await pad.getByRole("button", { name: "Равно" }).click();
  await expect(display).toHaveText("На ноль делить нельзя");
  await pad.getByRole("button", { name: "Очистить" }).click();
  await pad.getByRole("button", { name: "1", exact: true }).click();
  await pad.getByRole("button", { name: "2", exact: true }).click();
  await pad.getByRole("button", { name: "Стереть символ" }).click();
  await expect(display).toHaveText("1");
});
