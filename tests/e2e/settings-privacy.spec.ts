import type { Browser } from "@playwright/test";
import { createUser, expect, signIn, test } from "./fixtures";
import { apiAs } from "./profile-support";

// Issue 26 section 3, docs/adr/0125: a person closes their profile and takes messages from friends only
// in «Приватность»; another person then sees the closed page (name, photo, "add friend", no "write", no
// wall) and, in the dialog they already had, the refusal instead of the input — before typing anything.
// Russian in the light theme on a desktop, English in the dark theme on a phone.

const TEXTS = {
  ru: {
    profile: "Кто видит мою страницу",
    messages: "Кто может писать мне сообщения",
    changed: "Настройки приватности изменены",
    closed: "Это закрытый профиль",
    add: "Добавить в друзья",
    write: "Написать сообщение",
    writeRefused: "Пишут только друзья",
    wall: "Записи",
    refused: "принимает сообщения только от друзей",
  },
  en: {
    profile: "Who can see my page",
    messages: "Who can send me messages",
    changed: "Privacy settings changed",
    closed: "This profile is private",
    add: "Add friend",
    write: "Send a message",
    writeRefused: "Only friends can message",
    wall: "Posts",
    refused: "accepts messages from friends only",
  },
} as const;

async function contextFor(browser: Browser, lang: "ru" | "en", baseURL: string) {
  const context = await browser.newContext(
    lang === "en" ? { colorScheme: "dark", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : { colorScheme: "light" },
  );
  if (lang === "en") {
    await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
    await context.addInitScript(() => localStorage.setItem("selectedLanguage", "en"));
  }
  return context;
}

for (const lang of ["ru", "en"] as const) {
  test(`a closed profile and messages from friends only, seen by a stranger (${lang})`, async ({ browser, baseURL }) => {
    // Two people in two browsers on one busy machine: more than the default budget.
    test.setTimeout(90_000);
    const x = TEXTS[lang];
    const owner = await createUser({ firstName: "Ольга", lastName: "Закрытова", language: lang });
    const visitor = await createUser({ firstName: "Борис", lastName: "Гостев", language: lang });
    // They had talked before: the dialog exists, so the visitor can open it after the change.
    const visitorApi = await apiAs(visitor);
    const made = await visitorApi.post("/api/v1/dialogs", { data: { recipientId: owner.id } });
    expect(made.status(), await made.text()).toBe(201);
    const dialogId = (await made.json()).id as number;

    // The owner chooses in settings.
    const ownerContext = await contextFor(browser, lang, baseURL!);
    const ownerPage = await ownerContext.newPage();
    await signIn(ownerPage, owner);
    await ownerPage.goto("/settings");
    const privacy = ownerPage.getByTestId("privacy-settings");
    await expect(privacy.getByLabel(x.profile)).toBeEnabled();
    await privacy.getByLabel(x.profile).selectOption("FRIENDS");
    await expect(ownerPage.getByText(x.changed).first()).toBeVisible();
    await privacy.getByLabel(x.messages).selectOption("FRIENDS");
    await expect.poll(async () => (await (await ownerPage.request.get("/api/v1/account/privacy")).json()).messagesFrom).toBe("FRIENDS");
    // A reload shows what the server kept.
    await ownerPage.reload();
    await expect(ownerPage.getByTestId("privacy-settings").getByLabel(x.profile)).toHaveValue("FRIENDS");
    await expect(ownerPage.getByTestId("privacy-settings").getByLabel(x.messages)).toHaveValue("FRIENDS");
    await ownerPage.getByTestId("privacy-settings").screenshot({ path: test.info().outputPath(`privacy-settings-${lang}.png`) });

    // The stranger's view of the page: name, photo, the closed state and "add friend"; no wall, no "write".
    const visitorContext = await contextFor(browser, lang, baseURL!);
    const page = await visitorContext.newPage();
    await signIn(page, visitor);
    await page.goto(`/profile/${owner.id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Ольга Закрытова" })).toBeVisible();
    await expect(page.getByTestId("profile-closed")).toContainText(x.closed);
    await expect(page.getByRole("button", { name: x.add, exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: x.write, exact: true })).toHaveCount(0);
    await expect(page.getByTestId("privacy-refusal")).toHaveText(x.writeRefused);
    await expect(page.getByRole("heading", { name: x.wall, exact: true })).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath(`closed-profile-${lang}.png`), fullPage: true });

    // The dialog they had: the refusal in place of the input.
    await page.goto(`/im/${dialogId}`);
    await expect(page.getByTestId("cannot-write")).toContainText(x.refused);
    await expect(page.getByRole("textbox")).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath(`refused-composer-${lang}.png`), fullPage: true });

    // The API says the same to any other client.
    const sent = await visitorApi.post(`/api/v1/dialogs/${dialogId}/messages`, { data: { messageText: "Привет" } });
    expect(sent.status()).toBe(403);
    await visitorApi.dispose();
    await Promise.all([ownerContext.close(), visitorContext.close()]);
  });
}
