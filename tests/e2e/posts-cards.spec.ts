import { createUser, expect, signIn, test } from "./fixtures";
import { apiAs, befriend } from "./profile-support";
import { createPost } from "./posts-support";

// Issue 9: reactions (set, change, remove; right after a reload), edit and delete of own posts,
// infinite scroll of the feed, "show more" on a wall, and the news search by a word form and a tag.

test.describe("in English", () => {
  test.beforeEach(async ({ context, baseURL }) => {
    await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL! }]);
    await context.addInitScript(() => localStorage.setItem("selectedLanguage", "en"));
  });

  test("react, change and remove a reaction; edit and delete an own post", async ({ page }) => {
    test.setTimeout(120_000); // a long journey
    const me = await createUser({ firstName: "Eva", lastName: "Stone", language: "en" });
    const friend = await createUser({ firstName: "Max", lastName: "Reed", language: "en" });
    const [meApi, friendApi] = await Promise.all([apiAs(me), apiAs(friend)]);
    await befriend(meApi, me.id, friendApi, friend.id);
    await createPost(friendApi, { title: "Weekend hike", postText: "<p>We walked twenty kilometres along the river.</p>" });
    await createPost(meApi, { title: "My first post", postText: "<p>Hello to everyone reading this.</p>", tags: [{ name: "hello" }] });
    await signIn(page, me);
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "News" })).toBeVisible();

    const hike = page.getByTestId("post-card").filter({ hasText: "Weekend hike" });
    await hike.getByRole("button", { name: "React" }).click();
    const picker = page.getByRole("dialog", { name: "Reactions" });
    await expect(picker.getByRole("button")).toHaveCount(69);
    await picker.getByRole("button", { name: "Heart", exact: true }).click();
    await expect(hike.getByRole("button", { name: "Heart: 1, your reaction" })).toBeVisible();

    // Another one replaces it (one reaction per person).
    await hike.getByRole("button", { name: "Change your reaction" }).click();
    await page.getByRole("dialog", { name: "Reactions" }).getByRole("button", { name: "Owl" }).click();
    await expect(hike.getByRole("button", { name: "Owl: 1, your reaction" })).toBeVisible();
    await expect(hike.getByRole("button", { name: /^Heart/ })).toHaveCount(0);
    // The card shows the change at once; a reload before the server has answered would show the old one.
    await expect(hike.getByTestId("post-reactions")).toHaveAttribute("aria-busy", "false");
    await page.reload();
    await expect(hike.getByRole("button", { name: "Owl: 1, your reaction" })).toBeVisible();

    // The friend's reaction counts too; clicking mine again removes only mine.
    const liked = await friendApi.post(`/api/v1/post/${(await hikeId(page))}/like`, { data: { type: "POST", reactionType: "owl" } });
    expect(liked.status(), await liked.text()).toBe(200);
    await page.reload();
    await hike.getByRole("button", { name: "Owl: 2, your reaction" }).click();
    await expect(hike.getByRole("button", { name: "Owl: 1" })).toHaveAttribute("aria-pressed", "false");
    await expect(hike.getByTestId("post-reactions")).toHaveAttribute("aria-busy", "false");
    await page.reload();
    await expect(hike.getByRole("button", { name: "Owl: 1" })).toHaveAttribute("aria-pressed", "false");
    // The chips' images are lazy (docs/adr/0158): the page does not preload them ahead of its stylesheets and
    // scripts, and the one on the screen still loads.
    const html = await (await page.request.get("/")).text();
    expect(html).toContain('src="/post-reactions/owl.svg"');
    expect(html).not.toMatch(/<link[^>]*rel="preload"[^>]*as="image"[^>]*post-reactions/);
    const owl = hike.getByRole("button", { name: "Owl: 1" }).locator("img");
    await expect.poll(() => owl.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);

    // Edit: the card becomes the form, saving shows the new title and the edit time.
    const mine = page.getByTestId("post-card").filter({ hasText: "My first post" });
    await mine.getByRole("button", { name: "Post actions" }).click();
    await page.getByRole("menuitem", { name: "Edit" }).click();
    const form = page.getByRole("form", { name: "Editing the post" });
    await expect(form.getByLabel("Title")).toHaveValue("My first post");
    await form.getByLabel("Title").fill("My edited post");
    await form.getByRole("button", { name: "Save" }).click();
    const edited = page.getByTestId("post-card").filter({ hasText: "My edited post" });
    await expect(edited).toContainText("edited");
    await expect(edited.getByRole("link", { name: "#hello" })).toBeVisible();

    // Delete behind a confirmation.
    await edited.getByRole("button", { name: "Post actions" }).click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete the post?" });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(edited).toBeVisible();
    await edited.getByRole("button", { name: "Post actions" }).click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await page.getByRole("alertdialog", { name: "Delete the post?" }).getByRole("button", { name: "Delete" }).click();
    await expect(page.getByText("My edited post")).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId("post-card").filter({ hasText: "Weekend hike" })).toBeVisible();
    await expect(page.getByText("My edited post")).toHaveCount(0);
  });
});

