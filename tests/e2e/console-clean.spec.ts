import type { Page } from "@playwright/test";
import { contextIn, createUser, expect, signIn, test } from "./fixtures";
import { apiAs } from "./profile-support";

// Issue 24 item 14 (docs/adr/0117): a newcomer's console stays clean. /push hydrates without React #418
// (its "how long ago" was counted from two different "now"s), a link to an account blocked by the
// moderators is prefetched (on hover) without a logged 404, and the first «Написать сообщение» creates the dialog
// without a logged 404 from GET dialogs/recipientId/{id} first.

test.describe.configure({ timeout: 120_000 });

const TEXT = {
  ru: { wantsToBeFriends: "Хочет добавить вас в друзья", userNotFound: "Пользователь не найден", write: "Написать сообщение" },
  en: { wantsToBeFriends: "Wants to be your friend", userNotFound: "User not found", write: "Send a message" },
} as const;

/** Every console error and uncaught page error of `page` from now on. */
function consoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

for (const lang of ["ru", "en"] as const) {
  const L = TEXT[lang];

  test(`/push, a blocked account's page and the first message log no errors (${lang})`, async ({ browser, baseURL }) => {
    const viewer = await createUser({ language: lang, firstName: "Вера", lastName: "Чистая" });
    const asker = await createUser({ language: lang, firstName: "Пётр", lastName: "Просящий" });
    const banned = await createUser({ language: lang, firstName: "Борис", lastName: "Забаненный" });
    const recipient = await createUser({ language: lang, firstName: "Роман", lastName: "Адресат" });
    const moderator = await createUser({ role: "MODERATOR", language: lang });
    const [askerApi, bannedApi, modApi] = await Promise.all([apiAs(asker), apiAs(banned), apiAs(moderator)]);
    // Two fresh notifications ("N секунд назад"), one of them from an account the moderators then block.
    for (const api of [bannedApi, askerApi]) expect((await api.post(`/api/v1/friends/${viewer.id}/request`)).status()).toBe(200);
    expect((await modApi.put(`/api/v1/admin/users/${banned.id}/block`, { data: { reason: "spam" } })).status()).toBe(200);

    const context = await contextIn(browser, lang, baseURL!);
    const page = await context.newPage();
    await signIn(page, viewer);
    const problems = consoleProblems(page);
    // The page's scripts arrive a second and a half late, as on a slow phone: the relative times of the
    // server's render are a few seconds old by hydration, so two "now"s could not agree by chance.
    await page.route("**/_next/static/chunks/**", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });

    await page.goto("/push");
    const entries = page.getByTestId("notification");
    await expect(entries).toHaveCount(2);
    await expect(entries.first()).toContainText(L.wantsToBeFriends);
    await expect(entries.first().locator("time")).not.toBeEmpty();
    await page.waitForLoadState("networkidle");
    // Wait for a delayed script still in its pause: unrouted under it, its continue would find the request
    // already sent on and fail the test from inside the handler.
    await page.unrouteAll({ behavior: "wait" });
    // Hydrated; a link is prefetched when the pointer rests on it (docs/adr/0124): the blocked account's
    // page is the card, not a 404.
    const prefetch = page.waitForResponse((res) => res.url().includes(`/profile/${banned.id}?_rsc=`));
    await entries.filter({ hasText: "Борис Забаненный" }).hover();
    expect((await prefetch).status()).toBe(200);
    expect(problems, "console on /push").toEqual([]);

    // The blocked account's entry leads to its page: the "not found" card, with nothing logged.
    await entries.filter({ hasText: "Борис Забаненный" }).click();
    await expect(page).toHaveURL(`/profile/${banned.id}`);
    await expect(page.getByRole("heading", { level: 1, name: L.userNotFound })).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(problems, "console on a blocked account's page").toEqual([]);
    // Loaded as a document it still answers 404 for search engines (docs/adr/0014).
    expect((await page.request.get(`/profile/${banned.id}`)).status()).toBe(404);

    // The first «Написать сообщение»: straight to the new dialog, with nothing logged on the way.
    await page.goto(`/profile/${recipient.id}`);
    await page.getByRole("link", { name: L.write }).click();
    // Two renders on the server and a POST between them: on a loaded CI host this takes more than the default.
    await expect(page).toHaveURL(/\/im\/\d+$/, { timeout: 30_000 });
    await expect(page.getByTestId("chat")).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(problems, "console on the first message").toEqual([]);
    // The REST contract is unchanged: the dialog now answers on GET dialogs/recipientId/{id}.
    const dialog = await page.request.get(`/api/v1/dialogs/recipientId/${recipient.id}`);
    expect(dialog.status()).toBe(200);
    expect(page.url()).toMatch(new RegExp(`/im/${(await dialog.json()).id}$`));
    await context.close();
  });
}
