import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { createUser, letters, expect, signIn, test, type TestUser } from "./fixtures";

// Names keep only letters (spec section 5), so uniqueness comes from random letters.
async function signedInPage(browser: Browser, user: TestUser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, user);
  return page;
}

const tab = (page: Page, name: string) => page.getByRole("tab", { name: new RegExp(`^${name}`) });
const rowOf = (page: Page, user: TestUser) => page.getByTestId("person-row").filter({ hasText: `${user.firstName} ${user.lastName}` });
const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

// Accounts are made with the operators' CLI (a process each) and two browsers run side by side.
test.describe.configure({ timeout: 120_000 });

test("two people find each other, become friends live, block and unblock", async ({ browser }) => {
  const [alice, boris] = await Promise.all([
    createUser({ firstName: "Алиса", lastName: `Друг${letters()}` }),
    createUser({ firstName: "Борис", lastName: `Друг${letters()}` }),
  ]);
  const a = await signedInPage(browser, alice);
  const b = await signedInPage(browser, boris);

  // B waits on /friends; nothing pending yet.
  await b.goto("/friends");
  await expect(tab(b, "Заявки в друзья").getByTestId("tab-count")).toHaveText("0");
  await expect(tab(b, "Друзья")).toHaveAttribute("aria-selected", "true");

  // A finds B by name and sends a request.
  await a.goto("/friends/find");
  await expect(a.getByRole("heading", { name: "Возможно, вы знакомы" })).toBeVisible();
  await a.getByLabel("Имя").fill(boris.firstName);
  await a.getByLabel("Фамилия").fill(boris.lastName);
  await a.getByRole("button", { name: "Найти", exact: true }).click();
  await expect(a).toHaveURL(/\/friends\/find\?firstName=/);
  await expect(a.getByRole("heading", { name: "Найден 1 человек" })).toBeVisible();
  await rowOf(a, boris).getByRole("button", { name: "Добавить в друзья" }).click();
  await expect(toast(a, "Заявка отправлена")).toBeVisible();
  await expect(rowOf(a, boris).getByRole("button", { name: "Отменить заявку" })).toBeVisible();

  // B sees the request arrive without reloading: the tab count and the red counter on "Друзья" in the
  // sidebar (issue 14 item 3), and approves it.
  await expect(tab(b, "Заявки в друзья").getByTestId("tab-count")).toHaveText("1");
  const badge = b.getByRole("navigation", { name: "Основное меню" }).getByTestId("friend-requests-badge");
  await expect(badge.locator('[aria-hidden="true"]')).toHaveText("1");
  await expect(badge).toContainText("1 заявка в друзья");
  await expect(b.getByRole("link", { name: /Друзья.*1 заявка в друзья/ })).toBeVisible();
  await tab(b, "Заявки в друзья").click();
  await expect(b).toHaveURL("/friends?tab=requests");
  await rowOf(b, alice).getByRole("button", { name: "Принять заявку" }).click();
  await expect(toast(b, "Алиса теперь у вас в друзьях")).toBeVisible();
  await expect(tab(b, "Заявки в друзья").getByTestId("tab-count")).toHaveText("0");
  await expect(badge).toHaveCount(0);
  await expect(tab(b, "Друзья").getByTestId("tab-count")).toHaveText("1");
  await tab(b, "Друзья").click();
  await expect(rowOf(b, alice)).toBeVisible();

  // A's search result follows the approval live; A's friends list has B.
  // A friend's row offers writing; ending the friendship is in its menu (issue 24 item 16).
  await expect(rowOf(a, boris).getByRole("link", { name: "Написать сообщение" })).toBeVisible();
  await a.goto("/friends");
  await expect(tab(a, "Друзья")).toHaveAttribute("aria-selected", "true");
  await expect(tab(a, "Друзья").getByTestId("tab-count")).toHaveText("1");
  await expect(rowOf(a, boris)).toBeVisible();

  // A blocks B after a confirmation that names him in the right case (issue 14 items 7 and 8); cancelling
  // changes nothing, confirming ends the friendship on both sides at once.
  await rowOf(a, boris).getByRole("button", { name: `Ещё действия: ${boris.firstName}` }).click();
  await a.getByRole("menuitem", { name: "Заблокировать" }).click();
  const confirm = a.getByRole("alertdialog", { name: "Заблокировать Бориса?" });
  await expect(confirm).toContainText("Борис не сможет писать вам");
  await confirm.getByRole("button", { name: "Отмена" }).click();
  await expect(confirm).toHaveCount(0);
  await expect(tab(a, "Друзья").getByTestId("tab-count")).toHaveText("1");
  await rowOf(a, boris).getByRole("button", { name: `Ещё действия: ${boris.firstName}` }).click();
  await a.getByRole("menuitem", { name: "Заблокировать" }).click();
  await confirm.getByRole("button", { name: "Заблокировать" }).click();
  await expect(toast(a, "Пользователь заблокирован")).toBeVisible();
  await expect(confirm).toHaveCount(0);
  await expect(tab(a, "Заблокированные").getByTestId("tab-count")).toHaveText("1");
  await expect(tab(a, "Друзья").getByTestId("tab-count")).toHaveText("0");
  await expect(tab(b, "Друзья").getByTestId("tab-count")).toHaveText("0");
  await expect(rowOf(b, alice)).toHaveCount(0);

  // B finds A: blocked by her, he is offered no "add" (issue 24 item 20).
  await b.goto(`/friends/find?${new URLSearchParams({ lastName: alice.lastName })}`);
  await expect(rowOf(b, alice)).toHaveAttribute("data-account-id", String(alice.id));
  await expect(rowOf(b, alice).locator('[data-status="REJECTING"]')).toBeVisible();
  await expect(rowOf(b, alice).getByRole("button", { name: "Добавить в друзья" })).toHaveCount(0);

  // A unblocks B from the blocked tab; nothing the block ended comes back.
  await tab(a, "Заблокированные").click();
  await rowOf(a, boris).getByRole("button", { name: "Разблокировать" }).click();
  await expect(toast(a, "Пользователь разблокирован")).toBeVisible();
  await expect(tab(a, "Заблокированные").getByTestId("tab-count")).toHaveText("0");
  await expect(tab(a, "Друзья").getByTestId("tab-count")).toHaveText("0");
  await expect(a.getByRole("heading", { name: "Вы никого не заблокировали" })).toBeVisible();

  // Now B's request goes through.
  await b.reload();
  await rowOf(b, alice).getByRole("button", { name: "Добавить в друзья" }).click();
  await expect(toast(b, "Заявка отправлена")).toBeVisible();
  await expect(tab(a, "Заявки в друзья").getByTestId("tab-count")).toHaveText("1");

  // B's outgoing tab has the request, with the way to cancel it.
  await b.goto("/friends?tab=outgoing");
  await expect(rowOf(b, alice).getByRole("button", { name: "Отменить заявку" })).toBeVisible();
});

