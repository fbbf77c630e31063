import { createUser, contextIn, letters, expect as baseExpect, signedInContext, test } from "./fixtures";
import { apiAs } from "./profile-support";

// Issue 42, finding communities, in both languages (desktop in light, a 390 px phone in dark):
// the search page's communities tab finds an open community by a word of its name (and the top bar's
// suggestions show it under their own heading); another person's profile shows the communities block
// with it and «Все» lists them in a dialog; a signed-out visitor sees the open community's public shell
// (canonical link, OG title, a way in) and gets a 404 for a private one.

const expect = baseExpect.configure({ timeout: 20_000 });

const TEXT = {
  ru: { tabs: "Что искать", tab: "Сообщества", heading: "Сообщества", signIn: "Войти", members: "2 участника", prompt: "Войдите, чтобы читать сообщество" },
  en: { tabs: "What to search", tab: "Communities", heading: "Communities", signIn: "Sign in", members: "2 members", prompt: "Sign in to read the community" },
} as const;

for (const lang of ["ru", "en"] as const) {
  const T = TEXT[lang];
  test(`${lang}: the search tab, the suggestions and a profile's block find communities`, async ({ browser }) => {
    const word = letters(7);
    const owner = await createUser({ firstName: "Ольга", lastName: `Клубная${letters(3)}` });
    const reader = await createUser({ firstName: "Пётр", lastName: "Читатель" });
    const api = await apiAs(owner);
    const make = async (name: string, type: string) => {
      const res = await api.post("/api/v1/communities", { data: { name, description: `Описание ${word}`, type } });
      expect(res.status(), await res.text()).toBe(201);
      return (await res.json()) as { id: number };
    };
    const open = await make(`Клуб ${word}`, "OPEN");
    await make(`Тайный ${word}`, "PRIVATE");
    const readerApi = await apiAs(reader);
    expect((await readerApi.post(`/api/v1/communities/${open.id}/members`)).status()).toBeLessThan(300);

    const phone = lang === "en";
    const { context, page, failures } = await signedInContext(browser, reader, { lang, theme: phone ? "dark" : "light", phone });
    // The search page: the communities tab lists the open one (the private one stays hidden from a non-member).
    await page.goto(`/search?${new URLSearchParams({ query: word })}`);
    await page.getByRole("navigation", { name: T.tabs }).getByRole("link", { name: T.tab, exact: true }).click();
    await expect(page).toHaveURL(/tab=communities/);
    const results = page.getByTestId("search-communities");
    await expect(results.getByRole("link", { name: `Клуб ${word}` })).toBeVisible();
    await expect(results.getByText(`Тайный ${word}`)).toHaveCount(0);
    await expect(results.getByText(T.members)).toBeVisible();

    if (!phone) {
      // The top bar's suggestions: the community under its own heading.
      await page.goto("/");
      await page.locator("#header-search").fill(word);
      const list = page.getByTestId("search-suggest");
      await expect(list.getByTestId("search-suggest-communities")).toHaveText(T.heading);
      await expect(list.getByRole("option").filter({ hasText: `Клуб ${word}` })).toHaveCount(1);
    }

    // The owner's profile: the communities block with the open community (the private one is not shown to others).
    await page.goto(`/profile/${owner.id}`);
    const block = page.getByTestId("profile-communities");
    await expect(block.getByRole("heading", { name: T.heading })).toBeVisible();
    await expect(block.getByTestId("profile-community")).toHaveCount(1);
    await expect(block.getByTestId("profile-community")).toContainText(`Клуб ${word}`);
    await expect(block.getByTestId("profile-communities-count")).toHaveText("1");
    // «Все» opens the dialog once the page is interactive (a click before hydration does nothing).
    const dialog = page.getByTestId("profile-communities-dialog");
    await expect(async () => {
      await block.getByTestId("profile-communities-all").click();
      await expect(dialog).toBeVisible({ timeout: 1000 });
    }).toPass();
    await expect(dialog.getByTestId("community-row")).toHaveCount(1);
    await expect(dialog.getByTestId("community-row")).toContainText(`Клуб ${word}`);
    expect(failures).toEqual([]);
    await context.close();
  });

  test(`${lang}: a signed-out visitor sees an open community's public shell and a 404 for a private one`, async ({ browser, baseURL }) => {
    const word = letters(7);
    const owner = await createUser({ firstName: "Ольга", lastName: `Клубная${letters(3)}` });
    const api = await apiAs(owner);
    const make = async (name: string, type: string) => {
      const res = await api.post("/api/v1/communities", { data: { name, description: `Описание ${word}`, type } });
      expect(res.status(), await res.text()).toBe(201);
      return (await res.json()) as { id: number };
    };
    const open = await make(`Клуб ${word}`, "OPEN");
    const hidden = await make(`Тайный ${word}`, "PRIVATE");
    const member = await createUser({ firstName: "Пётр", lastName: "Читатель" });
    expect((await (await apiAs(member)).post(`/api/v1/communities/${open.id}/members`)).status()).toBeLessThan(300);
    // Signed out: the open community's shell, with its canonical address; a private one is a 404.
    const guest = await contextIn(browser, lang, baseURL!);
    const visitor = await guest.newPage();
    const shown = await visitor.goto(`/community/${open.id}`);
    expect(shown?.status()).toBe(200);
    const shell = visitor.getByTestId("public-community");
    await expect(shell.getByRole("heading", { level: 1, name: `Клуб ${word}` })).toBeVisible();
    await expect(shell.getByTestId("public-community-members")).toHaveText(T.members);
    await expect(shell.getByText(`Описание ${word}`)).toBeVisible();
    await expect(visitor.getByText(T.prompt)).toBeVisible();
    await expect(visitor.locator("#content").getByRole("link", { name: T.signIn, exact: true })).toHaveAttribute("href", /\/login\?redirect=CommunityId/);
    await expect(visitor.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/community/${open.id}`);
    await expect(visitor.locator('meta[property="og:title"]')).toHaveAttribute("content", new RegExp(`Клуб ${word}`));
    const missing = await visitor.goto(`/community/${hidden.id}`);
    expect(missing?.status()).toBe(404);
    await expect(visitor.getByText(`Тайный ${word}`)).toHaveCount(0);
    await guest.close();
  });
}
