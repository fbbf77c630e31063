import { createUser, expect, signIn, test } from "./fixtures";
import { useLanguage } from "./language-support";
import { apiAs } from "./profile-support";
import { createPost } from "./posts-support";

// ADR 0144: a post or a comment whose answer was lost (the request reached the server and was stored, the
// browser saw a network error) and that the person sends again unchanged is made once, not twice: the web
// client sends the same clientId for the same draft.

const TEXT = {
  ru: { newPost: "Новая запись", title: "Тема", publish: "Опубликовать", failed: "Не удалось сохранить запись", send: "Отправить" },
  en: { newPost: "New post", title: "Title", publish: "Publish", failed: "The post could not be saved", send: "Send" },
} as const;

for (const lang of ["ru", "en"] as const) {
  test.describe(lang === "ru" ? "по-русски" : "in English", () => {
    useLanguage(lang);

    test("a post and a comment sent again after a lost answer appear once", async ({ page, context }) => {
      const t = TEXT[lang];
      const me = await createUser({ firstName: "Инна", lastName: "Повторова", language: lang });
      await context.addInitScript((id) => localStorage.setItem(`krug.postHints.${id}`, "done"), me.id);
      const api = await apiAs(me);
      await createPost(api, { title: "Запись для комментария", postText: "<p>Обсудим здесь что-нибудь</p>" });
      await signIn(page, me);

      // The first send of each kind reaches the server, and its answer is thrown away.
      const lost = new Set<string>();
      let commentLost = () => {};
      const commentGone = new Promise<void>((resolve) => (commentLost = resolve));
      await page.route(/\/api\/v1\/post(\/\d+\/comment)?$/, async (route) => {
        const kind = route.request().url().endsWith("/comment") ? "comment" : "post";
        if (route.request().method() !== "POST" || lost.has(kind)) return route.continue();
        lost.add(kind);
        await route.fetch();
        await route.abort("connectionreset");
        if (kind === "comment") commentLost();
      });

      await page.goto("/profile");
      await page.getByTestId("composer-open").click();
      const form = page.getByRole("form", { name: t.newPost });
      await form.getByLabel(t.title).fill("Отправлено дважды");
      await form.getByTestId("post-editor").click();
      await page.keyboard.type("Связь пропала на полпути");
      await form.getByRole("button", { name: t.publish }).click();
      await expect(form.getByRole("alert")).toHaveText(t.failed);
      await form.getByRole("button", { name: t.publish }).click();
      await expect(form).toHaveCount(0);
      const cards = page.getByTestId("post-card").filter({ hasText: "Отправлено дважды" });
      await expect(cards).toHaveCount(1);

      const target = page.getByTestId("post-card").filter({ hasText: "Запись для комментария" });
      const box = target.getByTestId("comment-input");
      await box.fill("Повторю ещё раз");
      await box.press("Enter");
      // The failed send keeps the words in the input (spec section 9); once it is over (the send button is
      // back), Enter again sends them.
      await commentGone;
      await expect(target.getByRole("button", { name: t.send })).toBeEnabled();
      await expect(box).toHaveValue("Повторю ещё раз");
      await box.press("Enter");
      await expect(box).toHaveValue("");
      await expect(target.getByTestId("comment").filter({ hasText: "Повторю ещё раз" })).toHaveCount(1);

      // What the server holds: one of each; after a reload still one.
      const wall = await (await api.get(`/api/v1/post?accountIds=${me.id}&page=0&size=20`)).json();
      expect(wall.content.filter((p: { title: string }) => p.title === "Отправлено дважды")).toHaveLength(1);
      const commented = wall.content.find((p: { title: string }) => p.title === "Запись для комментария");
      expect(commented.commentsCount).toBe(1);
      await page.reload();
      await expect(page.getByTestId("post-card").filter({ hasText: "Отправлено дважды" })).toHaveCount(1);
      await api.dispose();
    });
  });
}
