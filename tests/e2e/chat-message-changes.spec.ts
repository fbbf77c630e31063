import type { Browser, Page } from "@playwright/test";
import { createUser, letters, expect as baseExpect, signedInContext, test, type TestUser } from "./fixtures";
import { apiAs, befriend } from "./profile-support";

// Issue 27 (docs/adr/0129), in both languages: two people in two browsers — one on a desktop, one on a
// 390 px phone, one light and one dark (swapped in the other language) — answer a message (the quote jumps
// to the original), edit one (Escape leaves editing; «изменено» shows), delete one for both («Сообщение
// удалено» where it was) and one for oneself; each change reaches the other side live, and the dialog
// list's preview skips what was deleted.

const expect = baseExpect.configure({ timeout: 30_000 });

const TEXT = {
  ru: {
    a: "Алиса",
    b: "Борис",
    question: "Где встречаемся?",
    answer: "У метро",
    edited: "У метро в семь",
    mistake: "Ой, не тот чат",
    actions: "Действия с сообщением",
    reply: "Ответить",
    edit: "Изменить",
    delete: "Удалить",
    forEveryone: "Удалить у всех",
    forMe: "Удалить у меня",
    editedMark: "изменено",
    deleted: "Сообщение удалено",
    deleteTitle: "Удалить сообщение?",
    replyingTo: "Ответ на сообщение: Борис",
    editing: "Редактирование сообщения",
  },
  en: {
    a: "Alice",
    b: "Boris",
    question: "Where do we meet?",
    answer: "At the station",
    edited: "At the station at seven",
    mistake: "Oops, wrong chat",
    actions: "Message actions",
    reply: "Reply",
    edit: "Edit",
    delete: "Delete",
    forEveryone: "Delete for everyone",
    forMe: "Delete for me",
    editedMark: "edited",
    deleted: "Message deleted",
    deleteTitle: "Delete the message?",
    replyingTo: "Replying to Boris",
    editing: "Editing message",
  },
} as const;
type Lang = keyof typeof TEXT;

const signedIn = (browser: Browser, user: TestUser, lang: Lang, theme: "light" | "dark", phone: boolean) => signedInContext(browser, user, { lang, theme, phone });

const composer = (page: Page) => page.locator("#chat-composer");
const bubble = (page: Page, text: string) => page.getByTestId("chat-history").getByTestId("message").filter({ hasText: text });

/**
 * Opens a message's own menu: by pointer (hover shows the button on a desktop), by keyboard (focus, Enter),
 * or by a long press / right click on the message itself ("press").
 */
async function openMenu(page: Page, text: string, how: "pointer" | "keyboard" | "press" = "pointer") {
  const row = bubble(page, text);
  const button = row.getByRole("button", { name: /Действия с сообщением|Message actions/ });
  if (how === "press") {
    await row.locator("p").first().click({ button: "right" });
  } else if (how === "keyboard") {
    await button.focus();
    await page.keyboard.press("Enter");
  } else {
    await row.hover();
    await button.click();
  }
  await expect(page.getByRole("menu")).toBeVisible();
}

test.describe.configure({ timeout: 300_000 });

