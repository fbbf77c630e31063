import { baseURL } from "../../playwright.config";
import { contextIn, createUser, expect, signIn, test } from "./fixtures";
import { apiAs } from "./profile-support";
import { createPost, withDb } from "./posts-support";

// Issue 24 item 1 (ADR 107): a post with more formatting than the sanitiser's bound is refused with its own
// text in the composer (nothing is lost), and a post stored before the bound reaches a reader as plain text.

test.describe.configure({ timeout: 120_000 });

const TEXT = {
  ru: {
    whatsNew: "Что у вас нового?",
    form: "Новая запись",
    title: "Тема",
    publish: "Опубликовать",
    tooComplex: "В тексте поста слишком много оформления или вложенности — упростите его.",
  },
  en: {
    whatsNew: "What's new?",
    form: "New post",
    title: "Title",
    publish: "Publish",
    tooComplex: "The post text has too much formatting or nesting — please simplify it.",
  },
} as const;

for (const lang of ["ru", "en"] as const) {
  test(`too much formatting is refused in the composer; an old nested post reads as plain text (${lang})`, async ({ browser }) => {
    const T = TEXT[lang];
    const me = await createUser({ firstName: lang === "ru" ? "Нина" : "Nina", lastName: "Вложенная", language: lang });
    const context = await contextIn(browser, lang, baseURL);
    const page = await context.newPage();
    await signIn(page, me);

    // A post stored before the bound: 2,500 nested <strong> (it once held a reader's feed for seconds).
    const api = await apiAs(me);
    const old = await createPost(api, { title: "Старая запись", postText: "<p>Будет заменено.</p>" });
    await withDb((sql) => sql`update posts set post_text = ${"<strong>xxxxxxxxx".repeat(2_500)} where id = ${old.id}`);

    await page.goto("/");
    const oldText = page.locator(`[data-post-id="${old.id}"]`).getByTestId("post-text");
    await expect(oldText).toContainText("xxxxxxxxxxxxxxxxxx");
    expect(await oldText.evaluate((el) => ({ strong: el.querySelectorAll("strong").length, paragraphs: el.querySelectorAll("p").length }))).toEqual({
      strong: 0,
      paragraphs: 1,
    });

    // 600 pasted paragraphs: more elements than a post may hold.
    await page.getByRole("button", { name: T.whatsNew }).click();
    const form = page.getByRole("form", { name: T.form });
    await form.getByLabel(T.title).fill("Очень длинный список");
    const editor = form.getByTestId("post-editor");
    await editor.click();
    await editor.evaluate((el) => {
      const data = new DataTransfer();
      data.setData("text/html", Array.from({ length: 600 }, (_, i) => `<p>строка ${i + 1}</p>`).join(""));
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await expect(editor).toContainText("строка 600");
    await form.getByRole("button", { name: T.publish }).click();
    await expect(form.getByRole("alert")).toHaveText(T.tooComplex);
    await expect(editor).toContainText("строка 600");
    await expect(form.getByLabel(T.title)).toHaveValue("Очень длинный список");
    await context.close();
  });
}
