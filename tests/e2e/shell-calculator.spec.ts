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

test("a long result fits the screen whole on a narrow phone", async ({ page }) => {
  // Issue 14 item 10: "9,9999998e…" was cut.
  await page.setViewportSize({ width: 320, height: 700 });
  const display = page.getByTestId("calc-display");
  await page.keyboard.type("99999999*99999999=");
  await expect(display).toHaveText(/^9,9999998e\+15$/);
  const fits = await display.evaluate((el) => el.scrollWidth <= el.clientWidth);
  expect(fits).toBe(true);
  await page.keyboard.type("*");
  await page.keyboard.type("99999999=");
  await expect(display).toHaveText(/e\+23$/);
  expect(await display.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  // A short number keeps the full size.
  await page.keyboard.press("Escape");
  await page.keyboard.type("7");
  expect(await display.evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBe(40);
});

test("a touch screen has no keyboard hint", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 800 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await signIn(page, await createUser());
  await page.goto("/calculator");
  await expect(page.getByTestId("calculator")).toHaveAttribute("data-ready", "true");
  await expect(page.getByText(/Работает и с клавиатуры/)).toBeHidden();
  await context.close();
});
