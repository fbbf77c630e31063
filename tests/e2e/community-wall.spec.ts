import type { Browser, Locator, Page } from "@playwright/test";
import { createUser, letters, expect as baseExpect, signedInContext, test, type TestUser } from "./fixtures";
import { apiAs } from "./profile-support";

// Issue 42, a community's wall, in both languages, with two people in separate browsers (Anna the owner on
// a desktop, Boris a member on a 390 px phone; light and dark swapped between the languages):
// 1. On an open community's wall (members write) Boris posts from the composer; Anna reads it in her news
//    feed as Boris's post «в сообществе …» linking to the community; she switches «Показывать записи в
//    ленте» off on the community's page and the post leaves her feed (it stays on the wall).
// 2. On an ADMINS wall Anna posts with «От имени сообщества» (on at first); the card is signed by the
//    community; Boris, who cannot post there and may report the community, reads it in his feed, reacts
//    and comments; Anna sees both on the wall.

const expect = baseExpect.configure({ timeout: 20_000 });

const TEXT = {
  ru: {
    names: { anna: "Анна", boris: "Борис" },
    title: "Тема",
    publish: "Опубликовать",
    inCommunity: (name: string) => `в сообществе ${name}`,
    inFeed: "Показывать записи в ленте",
    notify: "Уведомлять о новых записях",
    asCommunity: "От имени сообщества",
    report: "Пожаловаться",
    react: "Поставить реакцию",
    picker: "Реакции",
    heart: "Сердце",
    heartMine: "Сердце: 1, ваша реакция",
    heartOne: "Сердце: 1",
    comment: "Отличная новость, приду обязательно",
  },
  en: {
    names: { anna: "Anna", boris: "Boris" },
    title: "Title",
    publish: "Publish",
    inCommunity: (name: string) => `in ${name}`,
    inFeed: "Show posts in my feed",
    notify: "Notify me of new posts",
    asCommunity: "As the community",
    report: "Report",
    react: "React",
    picker: "Reactions",
    heart: "Heart",
    heartMine: "Heart: 1, your reaction",
    heartOne: "Heart: 1",
    comment: "Great news, I will surely come",
  },
} as const;
type Lang = keyof typeof TEXT;

const card = (scope: Locator | Page, title: string) => scope.getByTestId("post-card").filter({ hasText: title });

/** Anna (the owner) and Boris (a member, not her friend: only the community brings his posts to her feed). */
async function setUp(lang: Lang, wall: "MEMBERS" | "ADMINS") {
  const T = TEXT[lang];
  const family = `Стена${letters()}`;
  const [anna, boris] = await Promise.all([
    createUser({ firstName: T.names.anna, lastName: family, language: lang }),
    createUser({ firstName: T.names.boris, lastName: `${family}${letters(3)}`, language: lang }),
  ]);
  const [apiA, apiB] = await Promise.all([apiAs(anna), apiAs(boris)]);
  const name = `${lang === "ru" ? "Клуб" : "Club"} ${letters()}`;
  const created = await apiA.post("/api/v1/communities", { data: { name, type: "OPEN", wall } });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { id: number }).id;
  const joined = await apiB.post(`/api/v1/communities/${id}/members`);
  expect(joined.ok(), await joined.text()).toBe(true);
  await Promise.all([apiA.dispose(), apiB.dispose()]);
  return { anna, boris, id, name };
}

async function publish(page: Page, T: (typeof TEXT)[Lang], title: string, text: string) {
  await page.getByTestId("composer-open").click();
  const form = page.getByTestId("post-form");
  await form.getByLabel(T.title).fill(title);
  await form.getByTestId("post-editor").click();
  await page.keyboard.type(text);
  return form;
}

const open = (browser: Browser, user: TestUser, lang: Lang, phone: boolean) =>
  signedInContext(browser, user, { lang, theme: (lang === "ru") === phone ? "dark" : "light", phone });

async function close(...sides: { context: { close: () => Promise<void> }; failures: string[] }[]) {
  for (const side of sides) {
    expect(side.failures, "server errors").toEqual([]);
    await side.context.close();
  }
}