async function apiAs(playwright: { request: { newContext: (o: { baseURL?: string }) => Promise<APIRequestContext> } }, baseURL: string, user: TestUser) {
  const api = await playwright.request.newContext({ baseURL });
  const res = await api.post("/api/v1/auth/login", { data: { email: user.email, password: user.password } });
  expect(res.status(), await res.text()).toBe(200);
  return api;
}

test("tab counts, three rows first and the rest after load more", async ({ page, playwright, baseURL }) => {
  const owner = await createUser({ firstName: "Вера", lastName: `Счёт${letters()}` });
  const ownerApi = await apiAs(playwright, baseURL!, owner);
  const surname = `Список${letters()}`;
  const friends = await Promise.all(["Глеб", "Дина", "Егор", "Жанна", "Зоя"].map((first) => createUser({ firstName: first, lastName: surname })));
  for (const friend of friends) {
    const api = await apiAs(playwright, baseURL!, friend);
    expect((await api.post(`/api/v1/friends/${owner.id}/request`)).status()).toBe(200);
    expect((await ownerApi.put(`/api/v1/friends/${friend.id}/approve`)).status()).toBe(200);
    await api.dispose();
  }
  // One of each other kind, so every count is checked against a different number.
  const [asked, followed, blocked, follower] = await Promise.all(
    ["Игорь", "Кира", "Лев", "Мила"].map((first) => createUser({ firstName: first, lastName: surname })),
  );
  expect((await ownerApi.post(`/api/v1/friends/${asked.id}/request`)).status()).toBe(200);
  expect((await ownerApi.post(`/api/v1/friends/subscribe/${followed.id}`)).status()).toBe(200);
  expect((await ownerApi.put(`/api/v1/friends/block/${blocked.id}`)).status()).toBe(200);
  const followerApi = await apiAs(playwright, baseURL!, follower);
  expect((await followerApi.post(`/api/v1/friends/subscribe/${owner.id}`)).status()).toBe(200);

  await signIn(page, owner);
  await page.goto("/friends");
  const counts = { "Заявки в друзья": "0", "Исходящие заявки": "1", Подписчики: "1", Заблокированные: "1", Подписки: "1", Друзья: "5" };
  for (const [name, count] of Object.entries(counts)) await expect(tab(page, name).getByTestId("tab-count")).toHaveText(count);

  const list = page.getByRole("list", { name: "Друзья" });
  await expect(list.getByTestId("person-row")).toHaveCount(3);
  await page.getByRole("button", { name: "Показать ещё 2" }).click();
  await expect(list.getByTestId("person-row")).toHaveCount(5);
  for (const f of friends) await expect(rowOf(page, f)).toBeVisible();
  await expect(page.getByRole("button", { name: /Показать ещё/ })).toHaveCount(0);

  // Each tab lists its own people (loaded on the client when opened).
  await tab(page, "Подписчики").click();
  await expect(rowOf(page, follower).getByRole("button", { name: "Добавить в друзья" })).toBeVisible();
  await tab(page, "Подписки").click();
  await expect(rowOf(page, followed).getByRole("button", { name: "Отписаться" })).toBeVisible();
  await tab(page, "Исходящие заявки").click();
  await expect(rowOf(page, asked).getByRole("button", { name: "Отменить заявку" })).toBeVisible();
  await tab(page, "Заявки в друзья").click();
  await expect(page.getByRole("heading", { name: "Новых заявок нет" })).toBeVisible();

  await ownerApi.dispose();
  await followerApi.dispose();
});

