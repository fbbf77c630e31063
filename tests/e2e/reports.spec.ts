import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { contextIn, createUser, expect as baseExpect, signIn, test } from "./fixtures";
import { createPost } from "./posts-support";

// Issue 26 sections 1 and 2, in both languages: a person reports a post and a chat message (told first that
// nobody reads their messages and moderators will see only that one and up to five before it); a repeat is
// answered "already reported"; the moderator's sidebar count goes up live; the moderator blocks the post from
// /admin/reports with a reason and dismisses the message; the reporter finds both answers among their
// notifications, each naming its item, and their switch; the post's author is told why (issue 40).

// One after the other (out of fullyParallel): the admin badge counts every open report, and side by side
// one language's resolution could cancel the other's new report in the count the journey watches rise.
test.describe.configure({ mode: "default", timeout: 240_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

const TEXT = {
  ru: {
    report: "Пожаловаться",
    spam: "Спам",
    insult: "Оскорбления или травля",
    send: "Отправить жалобу",
    sent: "Спасибо. Модераторы рассмотрят жалобу",
    duplicate: "Вы уже пожаловались на это",
    private: "Вашу переписку никто не читает, и модераторы тоже",
    warning: "они увидят только его (с фотографиями) и до пяти сообщений перед ним",
    blockItem: "Заблокировать материал",
    dismiss: "Отклонить",
    reason: "Причина",
    blockedDone: "Материал заблокирован",
    answerBlocked: (tag: string) => `Мы рассмотрели вашу жалобу на запись «Реклама ${tag}»: материал заблокирован`,
    answerDismissed: (tag: string) => `Мы рассмотрели вашу жалобу на сообщение «Ты дурак ${tag}» и не нашли нарушения`,
    authorTold: (tag: string) => `Модератор заблокировал вашу запись «Реклама ${tag}». Причина: Реклама запрещена ${tag}`,
    answersSwitch: "Ответы на мои жалобы",
  },
  en: {
    report: "Report",
    spam: "Spam",
    insult: "Insults or harassment",
    send: "Send report",
    sent: "Thank you. Moderators will look at your report",
    duplicate: "You have already reported this",
    private: "No one reads your messages, moderators included",
    warning: "they will see only it (with its photos) and up to five messages before it",
    blockItem: "Block the item",
    dismiss: "Dismiss",
    reason: "Reason",
    blockedDone: "The item is blocked",
    answerBlocked: (tag: string) => `We reviewed your report of the post “Реклама ${tag}”: it is now blocked`,
    answerDismissed: (tag: string) => `We reviewed your report of the message “Ты дурак ${tag}” and found no violation`,
    authorTold: (tag: string) => `A moderator blocked your post “Реклама ${tag}”. Reason: Реклама запрещена ${tag}`,
    answersSwitch: "Answers to my reports",
  },
} as const;

/** The number in the admin sidebar's badge (0 when none shows). */
async function badgeCount(page: Page): Promise<number> {
  const badge = page.getByTestId("open-reports-badge");
  if ((await badge.count()) === 0) return 0;
  return Number((await badge.locator("[aria-hidden]").textContent())?.replace("+", "") ?? 0);
}

for (const lang of ["ru", "en"] as const) {
  const L = TEXT[lang];

  test(`a post and a message are reported, resolved in /admin/reports, and the reporter is told (${lang})`, async ({ browser, baseURL }) => {
    const tag = randomBytes(3).toString("hex");
    const [author, reporter, moderator] = await Promise.all([
      createUser({ language: lang, firstName: "Автор", lastName: `Жалоб${tag}` }),
      createUser({ language: lang, firstName: "Читатель", lastName: "Бдительный" }),
      createUser({ role: "MODERATOR", language: lang, firstName: "Мод", lastName: "Ератор" }),
    ]);
    const [authorContext, reporterContext, modContext] = await Promise.all([1, 2, 3].map(() => contextIn(browser, lang, baseURL!)));
    const [authorPage, page, mod] = await Promise.all([authorContext.newPage(), reporterContext.newPage(), modContext.newPage()]);
    await Promise.all([signIn(authorPage, author), signIn(page, reporter), signIn(mod, moderator)]);
    const post = await createPost(authorPage.request, { title: `Реклама ${tag}`, postText: "<p>Купите наши товары</p>" });
    const dialog = await (await authorPage.request.post("/api/v1/dialogs", { data: { recipientId: reporter.id } })).json();
    for (const text of ["Привет", "Как дела?", `Ты дурак ${tag}`]) {
      expect((await authorPage.request.post(`/api/v1/dialogs/${dialog.id}/messages`, { data: { messageText: text } })).ok()).toBe(true);
    }

    // The moderator's admin area is open: its count follows the reports live.
    await mod.goto("/admin/reports");
    await expect(mod.getByRole("heading", { level: 1 })).toBeVisible();
    const before = await badgeCount(mod);

    // Report the post from its ⋯ menu.
    await page.goto(`/post/${post.id}`);
    await page.getByTestId(`report-menu-POST-${post.id}`).click();
    await page.getByRole("menuitem", { name: L.report }).click();
    let ask = page.getByRole("alertdialog");
    await ask.getByRole("radio", { name: L.spam }).check();
    await ask.getByRole("textbox").fill(`Спам ${tag}`);
    await ask.getByRole("button", { name: L.send }).click();
    await expect(ask).toHaveCount(0);
    await expect(page.getByText(L.sent)).toBeVisible();
    await expect.poll(() => badgeCount(mod)).toBeGreaterThan(before);
    // Again: "already reported" in the dialog.
    await page.getByTestId(`report-menu-POST-${post.id}`).click();
    await page.getByRole("menuitem", { name: L.report }).click();
    ask = page.getByRole("alertdialog");
    await ask.getByRole("radio", { name: L.spam }).check();
    await ask.getByRole("button", { name: L.send }).click();
    await expect(ask).toContainText(L.duplicate);
    await page.keyboard.press("Escape");
    await expect(ask).toHaveCount(0);

    // Report the partner's message in the chat: told first what moderators will see.
    await page.goto(`/im/${dialog.id}`);
    const bad = page.getByTestId("message").filter({ hasText: `Ты дурак ${tag}` });
    await bad.getByRole("button").click();
    await page.getByRole("menuitem", { name: L.report }).click();
    ask = page.getByRole("alertdialog");
    await expect(ask).toContainText(L.private);
    await expect(ask).toContainText(L.warning);
    await ask.getByRole("radio", { name: L.insult }).check();
    await ask.getByRole("button", { name: L.send }).click();
    await expect(ask).toHaveCount(0);

    // The moderator resolves both in the queue, each with a confirmation and a reason.
    await mod.reload();
    const postGroup = mod.locator("article").filter({ hasText: `Реклама ${tag}` });
    await expect(postGroup).toContainText(`Спам ${tag}`);
    await expect(postGroup).toContainText(`${reporter.firstName} ${reporter.lastName}`);
    await postGroup.getByRole("button", { name: L.blockItem }).click();
    let confirm = mod.getByRole("alertdialog");
    await confirm.getByLabel(L.reason).fill(`Реклама запрещена ${tag}`);
    await confirm.getByRole("button", { name: L.blockItem }).click();
    await expect(confirm).toHaveCount(0);
    await expect(mod.getByText(L.blockedDone).first()).toBeVisible();
    await expect(postGroup).toHaveCount(0);

    const messageGroup = mod.locator("article").filter({ hasText: `Ты дурак ${tag}` });
    // The copy: the reported message and the ones before it, nothing else of the dialog.
    await expect(messageGroup.locator("[data-reported]")).toContainText(`Ты дурак ${tag}`);
    await expect(messageGroup.locator("li")).toHaveCount(4); // three messages and one report
    await messageGroup.getByRole("button", { name: L.dismiss }).click();
    confirm = mod.getByRole("alertdialog");
    await confirm.getByLabel(L.reason).fill("Ссора двух людей");
    await confirm.getByRole("button", { name: L.dismiss }).click();
    await expect(confirm).toHaveCount(0);
    await expect(messageGroup).toHaveCount(0);

    // The audit log has the reason.
    await mod.goto("/admin/audit");
    await expect(mod.getByTestId("audit-table")).toContainText(`Реклама запрещена ${tag}`);

    // The reporter is told: both answers among their notifications, each naming its item (issue 40).
    await page.goto("/push");
    await expect(page.getByText(L.answerBlocked(tag))).toBeVisible();
    await expect(page.getByText(L.answerDismissed(tag))).toBeVisible();
    // The author is told which post was blocked and why.
    await authorPage.goto("/push");
    await expect(authorPage.getByText(L.authorTold(tag))).toBeVisible();
    // The post is gone for them.
    expect((await page.request.get(`/api/v1/post/${post.id}`)).status()).toBe(404);
    // These answers have their own switch in the notification settings, on by default.
    await page.goto("/settings");
    await expect(page.getByRole("switch", { name: L.answersSwitch })).toBeChecked();

    await Promise.all([authorContext.close(), reporterContext.close(), modContext.close()]);
  });
}
