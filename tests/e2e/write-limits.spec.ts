import type { APIRequestContext } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { contextIn, createUser, expect as baseExpect, signIn, test } from "./fixtures";
import { apiAs, befriend } from "./profile-support";

// Issue 24 item 3 (ADR 109): a person who has spent a write limit sees the limit's own text where they
// write — the post composer, the comment form, the chat — and what they wrote stays. The limits are the
// server's real ones (posts 30 a minute on the e2e server, comments and messages at their defaults),
// spent through the API by the same account first.

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 240_000 });

const TEXT = {
  ru: {
    whatsNew: "Что у вас нового?",
    form: "Новая запись",
    title: "Тема",
    publish: "Опубликовать",
    postLimit: "Вы публикуете слишком часто — подождите минуту.",
    commentLimit: "Слишком много комментариев — подождите немного.",
    chatLimit: "Слишком много сообщений — подождите немного",
  },
  en: {
    whatsNew: "What's new?",
    form: "New post",
    title: "Title",
    publish: "Publish",
    postLimit: "You are posting too often — please wait a minute.",
    commentLimit: "Too many comments — please wait a moment.",
    chatLimit: "Too many messages — please wait a moment",
  },
} as const;

/** Sends `n` writes at once and checks that the limit refused some of them (429): the budget is spent. */
async function spend(n: number, one: (i: number) => Promise<{ status: () => number }>): Promise<void> {
  const statuses = await Promise.all(Array.from({ length: n }, (_, i) => one(i).then((r) => r.status())));
  expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
  expect(statuses.filter((s) => s !== 429 && s >= 300)).toEqual([]);
}

for (const lang of ["ru", "en"] as const) {
  test(`a spent write limit is said in the composer, the comment form and the chat (${lang})`, async ({ browser }) => {
    const T = TEXT[lang];
    const [me, friend] = await Promise.all([
      createUser({ firstName: lang === "ru" ? "Вера" : "Vera", lastName: "Лимитова", language: lang }),
      createUser({ firstName: lang === "ru" ? "Глеб" : "Gleb", lastName: "Лимитов", language: lang }),
    ]);
    const [myApi, friendApi]: APIRequestContext[] = await Promise.all([apiAs(me), apiAs(friend)]);
    await befriend(myApi, me.id, friendApi, friend.id);
    const context = await contextIn(browser, lang, baseURL);
    const page = await context.newPage();
    await signIn(page, me);

    // Posts: the minute's budget spent, the composer's text stays and the limit is said.
    await spend(31, (i) => myApi.post("/api/v1/post", { data: { title: `Заметка ${i}`, postText: "<p>Короткая заметка для проверки.</p>" } }));
    await page.goto("/");
    await page.getByRole("button", { name: T.whatsNew }).click();
    const form = page.getByRole("form", { name: T.form });
    await form.getByLabel(T.title).fill("Ещё одна запись");
    await form.getByTestId("post-editor").click();
    await page.keyboard.type("Текст, который не должен пропасть.");
    await form.getByRole("button", { name: T.publish }).click();
    await expect(form.getByRole("alert")).toHaveText(T.postLimit);
    await expect(form.getByLabel(T.title)).toHaveValue("Ещё одна запись");

    // Comments: under the friend's post, the form says the limit and keeps the text.
    const post = await (await friendApi.post("/api/v1/post", { data: { title: "Пост друга", postText: "<p>Комментируйте на здоровье.</p>" } })).json();
    await spend(31, (i) => myApi.post(`/api/v1/post/${post.id}/comment`, { data: { commentText: `комментарий ${i}` } }));
    await page.goto(`/post/${post.id}`);
    const input = page.getByTestId("comment-input");
    await input.fill("Ещё один комментарий");
    await input.press("Enter");
    await expect(page.getByRole("alert").filter({ hasText: T.commentLimit })).toBeVisible();
    await expect(input).toHaveValue("Ещё один комментарий");

    // Messages: the minute's budget (shared with the socket) spent; the failed bubble says why.
    const dialog = await (await myApi.post("/api/v1/dialogs", { data: { recipientId: friend.id } })).json();
    await spend(65, (i) => myApi.post(`/api/v1/dialogs/${dialog.id}/messages`, { data: { messageText: `сообщение ${i}` } }));
    await page.goto(`/im/${dialog.id}`);
    const composer = page.locator("#chat-composer");
    await composer.fill("Это не уйдёт");
    await composer.press("Enter");
    const bubble = page.getByTestId("chat-history").getByTestId("message").filter({ hasText: "Это не уйдёт" });
    await expect(bubble).toHaveAttribute("data-state", "failed");
    await expect(bubble.getByRole("alert")).toContainText(T.chatLimit);

    await Promise.all([myApi.dispose(), friendApi.dispose(), context.close()]);
  });
}
