import { createUser, expect, signIn, test } from "./fixtures";
import { useLanguage } from "./language-support";
import { apiAs } from "./profile-support";
import { createPost } from "./posts-support";

// Issue 24 item 18: deleting a post changes the wall's «Записи» counter at once (it waited for a reload),
// and cancelling the composer asks before it throws a draft away (the confirmation of ADR 13).

const TEXT = {
  ru: { actions: "Действия с записью", delete: "Удалить", deleteTitle: "Удалить запись?", title: "Тема", cancel: "Отмена", discard: "Отменить запись?", keep: "Продолжить писать", confirm: "Не сохранять" },
  en: { actions: "Post actions", delete: "Delete", deleteTitle: "Delete the post?", title: "Title", cancel: "Cancel", discard: "Discard this post?", keep: "Keep writing", confirm: "Discard" },
} as const;

for (const lang of ["ru", "en"] as const) {
  test.describe(lang === "ru" ? "по-русски" : "in English", () => {
    useLanguage(lang);

    test("the wall's counter follows a delete, and a draft is not thrown away without asking", async ({ page, context }) => {
      const t = TEXT[lang];
      const me = await createUser({ firstName: "Вера", lastName: "Счётова", language: lang });
      await context.addInitScript((id) => localStorage.setItem(`krug.postHints.${id}`, "done"), me.id);
      const api = await apiAs(me);
      await createPost(api, { title: "Первая запись", postText: "<p>Текст первой записи</p>" });
      await createPost(api, { title: "Вторая запись", postText: "<p>Текст второй записи</p>" });
      await api.dispose();
      await signIn(page, me);
      await page.goto("/profile");
      const counter = page.getByTestId("wall-count");
      await expect(counter).toHaveText("2");

      const second = page.getByTestId("post-card").filter({ hasText: "Вторая запись" });
      await second.getByRole("button", { name: t.actions }).click();
      await page.getByRole("menuitem", { name: t.delete }).click();
      await page.getByRole("alertdialog", { name: t.deleteTitle }).getByRole("button", { name: t.delete }).click();
      await expect(second).toHaveCount(0);
      await expect(counter).toHaveText("1");

      // An empty composer closes at once.
      await page.getByTestId("composer-open").click();
      const form = page.getByTestId("post-form");
      await form.getByRole("button", { name: t.cancel, exact: true }).click();
      await expect(form).toHaveCount(0);
      await expect(page.getByRole("alertdialog")).toHaveCount(0);

      // With a draft it asks; "keep writing" keeps it, confirming throws it away.
      await page.getByTestId("composer-open").click();
      await form.getByLabel(t.title).fill("Черновик, который жалко");
      await form.getByRole("button", { name: t.cancel, exact: true }).click();
      const ask = page.getByRole("alertdialog", { name: t.discard });
      await ask.getByRole("button", { name: t.keep }).click();
      await expect(ask).toHaveCount(0);
      await expect(form.getByLabel(t.title)).toHaveValue("Черновик, который жалко");
      await form.getByRole("button", { name: t.cancel, exact: true }).click();
      await page.getByRole("alertdialog", { name: t.discard }).getByRole("button", { name: t.confirm }).click();
      await expect(form).toHaveCount(0);
      await expect(counter).toHaveText("1");
    });
  });
}