for (const lang of ["ru", "en"] as const) {
  test(`reply, edit and delete reach the other side live (${lang})`, async ({ browser }, testInfo) => {
    const T = TEXT[lang];
    const [alice, boris] = await Promise.all([
      createUser({ firstName: T.a, lastName: `Чат${letters()}`, language: lang }),
      createUser({ firstName: T.b, lastName: `Чат${letters()}`, language: lang }),
    ]);
    const [apiA, apiB] = await Promise.all([apiAs(alice), apiAs(boris)]);
    await befriend(apiA, alice.id, apiB, boris.id);
    const dialog = await (await apiB.post("/api/v1/dialogs", { data: { recipientId: alice.id } })).json();
    const asked = await apiB.post(`/api/v1/dialogs/${dialog.id}/messages`, { data: { messageText: T.question } });
    expect(asked.status()).toBe(201);

    // Russian: Alice light on a desktop, Boris dark on a phone; English the other way round.
    const aTheme = lang === "ru" ? "light" : "dark";
    const bTheme = lang === "ru" ? "dark" : "light";
    const a = await signedIn(browser, alice, lang, aTheme, false);
    const b = await signedIn(browser, boris, lang, bTheme, true);
    await Promise.all([a.page.goto(`/im/${dialog.id}`), b.page.goto(`/im/${dialog.id}`)]);
    await expect(a.page.locator("html")).toHaveAttribute("data-theme", aTheme);
    await expect(b.page.locator("html")).toHaveAttribute("data-theme", bTheme);
    await expect(bubble(a.page, T.question)).toBeVisible();

    // Alice answers Boris's question: the quote shows above her field, then in the sent message on both sides.
    await openMenu(a.page, T.question);
    await a.page.screenshot({ path: testInfo.outputPath(`menu-${lang}-${aTheme}-desktop.png`) });
    await a.page.getByRole("menuitem", { name: T.reply }).click();
    await expect(a.page.getByTestId("composer-reply")).toContainText(T.replyingTo);
    await expect(a.page.getByTestId("composer-reply")).toContainText(T.question);
    await expect(composer(a.page)).toBeFocused();
    await composer(a.page).fill(T.answer);
    await a.page.screenshot({ path: testInfo.outputPath(`reply-composer-${lang}-${aTheme}-desktop.png`) });
    await composer(a.page).press("Enter");
    await expect(a.page.getByTestId("composer-reply")).toHaveCount(0);
    const answerOnB = bubble(b.page, T.answer);
    await expect(answerOnB.getByTestId("reply-quote")).toContainText(T.question);
    await expect(bubble(a.page, T.answer).getByTestId("reply-quote")).toContainText(T.question);
    // Boris taps the quote: the original is brought into view and highlighted.
    await answerOnB.getByTestId("reply-quote").click();
    await expect(bubble(b.page, T.question).first()).toHaveAttribute("data-highlighted", "true");

    // Alice edits her answer from the keyboard; Escape leaves editing and gives back the empty field.
    await openMenu(a.page, T.answer, "keyboard");
    await a.page.getByRole("menuitem", { name: T.edit }).click();
    await expect(a.page.getByTestId("composer-editing")).toContainText(T.editing);
    await expect(composer(a.page)).toHaveValue(T.answer);
    await composer(a.page).press("Escape");
    await expect(a.page.getByTestId("composer-editing")).toHaveCount(0);
    await expect(composer(a.page)).toHaveValue("");
    await openMenu(a.page, T.answer);
    await a.page.getByRole("menuitem", { name: T.edit }).click();
    await composer(a.page).fill(T.edited);
    await composer(a.page).press("Enter");
    await expect(bubble(a.page, T.edited).getByTestId("edited")).toHaveText(T.editedMark);
    await expect(bubble(b.page, T.edited).getByTestId("edited")).toHaveText(T.editedMark);
    await expect(composer(a.page)).toHaveValue("");

    // A message sent by mistake is deleted for both: «Сообщение удалено» stays where it was on both sides.
    await composer(a.page).fill(T.mistake);
    await composer(a.page).press("Enter");
    await expect(bubble(b.page, T.mistake)).toBeVisible();
    await openMenu(a.page, T.mistake);
    await a.page.getByRole("menuitem", { name: T.delete }).click();
    const ask = a.page.getByRole("alertdialog");
    await expect(ask).toContainText(T.deleteTitle);
    await ask.getByRole("checkbox", { name: T.forEveryone }).check();
    await a.page.screenshot({ path: testInfo.outputPath(`delete-confirm-${lang}-${aTheme}-desktop.png`) });
    await ask.getByRole("button", { name: T.forEveryone }).click();
    await expect(ask).toHaveCount(0);
    await expect(bubble(b.page, T.mistake)).toHaveCount(0);
    const deletedOnB = b.page.getByTestId("chat-history").locator("[data-deleted]");
    await expect(deletedOnB).toHaveCount(1);
    await expect(deletedOnB).toContainText(T.deleted);
    await expect(a.page.getByTestId("chat-history").locator("[data-deleted]")).toContainText(T.deleted);

    // Boris deletes Alice's edited answer for himself (a partner's message: no "for everyone" offered).
    await openMenu(b.page, T.edited, "press");
    await b.page.screenshot({ path: testInfo.outputPath(`menu-${lang}-${bTheme}-390.png`) });
    await b.page.getByRole("menuitem", { name: T.delete }).click();
    const askB = b.page.getByRole("alertdialog");
    await expect(askB.getByRole("checkbox")).toHaveCount(0);
    await b.page.screenshot({ path: testInfo.outputPath(`delete-confirm-${lang}-${bTheme}-390.png`) });
    await askB.getByRole("button", { name: T.forMe }).click();
    await expect(bubble(b.page, T.edited)).toHaveCount(0);
    await expect(bubble(a.page, T.edited)).toBeVisible();

    await a.page.screenshot({ path: testInfo.outputPath(`chat-${lang}-${aTheme}-desktop.png`) });
    await b.page.screenshot({ path: testInfo.outputPath(`chat-${lang}-${bTheme}-390.png`) });
    const overflow = await b.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // The dialog lists: the preview is the newest message each still sees.
    await Promise.all([a.page.goto("/im"), b.page.goto("/im")]);
    await expect(a.page.getByTestId("dialog-preview")).toContainText(T.edited);
    await expect(b.page.getByTestId("dialog-preview")).toContainText(T.question);
    await b.page.screenshot({ path: testInfo.outputPath(`list-${lang}-${bTheme}-390.png`) });

    expect(a.failures).toEqual([]);
    expect(b.failures).toEqual([]);
    await Promise.all([a.context.close(), b.context.close(), apiA.dispose(), apiB.dispose()]);
  });
}
