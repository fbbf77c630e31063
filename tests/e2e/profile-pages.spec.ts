import { createUser, expect, signIn, test } from "./fixtures";
import { ageOf, apiAs, befriend, ruYears, setLastOnline, updateMe } from "./profile-support";

// Issue 4: /profile and /profile/{id} for signed-in viewers, rendered on the server from the services.

test("own profile shows what PUT account/me saved", async ({ page }) => {
  const user = await createUser({ firstName: "Вера", lastName: "Соколова" });
  await signIn(page, user);
  const res = await page.request.put("/api/v1/account/me", {
    data: { birthDate: "1992-07-04", city: "Казань", country: "RU", about: "Люблю горы\nи море", emojiStatus: "cool" },
  });
  expect(res.status(), await res.text()).toBe(200);

  await page.goto("/profile");
  await expect(page.getByRole("heading", { level: 1, name: "Вера Соколова" })).toBeVisible();
  await expect(page.getByRole("img", { name: "Статус: Всё круто" })).toHaveText("😎");
  await expect(page.getByTestId("presence")).toHaveText("в сети");
  // Country saved as a code, titled in the viewer's language by the geo service.
  await expect(page.getByTestId("profile-facts")).toHaveText(`${ruYears(ageOf("1992-07-04"))} · Казань, Россия`);
  const info = page.getByRole("region", { name: "Информация" });
  await expect(info.getByRole("definition").nth(0)).toHaveText("4 июля 1992 г.");
  await expect(info).toContainText("Люблю горы\nи море", { useInnerText: true });
  await expect(page.getByRole("link", { name: "Редактировать профиль" })).toHaveAttribute("href", "/settings");

  const friends = page.getByTestId("profile-friends");
  await expect(friends).toContainText("0 друзей");
  await expect(friends.getByRole("heading", { name: "У вас пока нет друзей" })).toBeVisible();
  await expect(friends.getByRole("link", { name: "Найти друзей" })).toHaveAttribute("href", "/friends/find");
  await expect(page.getByRole("region", { name: "Записи" }).getByRole("heading", { name: "На вашей стене пока нет записей" })).toBeVisible();

  // Cleared fields leave the page: no stale information.
  await page.request.put("/api/v1/account/me", { data: { birthDate: null, city: null, country: null, about: null, emojiStatus: null } });
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Вера Соколова" })).toBeVisible();
  await expect(page.getByTestId("profile-facts")).toHaveCount(0);
  await expect(page.getByRole("img", { name: /^Статус/ })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Информация" })).toContainText("Расскажите о себе");
});

test("another user's profile shows their data, last seen, their friends and the count", async ({ page }) => {
  const boris = await createUser({ firstName: "Борис", lastName: "Петров" });
  const f1 = await createUser({ firstName: "Глеб", lastName: "Орлов" });
  const f2 = await createUser({ firstName: "Дина", lastName: "Лебедева" });
  const viewer = await createUser({ firstName: "Ирина", lastName: "Зайцева" });
  const [borisApi, f1Api, f2Api] = await Promise.all([apiAs(boris), apiAs(f1), apiAs(f2)]);
  await updateMe(borisApi, { birthDate: "1985-03-20", city: "Москва", country: "Россия", about: "Фотограф", emojiStatus: "happy", phone: "+7 900 000-00-00" });
  await befriend(borisApi, boris.id, f1Api, f1.id);
  await befriend(f2Api, f2.id, borisApi, boris.id);
  await setLastOnline(boris.id, 3);

  await signIn(page, viewer);
  await page.goto(`/profile/${boris.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Борис Петров" })).toBeVisible();
  await expect(page).toHaveTitle("Борис Петров | Круг");
  await expect(page.getByRole("img", { name: "Статус: Радуюсь" })).toBeVisible();
  await expect(page.getByTestId("presence")).toHaveText("был в сети 3 часа назад");
  await expect(page.getByTestId("profile-facts")).toHaveText(`${ruYears(ageOf("1985-03-20"))} · Москва, Россия`);
  const info = page.getByRole("region", { name: "Информация" });
  await expect(info).toContainText("Фотограф");
  // The exact birth date is for the owner and friends only (issue 7 item 6); the age stays public.
  await expect(info).not.toContainText("20 марта 1985 г.");
  await expect(page.getByRole("region", { name: "Записи" }).getByRole("heading", { name: "На стене пока нет записей" })).toBeVisible();

  const friends = page.getByRole("region", { name: "Друзья" });
  await expect(friends).toContainText("2 друга");
  await expect(friends.getByRole("link", { name: "Глеб Орлов" })).toHaveAttribute("href", `/profile/${f1.id}`);
  await expect(friends.getByRole("link", { name: "Дина Лебедева" })).toHaveAttribute("href", `/profile/${f2.id}`);

  // The relation actions fit the relation; adding a friend updates the page from the server.
  await page.getByRole("button", { name: "Добавить в друзья" }).click();
  await expect(page.getByRole("button", { name: "Отменить заявку" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("button", { name: "Отменить заявку" })).toBeVisible();

  // Borís approves: after a reload the viewer is one of his friends, and the count follows.
  const approved = await borisApi.put(`/api/v1/friends/${viewer.id}/approve`);
  expect(approved.status()).toBe(200);
  await page.reload();
  await expect(friends).toContainText("3 друга");
  await expect(friends.getByRole("link", { name: "Ирина Зайцева" })).toBeVisible();
  // A friend's page offers writing first; ending the friendship is in the menu (issue 24 item 16).
  await page.getByRole("button", { name: "Ещё действия: Борис" }).click();
  await expect(page.getByRole("menuitem", { name: "Удалить из друзей" })).toBeVisible();
  await page.keyboard.press("Escape");
  // Now a friend: the exact birth date shows.
  await expect(info).toContainText("20 марта 1985 г.");

  // A friend's page links back; clicking a friend opens their profile.
  await friends.getByRole("link", { name: "Глеб Орлов" }).click();
  await expect(page).toHaveURL(`/profile/${f1.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Глеб Орлов" })).toBeVisible();
  await expect(page.getByTestId("presence")).toHaveText("в сети");
  await Promise.all([borisApi.dispose(), f1Api.dispose(), f2Api.dispose()]);
});

test("in English the country title and texts follow the viewer's language", async ({ page, context, baseURL }) => {
  const anna = await createUser({ firstName: "Anna", lastName: "Berg" });
  const annaApi = await apiAs(anna);
  await updateMe(annaApi, { city: "Berlin", country: "DE", birthDate: "2000-01-01" });
  await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL! }]);
  await context.addInitScript(() => localStorage.setItem("selectedLanguage", "en"));
  await signIn(page, await createUser({ language: "en" }));
  await page.goto(`/profile/${anna.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Anna Berg" })).toBeVisible();
  await expect(page.getByTestId("profile-facts")).toHaveText(`${ageOf("2000-01-01")} years old · Berlin, Germany`);
  await expect(page.getByRole("region", { name: "Friends" })).toContainText("0 friends");
  await expect(page.getByRole("button", { name: "Add friend" })).toBeVisible();
  await annaApi.dispose();
});

test("a deleted account's page is 404 for a signed-in viewer, with the designed card", async ({ page }) => {
  const gone = await createUser({ firstName: "Олег", lastName: "Ушедший" });
  const goneApi = await apiAs(gone);
  expect((await goneApi.delete("/api/v1/account/me")).status()).toBeLessThan(300);
  await signIn(page, await createUser());
  const res = await page.goto(`/profile/${gone.id}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Страница удалена" })).toBeVisible();
  const unknown = await page.goto("/profile/987654321");
  expect(unknown?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Пользователь не найден" })).toBeVisible();
  await goneApi.dispose();
});
