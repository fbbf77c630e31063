import { contextIn, createUser, expect, signIn, test } from "./fixtures";
import { apiAs, setLastOnline } from "./profile-support";

// Issue 24 item 19 (docs/adr/0118): the search page's field follows a new search from the top bar; a
// Russian name written in Latin letters keeps its spelling in a Russian sentence but its verbs agree
// ("Gleb … рассказал", "Anna … была"), not "рассказал(а)"; the chat's tab is named after the partner.

test.describe.configure({ timeout: 90_000 });

const TEXT = {
  ru: {
    header: "Поиск людей",
    field: "Поисковый запрос",
    glebInfo: "Gleb пока ничего не рассказал о себе.",
    glebSeen: "был в сети 3 часа назад",
    annaInfo: "Anna пока ничего не рассказала о себе.",
    annaSeen: "была в сети 3 часа назад",
  },
  en: {
    header: "Search people",
    field: "Search query",
    glebInfo: "Gleb hasn't shared anything about themselves yet.",
    glebSeen: "last seen 3 hours ago",
    annaInfo: "Anna hasn't shared anything about themselves yet.",
    annaSeen: "last seen 3 hours ago",
  },
} as const;

for (const lang of ["ru", "en"] as const) {
  const L = TEXT[lang];

  test(`the search field follows the top bar's search (${lang})`, async ({ browser, baseURL }) => {
    const context = await contextIn(browser, lang, baseURL!);
    const page = await context.newPage();
    await signIn(page, await createUser({ language: lang }));
    await page.goto(`/search?tab=people&query=${encodeURIComponent("Первый")}`);
    const field = page.getByRole("searchbox", { name: L.field });
    await expect(field).toHaveValue("Первый");

    await page.getByRole("combobox", { name: L.header }).fill("Второй");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(`/search?tab=people&query=${encodeURIComponent("Второй")}`);
    await expect(field).toHaveValue("Второй");
    // Typing in the page's own field still works, and Back shows the earlier query again.
    await field.fill("Третий");
    await field.press("Enter");
    await expect(page).toHaveURL(`/search?tab=people&query=${encodeURIComponent("Третий")}`);
    await expect(field).toHaveValue("Третий");
    await page.goBack();
    await expect(page).toHaveURL(`/search?tab=people&query=${encodeURIComponent("Второй")}`);
    await expect(field).toHaveValue("Второй");
    await context.close();
  });

  test(`Latin names in sentences and the chat's title (${lang})`, async ({ browser, baseURL }) => {
    const viewer = await createUser({ language: lang, firstName: "Вера", lastName: "Читающая" });
    const gleb = await createUser({ language: lang, firstName: "Gleb", lastName: "Ivanov" });
    const anna = await createUser({ language: lang, firstName: "Anna", lastName: "Petrova" });
    await Promise.all([setLastOnline(gleb.id, 3), setLastOnline(anna.id, 3)]);

    const context = await contextIn(browser, lang, baseURL!);
    const page = await context.newPage();
    await signIn(page, viewer);
    for (const [person, info, seen] of [
      [gleb, L.glebInfo, L.glebSeen],
      [anna, L.annaInfo, L.annaSeen],
    ] as const) {
      await page.goto(`/profile/${person.id}`);
      await expect(page.getByRole("heading", { level: 1, name: `${person.firstName} ${person.lastName}` })).toBeVisible();
      await expect(page.getByTestId("presence")).toHaveText(seen);
      await expect(page.getByText(info)).toBeVisible();
    }

    // The chat's tab names the partner, not «Диалог».
    const viewerApi = await apiAs(viewer);
    const created = await viewerApi.post("/api/v1/dialogs", { data: { recipientId: gleb.id } });
    expect(created.status(), await created.text()).toBe(201);
    await page.goto(`/im/${(await created.json()).id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Gleb Ivanov" })).toBeAttached();
    await expect(page).toHaveTitle("Gleb Ivanov");
    await Promise.all([viewerApi.dispose(), context.close()]);
  });
}
