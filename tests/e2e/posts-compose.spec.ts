import { createUser, expect, signIn, test } from "./fixtures";
import { apiAs, befriend } from "./profile-support";
import { localDay, pngBytes } from "./posts-support";

// Issue 9: a person writes a formatted post with a photo and tags in the composer, and their friend
// sees it in the feed; a scheduled post shows its "will be published" line on the author's wall.

test("compose a formatted post with a photo and tags, then a friend sees it; schedule another", async ({ page, browser }) => {
  test.setTimeout(150_000); // a long journey with two people
  const anna = await createUser({ firstName: "Анна", lastName: "Котова" });
  const boris = await createUser({ firstName: "Борис", lastName: "Лисин" });
  const [annaApi, borisApi] = await Promise.all([apiAs(anna), apiAs(boris)]);
  await befriend(annaApi, anna.id, borisApi, boris.id);
  await signIn(page, anna);

  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Новости" })).toBeVisible();
  await page.getByRole("button", { name: "Что у вас нового?" }).click();
  const form = page.getByRole("form", { name: "Новая запись" });

  // The four-step hint sequence runs once.
  const hint = form.getByTestId("post-hint");
  await expect(hint).toContainText("Подсказка 1 из 4");
  await hint.getByRole("button", { name: "Дальше" }).click();
  await expect(hint).toContainText("Подсказка 2 из 4");
  await hint.getByRole("button", { name: "Дальше" }).click();
  await hint.getByRole("button", { name: "Дальше" }).click();
  await expect(hint).toContainText("Подсказка 4 из 4");
  await hint.getByRole("button", { name: "Понятно" }).click();
  await expect(hint).toHaveCount(0);

  // Spec section 5: too short is refused in the form, with its text.
  await form.getByLabel("Тема").fill("Кот");
  await form.getByRole("button", { name: "Опубликовать" }).click();
  await expect(form.getByRole("alert")).toHaveText("Тема должна быть более трех символов, текст - не менее семи.");

  await form.getByLabel("Тема").fill("Мой кот Барсик");
  const editor = form.getByTestId("post-editor");
  await editor.click();
  await page.keyboard.type("Сегодня ");
  await form.getByRole("button", { name: "Жирный" }).click();
  await page.keyboard.type("очень важный");
  await form.getByRole("button", { name: "Жирный" }).click();
  await page.keyboard.type(" день: кот поймал мышь.");
  await page.keyboard.press("Enter");
  await form.getByRole("button", { name: "Маркированный список" }).click();
  await page.keyboard.type("первый пункт");

  // One photo: a preview, then the stored image.
  await form.getByTestId("post-photo-input").setInputFiles({ name: "cat.png", mimeType: "image/png", buffer: await pngBytes() });
  await expect(form.getByRole("img", { name: "Фото к записи" })).toHaveAttribute("src", /^\/api\/v1\/storage\/files\//);

  // Tags: normalised as typed, a duplicate refused.
  const tags = form.getByRole("combobox", { name: "Тэги" });
  await tags.fill("мой кот!");
  await expect(tags).toHaveValue("мой_кот");
  await tags.press("Enter");
  await tags.fill("Котики");
  await tags.press("Enter");
  await tags.fill("котики");
  await tags.press("Enter");
  await expect(form.getByRole("alert")).toHaveText("Тэг уже добавлен");
  await tags.fill("");
  await expect(form.getByRole("list", { name: "Выбранные тэги" }).getByRole("listitem")).toHaveText(["#мой_кот", "#Котики"]);

  await form.getByRole("button", { name: "Опубликовать" }).click();
  await expect(form).toHaveCount(0);
  const card = page.getByTestId("post-card").filter({ hasText: "Мой кот Барсик" });
  await expect(card.getByRole("heading", { name: "Мой кот Барсик" })).toBeVisible();
  await expect(card.getByTestId("post-text").locator("strong")).toHaveText("очень важный");
  await expect(card.getByTestId("post-text").locator("li")).toHaveText("первый пункт");
  await expect(card.getByRole("link", { name: "#Котики" })).toHaveAttribute("href", "/search?tab=news&tags=%D0%9A%D0%BE%D1%82%D0%B8%D0%BA%D0%B8");
  await expect(card.getByRole("img", { name: "Фото к записи «Мой кот Барсик»" })).toBeVisible();
  await expect(card).toContainText("1 мин чтения");

  // The friend sees it in their feed, formatted.
  const borisContext = await browser.newContext();
  const borisPage = await borisContext.newPage();
  await signIn(borisPage, boris);
  await borisPage.goto("/");
  const seen = borisPage.getByTestId("post-card").filter({ hasText: "Мой кот Барсик" });
  await expect(seen.getByRole("link", { name: "Анна Котова" })).toHaveAttribute("href", `/profile/${anna.id}`);
  await expect(seen.getByTestId("post-text").locator("strong")).toHaveText("очень важный");
  await expect(seen.getByRole("link", { name: "#мой_кот" })).toBeVisible();

  // Schedule one for tomorrow at 10:00: date, then time, then confirm.
  await page.getByRole("button", { name: "Что у вас нового?" }).click();
  await expect(form.getByTestId("post-hint")).toHaveCount(0); // once per person
  await form.getByLabel("Тема").fill("Завтрашний пост");
  await form.getByTestId("post-editor").click();
  await page.keyboard.type("Этот текст выйдет завтра утром.");
  await form.getByRole("button", { name: "Отложить" }).click();
  const schedule = page.getByRole("dialog", { name: "Отложенная публикация" });
  await schedule.getByLabel("1. Дата").fill(localDay(1));
  await schedule.getByLabel("2. Время").selectOption("10");
  await schedule.getByRole("button", { name: "Подтвердить" }).click();
  await expect(form.getByTestId("schedule-chip")).toContainText("10:00");
  await form.getByRole("button", { name: "Запланировать" }).click();
  await expect(page.getByText("Запись запланирована")).toBeVisible();

  await page.goto("/profile");
  const queued = page.getByTestId("post-card").filter({ hasText: "Завтрашний пост" });
  await expect(queued.getByTestId("post-queued")).toContainText("Будет опубликовано");
  await expect(queued.getByTestId("post-queued")).toContainText("10:00");
  // Nobody else sees it yet.
  await borisPage.reload();
  await expect(borisPage.getByTestId("post-card").filter({ hasText: "Мой кот Барсик" })).toBeVisible();
  await expect(borisPage.getByText("Завтрашний пост")).toHaveCount(0);
  await borisContext.close();
});
