import { contextIn, createUser, expect, signIn, test } from "./fixtures";
import { apiAs, befriend } from "./profile-support";

// Issue 24 item 16 (docs/adr/0118): on a friend's page the first action is writing to them; «Удалить из
// друзей» is in the menu and asks first (the confirmation of docs/adr/0013). Cancelling keeps the
// friendship; confirming ends it.

test.describe.configure({ timeout: 90_000 });

const TEXT = {
  ru: {
    write: "Написать сообщение",
    more: "Ещё действия: Фёдор",
    remove: "Удалить из друзей",
    title: "Удалить Фёдора из друзей?",
    cancel: "Отмена",
    removed: "Фёдор больше не у вас в друзьях",
    add: "Добавить в друзья",
  },
  en: {
    write: "Send a message",
    more: "More actions: Фёдор",
    remove: "Remove from friends",
    title: "Remove Фёдор from friends?",
    cancel: "Cancel",
    removed: "Фёдор is no longer your friend",
    add: "Add friend",
  },
} as const;

for (const lang of ["ru", "en"] as const) {
  const L = TEXT[lang];

  test(`removing a friend is a menu action with a confirmation (${lang})`, async ({ browser, baseURL }) => {
    const viewer = await createUser({ language: lang, firstName: "Ольга", lastName: "Дружная" });
    const friend = await createUser({ language: lang, firstName: "Фёдор", lastName: "Друг" });
    const [viewerApi, friendApi] = await Promise.all([apiAs(viewer), apiAs(friend)]);
    await befriend(viewerApi, viewer.id, friendApi, friend.id);

    const context = await contextIn(browser, lang, baseURL!);
    const page = await context.newPage();
    await signIn(page, viewer);
    await page.goto(`/profile/${friend.id}`);
    const actions = page.locator("[data-status]");
    await expect(actions).toHaveAttribute("data-status", "FRIEND");
    // Writing comes first and is the only visible action; no «Удалить из друзей» button.
    await expect(actions.getByRole("link", { name: L.write })).toBeVisible();
    await expect(actions.locator("a, button").first()).toHaveText(L.write);
    await expect(page.getByRole("button", { name: L.remove })).toHaveCount(0);

    // From the menu, a confirmation: cancelling changes nothing.
    await actions.getByRole("button", { name: L.more }).click();
    await page.getByRole("menuitem", { name: L.remove }).click();
    const confirm = page.getByRole("alertdialog", { name: L.title });
    await expect(confirm).toBeVisible();
    await confirm.getByRole("button", { name: L.cancel }).click();
    await expect(confirm).toHaveCount(0);
    const relation = async () => (await (await viewerApi.get(`/api/v1/account/${friend.id}`)).json()).statusCode;
    expect(await relation()).toBe("FRIEND");
    await expect(actions).toHaveAttribute("data-status", "FRIEND");

    // Confirming ends the friendship.
    await actions.getByRole("button", { name: L.more }).click();
    await page.getByRole("menuitem", { name: L.remove }).click();
    await page.getByRole("alertdialog", { name: L.title }).getByRole("button", { name: L.remove }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: L.removed })).toBeVisible();
    await expect(actions).toHaveAttribute("data-status", "NONE");
    await expect(actions.getByRole("button", { name: L.add })).toBeVisible();
    expect(await relation()).toBeNull();
    await Promise.all([viewerApi.dispose(), friendApi.dispose(), context.close()]);
  });
}