async function hikeId(page: import("@playwright/test").Page): Promise<string> {
  return (await page.getByTestId("post-card").filter({ hasText: "Weekend hike" }).getAttribute("data-post-id"))!;
}

test("infinite scroll of the feed, show more on a wall, news search by a word form and by a tag", async ({ page }) => {
  test.setTimeout(120_000); // a long journey
  const author = await createUser({ firstName: "Ольга", lastName: "Миронова" });
  const reader = await createUser({ firstName: "Пётр", lastName: "Сидоров" });
  const [authorApi, readerApi] = await Promise.all([apiAs(author), apiAs(reader)]);
  await befriend(authorApi, author.id, readerApi, reader.id);
  for (let i = 1; i <= 12; i++) {
    await createPost(authorApi, { title: `Заметка номер ${i}`, postText: `<p>Обычный текст заметки ${i}, без особого смысла.</p>` });
  }
  // A tag of this run only: search is global, and a reused e2e database holds other runs' cats.
  const pets = `pets${Math.random().toString(36).replace(/[^a-z]/g, "").slice(0, 6)}`;
  await createPost(authorApi, { title: "Про животных", postText: "<p>Моя кошка любит спать на подоконнике.</p>", tags: [{ name: pets }] });
  await signIn(page, reader);

  await page.goto("/");
  const feed = page.getByRole("feed", { name: "Лента новостей" });
  await expect(feed.getByTestId("post-card").first()).toContainText("Про животных");
  // Scrolling down loads the next pages (5 at a time) until the last one.
  await expect(async () => {
    await page.mouse.wheel(0, 5000);
    await expect(page.getByText("Больше записей нет")).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(feed.getByTestId("post-card")).toHaveCount(13);
  await expect(page.getByText("Больше записей нет")).toBeVisible();
  await expect(feed.getByTestId("post-card").last()).toContainText("Заметка номер 1");

  // The author's wall: 3 a page and "show more".
  await page.goto(`/profile/${author.id}`);
  const wall = page.getByRole("region", { name: "Записи" });
  await expect(wall.getByTestId("post-card")).toHaveCount(3);
  await wall.getByRole("button", { name: "Показать ещё" }).click();
  await expect(wall.getByTestId("post-card")).toHaveCount(6);

  // News search by another form of the word, with the match highlighted.
  await page.goto(`/search?tab=news&query=${encodeURIComponent("кошками")}&tags=${pets}`);
  const results = page.getByRole("feed", { name: "Найденные записи" });
  await expect(results.getByTestId("post-card")).toHaveCount(1);
  await expect(results.locator("mark")).toHaveText("кошка");
  await expect(page.getByText("Найдено: 1")).toBeVisible();

  // A tag on a card leads to the search by that tag.
  await results.getByRole("link", { name: `#${pets}` }).click();
  await expect(page).toHaveURL(new RegExp(`tab=news&tags=${pets}$`));
  await expect(page.getByRole("textbox", { name: "Тэг", exact: true })).toHaveValue(pets);
  await expect(page.getByRole("feed", { name: "Найденные записи" }).getByTestId("post-card")).toHaveCount(1);

  // The time filter keeps it (posted today) and the author filter finds nothing for another name.
  await page.goto(`/search?tab=news&period=week&author=${encodeURIComponent("Ольга Миронова")}&tags=${pets}`);
  await expect(page.getByRole("feed", { name: "Найденные записи" }).getByTestId("post-card")).toHaveCount(1);
  await expect(page.getByLabel("Время")).toHaveValue("week");
  await page.goto(`/search?tab=news&author=${encodeURIComponent("Несуществующий")}&tags=${pets}`);
  await expect(page.getByRole("heading", { name: /записей не нашлось/ })).toBeVisible();
});