for (const lang of ["ru", "en"] as const) {
  const T = TEXT[lang];

  test(`${lang}: a member's post on the wall reaches the feed «in» the community, until the feed switch is off`, async ({ browser }) => {
    test.setTimeout(60_000);
    const { anna, boris, id, name } = await setUp(lang, "MEMBERS");
    const b = await open(browser, boris, lang, true);
    const a = await open(browser, anna, lang, false);

    // Boris writes on the wall: no «as the community» for a member.
    await b.page.goto(`/community/${id}`);
    await expect(b.page.getByTestId("community-wall")).toBeVisible();
    const title = lang === "ru" ? `Субботник ${letters()}` : `Clean-up ${letters()}`;
    const form = await publish(b.page, T, title, lang === "ru" ? "Собираемся в субботу в десять у входа." : "We meet on Saturday at ten at the gate.");
    await expect(form.getByRole("switch", { name: T.asCommunity })).toHaveCount(0);
    await form.getByRole("button", { name: T.publish }).click();
    const onWall = card(b.page.getByTestId("community-wall"), title);
    await expect(onWall.getByTestId("post-author")).toHaveText(`${T.names.boris} ${boris.lastName}`);
    // On the community's own wall the card does not name it again.
    await expect(onWall.getByTestId("post-in-community")).toHaveCount(0);
    await expect(b.page.getByTestId("wall-count")).toHaveText("1");

    // Anna reads it in her feed: Boris's post, in the community.
    await a.page.goto("/");
    const inFeed = card(a.page, title);
    await expect(inFeed.getByTestId("post-author")).toHaveText(`${T.names.boris} ${boris.lastName}`);
    await expect(inFeed.getByTestId("post-in-community")).toHaveText(T.inCommunity(name));
    await expect(inFeed.getByRole("link", { name, exact: true })).toHaveAttribute("href", `/community/${id}`);

    // The switch off: her feed no longer has it; the wall still does.
    await inFeed.getByRole("link", { name, exact: true }).click();
    await expect(a.page).toHaveURL(new RegExp(`/community/${id}$`));
    const feedSwitch = a.page.getByRole("switch", { name: T.inFeed });
    await expect(feedSwitch).toBeChecked();
    await expect(a.page.getByRole("switch", { name: T.notify })).toBeVisible();
    const saved = a.page.waitForResponse((res) => res.url().endsWith(`/communities/${id}/feed`) && res.request().method() === "PUT");
    await feedSwitch.click();
    expect((await saved).ok()).toBe(true);
    await expect(feedSwitch).not.toBeChecked();
    await expect(card(a.page.getByTestId("community-wall"), title)).toBeVisible();
    await a.page.goto("/");
    await expect(a.page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(card(a.page, title)).toHaveCount(0);
    // It stays off after a reload of the community's page.
    await a.page.goto(`/community/${id}`);
    await expect(a.page.getByRole("switch", { name: T.inFeed })).not.toBeChecked();
    await close(a, b);
  });

  test(`${lang}: the owner posts as the community on an ADMINS wall; a member reacts and comments from the feed`, async ({ browser }) => {
    test.setTimeout(60_000);
    const { anna, boris, id, name } = await setUp(lang, "ADMINS");
    const a = await open(browser, anna, lang, false);
    const b = await open(browser, boris, lang, true);

    // Boris has the wall open before anything is on it.
    await b.page.goto(`/community/${id}`);
    await expect(b.page.getByTestId("community-wall")).toBeVisible();
    await a.page.goto(`/community/${id}`);
    // The owner has no «report»; the switch starts on on an ADMINS wall.
    await expect(a.page.getByTestId("community-head")).toBeVisible();
    await expect(a.page.getByRole("button", { name: T.report })).toHaveCount(0);
    const title = lang === "ru" ? `Расписание ${letters()}` : `Timetable ${letters()}`;
    const form = await publish(a.page, T, title, lang === "ru" ? "Встречи теперь по четвергам в семь вечера." : "Meetings are now on Thursdays at seven.");
    await expect(form.getByRole("switch", { name: T.asCommunity })).toBeChecked();
    await form.getByRole("button", { name: T.publish }).click();
    const onWall = card(a.page.getByTestId("community-wall"), title);
    await expect(onWall.getByTestId("post-author")).toHaveText(name);
    await expect(onWall.getByTestId("post-author")).toHaveAttribute("href", `/community/${id}`);
    await expect(onWall.getByTestId("post-in-community")).toHaveCount(0);

    // Boris's open wall offers the new post (it asks every 30 s and when the tab comes to the front).
    const pill = b.page.getByRole("button", { name: lang === "ru" ? "1 новая запись" : "1 new post" });
    await expect(async () => {
      await b.page.evaluate(() => window.dispatchEvent(new Event("focus")));
      await expect(pill).toBeVisible({ timeout: 3_000 });
    }).toPass({ timeout: 45_000 });
    await pill.click();
    await expect(card(b.page.getByTestId("community-wall"), title)).toBeVisible();
    await expect(pill).toHaveCount(0);

    // Boris: no composer on this wall, «report» the community is there.
    await b.page.goto(`/community/${id}`);
    await expect(card(b.page.getByTestId("community-wall"), title)).toBeVisible();
    await expect(b.page.getByTestId("composer-open")).toHaveCount(0);
    await expect(b.page.getByRole("button", { name: T.report })).toBeVisible();

    // In his feed the card is signed by the community; he reacts and comments.
    await b.page.goto("/");
    const inFeed = card(b.page, title);
    await expect(inFeed.getByTestId("post-author")).toHaveText(name);
    await expect(inFeed.getByTestId("post-in-community")).toHaveCount(0);
    await inFeed.getByRole("button", { name: T.react }).click();
    await b.page.getByRole("dialog", { name: T.picker }).getByRole("button", { name: T.heart, exact: true }).click();
    await expect(inFeed.getByRole("button", { name: T.heartMine })).toBeVisible();
    await expect(inFeed.getByTestId("post-reactions")).toHaveAttribute("aria-busy", "false");
    const box = inFeed.getByTestId("comment-input");
    await box.fill(T.comment);
    await box.press("Enter");
    await expect(box).toHaveValue("");
    await expect(inFeed.getByTestId("comment").filter({ hasText: T.comment })).toBeVisible();

    // Anna sees both on the wall.
    await a.page.reload();
    const again = card(a.page.getByTestId("community-wall"), title);
    await expect(again.getByRole("button", { name: T.heartOne })).toBeVisible();
    await expect(again.getByTestId("comment").filter({ hasText: T.comment })).toBeVisible();
    await close(a, b);
  });
}
