import { createUser, expect, test } from "./fixtures";
import { mailedLink } from "./identity-mail";

// Issue 3 / spec sections 2 and 8: forgot password → the mailed link → a new password → sign in with it.
const NEW_PASSWORD = "Recovered-pass7#";

test("a user who forgot the password sets a new one from the mailed link and signs in with it", async ({ page }) => {
  const user = await createUser({ firstName: "Вера", lastName: "Забывчивая" });
  await page.goto("/login");
  await page.getByRole("link", { name: "Забыли пароль?" }).click();
  await expect(page).toHaveURL("/forgot");
  await expect(page.getByRole("heading", { level: 1, name: "Восстановление пароля" })).toBeVisible();

  const email = page.getByLabel("E-mail", { exact: true });
  await email.fill("no-at-sign");
  await page.getByRole("button", { name: "Отправить ссылку" }).click();
  await expect(page.getByText("Неверный формат e-mail.")).toBeVisible();
  await email.fill(user.email);
  await page.getByRole("button", { name: "Отправить ссылку" }).click();
  await expect(page).toHaveURL("/forgot-success");
  await expect(page.getByRole("heading", { level: 1, name: "Проверьте почту" })).toBeVisible();

  const link = await mailedLink(user.email, "/change-password/");
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: "Новый пароль" })).toBeVisible();
  const password = page.getByLabel("Новый пароль", { exact: true });
  const repeat = page.getByLabel("Повторите новый пароль", { exact: true });
  const save = page.getByRole("button", { name: "Сохранить пароль" });

  await password.fill("nodigits!");
  await repeat.fill("nodigits?");
  await save.click();
  await expect(page.getByText("Пароль должен содержать заглавную и строчную букву, цифру и специальный символ.")).toBeVisible();
  await expect(page.getByText("Пароли должны совпадать.")).toBeVisible();

  await password.fill(NEW_PASSWORD);
  await expect(page.getByText("Надёжность пароля: Надёжный")).toBeVisible();
  await repeat.fill(NEW_PASSWORD);
  await save.click();
  await expect(page).toHaveURL("/change-password-success");
  await expect(page.getByText("Пароль успешно изменён", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Пароль изменён" })).toBeVisible();

  // The old password no longer works; the new one does.
  await page.getByRole("link", { name: "Войти", exact: true }).click();
  await expect(page).toHaveURL("/login");
  await page.getByLabel("E-mail", { exact: true }).fill(user.email);
  await page.getByLabel("Пароль", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Войти", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Неверный e-mail или пароль" })).toBeVisible();
  await page.getByLabel("Пароль", { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Войти", exact: true }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("heading", { level: 1, name: "Новости" })).toBeVisible();

  // The link was single-use: opened again (through the API address that redirects to the page), it says so.
  const secret = new URL(link).pathname.split("/").pop()!;
  await page.goto(`/api/v1/auth/password/recovery/${secret}`);
  await expect(page).toHaveURL(`/change-password/${secret}`);
  await expect(page.getByRole("heading", { level: 1, name: "Ссылка недействительна" })).toBeVisible();
  await expect(page.getByText("Ссылка недействительна или устарела. Запросите новую.")).toBeVisible();
  await expect(page.getByLabel("Новый пароль", { exact: true })).toHaveCount(0);
  await page.getByRole("link", { name: "Запросить новую ссылку" }).click();
  await expect(page).toHaveURL("/forgot");
});

test("the recovery request looks the same for an address without an account", async ({ page }) => {
  await page.goto("/forgot");
  await page.getByLabel("E-mail", { exact: true }).fill("nobody-here@example.com");
  await page.getByRole("button", { name: "Отправить ссылку" }).click();
  await expect(page).toHaveURL("/forgot-success");
  await expect(page.getByRole("heading", { level: 1, name: "Проверьте почту" })).toBeVisible();
});
