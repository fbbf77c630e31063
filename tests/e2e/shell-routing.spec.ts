import { createUser, expect, signIn, test } from "./fixtures";
import { withDb } from "./posts-support";

const countAccounts = () => withDb(async (sql) => Number((await sql`select count(*)::int as n from accounts`)[0].n));

// Spec section 2: the routing rules, checked in a real browser against the production build.

test("an unknown path leads to the news page", async ({ page }) => {
  await signIn(page, await createUser());
  await page.goto("/no/such/page");
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("heading", { level: 1, name: "Новости" })).toBeVisible();
});

test("a signed-out visitor of an unknown path ends on login with the news page as the way back", async ({ page }) => {
  await page.goto("/definitely-not-here");
  await expect(page).toHaveURL("/login?redirect=News");
});

test("a protected page sends a signed-out visitor to login and back there after sign-in", async ({ page }) => {
  const user = await createUser();
  await page.goto("/settings");
  await expect(page).toHaveURL("/login?redirect=Settings");
  await expect(page).toHaveTitle("Круг | Вход");
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Пароль", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Войти" }).click();
  await expect(page).toHaveURL("/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Настройки" })).toBeVisible();
  await expect(page).toHaveTitle("Настройки");
});

test("the way back keeps the route's id (ProfileId)", async ({ page }) => {
  const other = await createUser({ firstName: "Борис", lastName: "Петров" });
  const user = await createUser();
  // Signed out, /profile/{id} is the public shell (docs/adr/0014); its sign-in link carries the way back.
  await page.goto(`/profile/${other.id}`);
  await expect(page.getByTestId("public-profile").getByRole("heading", { level: 1, name: "Борис Петров" })).toBeVisible();
  await page.getByRole("main").getByRole("link", { name: "Войти" }).click();
  await expect(page).toHaveURL(`/login?redirect=ProfileId&id=${other.id}`);
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Пароль", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Войти" }).click();
  await expect(page).toHaveURL(`/profile/${other.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Борис Петров" })).toBeVisible();
  await expect(page.getByTestId("public-profile")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Добавить в друзья" })).toBeVisible();
});

test("a login link carrying a foreign address lands on the news page", async ({ page }) => {
  const user = await createUser();
  await page.goto("/login?redirect=https%3A%2F%2Fevil.example%2F");
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Пароль", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Войти" }).click();
  await expect(page).toHaveURL("/");
});

test("a wrong password shows the server's message and stays on login", async ({ page }) => {
  const user = await createUser();
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Пароль", { exact: true }).fill("wrong-password");
  await page.getByRole("button", { name: "Войти" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Неверный e-mail или пароль" })).toBeVisible();
  await expect(page).toHaveURL("/login");
});

test("the login page sends a signed-in user to the news page", async ({ page }) => {
  await signIn(page, await createUser());
  await page.goto("/login");
  await expect(page).toHaveURL("/");
});

test("an expired access token is renewed from the refresh cookie before the page renders", async ({ page, context, baseURL }) => {
  const user = await createUser({ firstName: "Вера", lastName: "Обновлённая" });
  await signIn(page, user);
  // An unverifiable token stands for an expired one: the proxy must fall back to the refresh cookie.
  await context.addCookies([{ name: "access_token", value: "expired.or.garbage", url: baseURL! }]);
  await page.goto("/profile");
  await expect(page.getByRole("heading", { level: 1, name: "Вера Обновлённая" })).toBeVisible();
  const renewed = (await context.cookies()).find((c) => c.name === "access_token");
  expect(renewed?.value).toMatch(/^ey/);
});

test("the admin area has no top bar, shows real counts and is closed to regular users", async ({ page, browser }) => {
  test.setTimeout(60_000); // three accounts, four admin page loads and a second browser page
  const admin = await createUser({ role: "ADMIN", firstName: "Админ", lastName: "Главный" });
  await signIn(page, admin);
  await page.goto("/");
  await expect(page.getByRole("banner")).toBeVisible();
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Статистика" })).toBeVisible();
  await expect(page.getByRole("banner")).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Меню администратора" })).toBeVisible();
  const shownTotal = async () => Number(await page.getByTestId("stat-accounts").getByTestId("total").getAttribute("data-count"));
  const total = await shownTotal();
  expect(total).toBeGreaterThanOrEqual(1);
  await createUser();
  // Other journeys make accounts beside this one (two workers): the real count is the table's count
  // read just before and just after the reload, and it includes the account made above.
  const before = await countAccounts();
  expect(before).toBeGreaterThanOrEqual(total + 1);
  await page.reload();
  await expect(page.getByTestId("stat-accounts").getByTestId("total")).toBeVisible();
  const shown = await shownTotal();
  const after = await countAccounts();
  expect(shown).toBeGreaterThanOrEqual(before);
  expect(shown).toBeLessThanOrEqual(after);
  await expect(page.getByTestId("stat-accounts").getByTestId("period")).not.toHaveText("0");

  await page.getByRole("link", { name: "Пользователи" }).click();
  await expect(page.getByRole("cell", { name: "Админ Главный" })).toBeVisible();
  await expect(page.getByRole("banner")).toHaveCount(0);

  const other = await browser.newPage();
  await signIn(other, await createUser());
  await other.goto("/admin/users");
  await expect(other).toHaveURL("/");
  await other.close();
});

test("an unknown API path answers a JSON 404 for every method, never a page", async ({ request }) => {
  for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"] as const) {
    const res = await request.fetch("/api/v1/no-such-endpoint/42", { method, maxRedirects: 0 });
    expect(res.status(), method).toBe(404);
    expect(res.headers()["content-type"]).toContain("application/json");
    expect((await res.json()).error.code).toBe("not_found");
  }
  for (const path of ["/api/nothing-here", "/api", "/api/v1"]) {
    const res = await request.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(404);
    expect((await res.json()).error.code).toBe("not_found");
  }
});

test("a deleted account sees neither the search box nor the bell", async ({ page }) => {
  await signIn(page, await createUser());
  await page.goto("/");
  await expect(page.getByRole("search")).toBeVisible();
  await expect(page.getByRole("button", { name: "Уведомления" })).toBeVisible();
  const res = await page.request.delete("/api/v1/account/me");
  expect(res.ok(), await res.text()).toBe(true);
  await page.goto("/profile");
  await expect(page.getByRole("banner")).toBeVisible();
  await expect(page.getByRole("search")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Уведомления" })).toHaveCount(0);
});