test("friends tabs on a phone: friends first, requests first when pending, and the strip shows it scrolls", async ({ page, playwright, baseURL }) => {
  // Issue 14 item 9.
  const surname = `Тел${letters()}`;
  const [owner, friend, asker] = await Promise.all(["Раиса", "Семён", "Тарас"].map((first) => createUser({ firstName: first, lastName: surname })));
  const ownerApi = await apiAs(playwright, baseURL!, owner);
  const friendApi = await apiAs(playwright, baseURL!, friend);
  expect((await friendApi.post(`/api/v1/friends/${owner.id}/request`)).status()).toBe(200);
  expect((await ownerApi.put(`/api/v1/friends/${friend.id}/approve`)).status()).toBe(200);

  await signIn(page, owner);
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto("/friends");
  const strip = page.getByRole("tablist", { name: "Списки друзей" });
  await expect(strip.getByRole("tab").first()).toHaveText(/^Друзья/);
  await expect(strip.getByRole("tab").nth(1)).toHaveText(/^Заявки в друзья/);
  await expect(tab(page, "Друзья")).toHaveAttribute("aria-selected", "true");
  await expect(tab(page, "Заявки в друзья")).toBeInViewport({ ratio: 1 });
  await expect(strip).toHaveAttribute("data-more-end", "true");
  await expect(rowOf(page, friend)).toBeVisible();

  const askerApi = await apiAs(playwright, baseURL!, asker);
  expect((await askerApi.post(`/api/v1/friends/${owner.id}/request`)).status()).toBe(200);
  await page.reload();
  await expect(strip.getByRole("tab").first()).toHaveText(/^Заявки в друзья/);
  await expect(tab(page, "Заявки в друзья")).toHaveAttribute("aria-selected", "true");
  await expect(tab(page, "Заявки в друзья")).toBeInViewport({ ratio: 1 });
  await expect(rowOf(page, asker).getByRole("button", { name: "Принять заявку" })).toBeVisible();
  // The phone bar's "Друзья" carries the red counter too.
  await expect(page.getByRole("navigation", { name: "Навигация" }).getByTestId("friend-requests-badge")).toContainText("1 заявка в друзья");

  await Promise.all([ownerApi.dispose(), friendApi.dispose(), askerApi.dispose()]);
});

