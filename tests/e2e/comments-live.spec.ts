import type { Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { createUser, letters, expect as baseExpect, signIn, test, type TestUser } from "./fixtures";
import { apiAs, befriend } from "./profile-support";
import { createPost } from "./posts-support";

// Issue 10: two people hold a threaded discussion under a post in real time — comment, reply, reply to
// a reply, edit, delete and recover, like (seen live too) — in both languages, the English one at phone width.

// Two browsers and a production server share a busy machine: more than the default 10 s.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 300_000 });

const TEXT = {
  ru: {
    names: ["Алиса", "Борис"],
    reply: "Ответить",
    edit: "Изменить",
    delete: "Удалить",
    recover: "Восстановить",
    deleted: "Комментарий удалён.",
    save: "Сохранить",
    edited: "изменено",
    like: "Нравится",
    likedOnce: "Нравится: 1",
    one: "1 комментарий",
    none: "Комментариев пока нет",
    showOneReply: "Показать 1 ответ",
    replyingTo: "Ответ на комментарий",
    editing: "Редактирование комментария",
    tooLong: "Комментарий не может быть длиннее 2000 символов, сейчас 2001.",
    placeholder: "Написать комментарий…",
    send: "Отправить",
  },
  en: {
    names: ["Alice", "Boris"],
    reply: "Reply",
    edit: "Edit",
    delete: "Delete",
    recover: "Recover",
    deleted: "Comment deleted.",
    save: "Save",
    edited: "edited",
    like: "Like",
    likedOnce: "Likes: 1",
    one: "1 comment",
    none: "No comments yet",
    showOneReply: "Show 1 reply",
    replyingTo: "Replying to",
    editing: "Editing a comment",
    tooLong: "A comment can be at most 2000 characters long; this one has 2001.",
    placeholder: "Write a comment…",
    send: "Send",
  },
} as const;

type Lang = keyof typeof TEXT;

async function signedIn(browser: Browser, user: TestUser, lang: Lang, phone: boolean): Promise<{ context: BrowserContext; page: Page; failures: string[] }> {
  const context = await browser.newContext({
    locale: lang === "en" ? "en-US" : "ru-RU",
    ...(phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : {}),
  });
  if (lang === "en") await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
  const page = await context.newPage();
  // The fixtures' 5xx guard covers only its own page; these pages get the same one.
  const failures: string[] = [];
  page.on("response", (res) => {
    if (res.status() >= 500) failures.push(`${res.status()} ${res.request().method()} ${res.url()}`);
  });
  await signIn(page, user);
  return { context, page, failures };
}

const card = (page: Page, title: string) => page.getByTestId("post-card").filter({ hasText: title });
const comment = (scope: Locator, text: string) => scope.getByTestId("comment").filter({ hasText: text });
const input = (scope: Locator) => scope.getByTestId("comment-input");

async function say(scope: Locator, text: string): Promise<void> {
  const box = input(scope);
  await box.fill(text);
  await box.press("Enter");
  await expect(box).toHaveValue("");
}

async function discussion(browser: Browser, lang: Lang, phone: boolean) {
  const T = TEXT[lang];
  const [alice, boris] = await Promise.all(
    T.names.map((firstName) => createUser({ firstName, lastName: `Комм${letters()}`, language: lang })),
  );
  const [apiA, apiB] = await Promise.all([apiAs(alice), apiAs(boris)]);
  await befriend(apiA, alice.id, apiB, boris.id);
  const title = lang === "ru" ? `Поход ${letters()}` : `Hike ${letters()}`;
  await createPost(apiA, { title, postText: "<p>Прошли двадцать километров вдоль реки.</p>" });
  await Promise.all([apiA.dispose(), apiB.dispose()]);

  const a = await signedIn(browser, alice, lang, phone);
  const b = await signedIn(browser, boris, lang, phone);
  await Promise.all([a.page.goto("/"), b.page.goto("/")]);
  const aCard = card(a.page, title);
  const bCard = card(b.page, title);
  await expect(aCard.getByTestId("comments-count")).toHaveText(T.none);
  await expect(bCard.getByTestId("comments-count")).toHaveText(T.none);

  // The input: Shift+Enter is a new line, under 5 characters Enter sends nothing, beyond 2000 a clear refusal.
  const bInput = input(bCard);
  await bInput.fill("abc");
  await bInput.press("Enter");
  await expect(bInput).toHaveValue("abc");
  await bInput.fill("x".repeat(2001));
  await expect(bCard.getByRole("alert")).toHaveText(T.tooLong);
  await expect(bCard.getByRole("button", { name: T.send })).toBeDisabled();
  await bInput.fill("Первая строка");
  await bInput.press("Shift+Enter");
  await bInput.pressSequentially("вторая https://example.com/page. <b>жирный</b>?");
  await expect(bInput).toHaveValue("Первая строка\nвторая https://example.com/page. <b>жирный</b>?");

  // Boris comments; Alice sees it arrive without a reload. The link is a link, the tag is text.
  await bInput.press("Enter");
  await expect(bInput).toHaveValue("");
  const top = comment(aCard, "Первая строка");
  await expect(top).toBeVisible();
  await expect(aCard.getByTestId("comments-count")).toHaveText(T.one);
  await expect(top.getByRole("link", { name: "https://example.com/page" })).toHaveAttribute("href", "https://example.com/page");
  await expect(top.getByTestId("comment-text")).toContainText("<b>жирный</b>?");
  await expect(top.locator("b")).toHaveCount(0);
  // Only the author has edit and delete.
  await expect(top.getByRole("button", { name: T.edit })).toHaveCount(0);

  // Alice replies; Boris sees the thread grow live and opens it.
  await top.getByRole("button", { name: T.reply }).click();
  await expect(aCard.getByTestId("comment-mode")).toContainText(T.replyingTo);
  await expect(aCard.getByTestId("comment-mode")).toContainText(boris.firstName);
  await say(aCard, "Спасибо, было здорово!");
  await expect(comment(aCard, "Спасибо, было здорово!")).toBeVisible();
  await bCard.getByRole("button", { name: T.showOneReply }).click();
  const reply = comment(bCard, "Спасибо, было здорово!");
  await expect(reply).toBeVisible();

  // Boris answers the reply: the input is addressed to Alice and the answer joins the same thread.
  await reply.getByRole("button", { name: T.reply }).click();
  await expect(bInput).toHaveValue(`${alice.firstName}, `);
  await bInput.press("End");
  await bInput.pressSequentially("пойдём ещё!");
  await bInput.press("Enter");
  const answer = `${alice.firstName}, пойдём ещё!`;
  await expect(comment(bCard, answer)).toBeVisible();
  await expect(comment(aCard, answer)).toBeVisible();
  const aThread = aCard.getByTestId("comment").filter({ hasText: "Спасибо, было здорово!" }).locator("xpath=ancestor::ul[1]");
  await expect(aThread.getByTestId("comment")).toHaveCount(2);

  // Boris edits his comment: the input fills with its text; Alice sees the new text live.
  const bTop = comment(bCard, "Первая строка");
  await bTop.getByRole("button", { name: T.edit }).click();
  await expect(bCard.getByTestId("comment-mode")).toContainText(T.editing);
  await expect(bInput).toHaveValue(/^Первая строка\nвторая/);
  await bInput.fill("Первая строка (исправлено)");
  await bCard.getByRole("button", { name: T.save }).click();
  await expect(comment(bCard, "Первая строка (исправлено)")).toContainText(T.edited);
  await expect(comment(aCard, "Первая строка (исправлено)")).toContainText(T.edited);

  // Alice likes it (at once, and still after a reload); Boris sees the count arrive without a reload.
  const aTop = comment(aCard, "Первая строка (исправлено)");
  await aTop.getByRole("button", { name: T.like, exact: true }).click();
  await expect(aTop.getByRole("button", { name: T.likedOnce })).toHaveAttribute("aria-pressed", "true");
  await expect(comment(bCard, "Первая строка (исправлено)").getByRole("button", { name: T.likedOnce })).toHaveAttribute("aria-pressed", "false");

  // Boris deletes his comment and recovers it; the placeholder has the recover action only for him.
  await comment(bCard, "Первая строка (исправлено)").getByRole("button", { name: T.delete }).click();
  const placeholder = bCard.getByTestId("comment").filter({ hasText: T.deleted });
  await expect(placeholder.getByRole("button", { name: T.recover })).toBeVisible();
  const aPlaceholder = aCard.locator('[data-testid="comment"][data-deleted="true"]');
  await expect(aPlaceholder).toHaveText(T.deleted);
  await expect(aPlaceholder.getByRole("button")).toHaveCount(0);
  await placeholder.getByRole("button", { name: T.recover }).click();
  await expect(comment(bCard, "Первая строка (исправлено)")).toBeVisible();
  await expect(comment(aCard, "Первая строка (исправлено)")).toBeVisible();

  // Every count stays right after a reload.
  await a.page.reload();
  const reloaded = comment(aCard, "Первая строка (исправлено)");
  await expect(reloaded.getByRole("button", { name: T.likedOnce })).toHaveAttribute("aria-pressed", "true");
  await expect(aCard.getByTestId("comments-count")).toHaveText(lang === "ru" ? "3 комментария" : "3 comments");
  await expect(aCard.getByRole("button", { name: lang === "ru" ? "Показать 2 ответа" : "Show 2 replies" })).toBeVisible();

  if (phone) {
    const overflow = await a.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  }
  expect([...a.failures, ...b.failures]).toEqual([]);
  await Promise.all([a.context.close(), b.context.close()]);
}

test("a threaded discussion in real time, in Russian", async ({ browser }) => {
  await discussion(browser, "ru", false);
});

test("a threaded discussion in real time, in English on a phone", async ({ browser }) => {
  await discussion(browser, "en", true);
});