test("friends search filters by age, country and city and falls back to recommendations", async ({ page, playwright, baseURL }) => {
  const surname = `Гео${letters()}`;
  const [viewer, young, old] = await Promise.all(["Нина", "Олег", "Пётр"].map((first) => createUser({ firstName: first, lastName: surname })));
  const youngApi = await apiAs(playwright, baseURL!, young);
  const year = new Date().getUTCFullYear();
  expect((await youngApi.put("/api/v1/account/me", { data: { birthDate: `${year - 20}-01-01`, country: "Россия", city: "Kazan" } })).status()).toBe(200);
  const oldApi = await apiAs(playwright, baseURL!, old);
  expect((await oldApi.put("/api/v1/account/me", { data: { birthDate: `${year - 60}-01-01`, country: "Россия", city: "Moscow" } })).status()).toBe(200);

  await signIn(page, viewer);
  await page.goto("/friends/find");
  await page.getByLabel("Фамилия").fill(surname);
  await page.getByLabel("Возраст от").fill("30");
  await page.getByLabel("Возраст до").fill("18");
  await page.getByRole("button", { name: "Найти", exact: true }).click();
  await expect(page.getByText("«Возраст от» не может быть больше «возраста до»")).toBeVisible();

  await page.getByLabel("Возраст от").fill("18");
  await page.getByLabel("Возраст до").fill("30");
  await page.getByRole("button", { name: "Найти", exact: true }).click();
  await expect(rowOf(page, young)).toBeVisible();
  await expect(rowOf(page, old)).toHaveCount(0);

  await page.getByLabel("Возраст от").fill("");
  await page.getByLabel("Возраст до").fill("");
  await page.getByLabel("Страна").selectOption({ label: "Россия" });
  await page.getByLabel("Город").fill("Moscow");
  await page.getByRole("button", { name: "Найти", exact: true }).click();
  await expect(page).toHaveURL(/country=RU/);
  await expect(rowOf(page, old)).toBeVisible();
  await expect(rowOf(page, young)).toHaveCount(0);
  await expect(rowOf(page, old)).toContainText("60 лет");

  // "Search all users" drops the filters; reset brings the recommendations back.
  await page.getByRole("button", { name: "Искать всех пользователей" }).click();
  await expect(page).toHaveURL("/friends/find?all=1");
  await expect(page.getByLabel("Город")).toHaveValue("");
  await page.getByRole("button", { name: "Сбросить" }).click();
  await expect(page).toHaveURL("/friends/find");
  await expect(page.getByRole("heading", { name: "Возможно, вы знакомы" })).toBeVisible();

  await youngApi.dispose();
  await oldApi.dispose();
});

test("a signed-out visitor is asked to sign in on both friends pages", async ({ page }) => {
  await page.goto("/friends");
  await expect(page.getByRole("main").getByRole("link", { name: "Войти" })).toHaveAttribute("href", "/login?redirect=Friends");
  await page.goto("/friends/find");
  await expect(page.getByRole("main").getByRole("link", { name: "Войти" })).toHaveAttribute("href", "/login?redirect=FriendsFind");
});
