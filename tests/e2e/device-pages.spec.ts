import type { Browser, BrowserContext, Page, TestInfo } from "@playwright/test";
import { createUser, expect, letters, signIn, test, type TestUser } from "./fixtures";
import { apiAs, befriend } from "./profile-support";
import { createPost, withDb } from "./posts-support";

// Issue 44, "open instantly on the second visit" and "read without a network" (docs/adr/0178): on a 390 px
// phone, a page shown before is answered from the device at once and refreshed behind; with the network gone
// the feed, the dialog list and a dialog stay readable under an offline notice; what the device kept is
// wiped on sign-out, on a revoked session and when another person signs in on the same browser.

test.describe.configure({ timeout: 120_000 });

const TEXT = {
  ru: { offline: "Нет сети.", exit: "Выйти", menu: "Ещё" },
  en: { offline: "Offline.", exit: "Sign out", menu: "More" },
} as const;

type Lang = keyof typeof TEXT;

/** A phone whose service worker runs (the suite blocks workers elsewhere), signed in as `user`. */
async function phone(browser: Browser, user: TestUser, lang: Lang, theme: "light" | "dark"): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    serviceWorkers: "allow",
    locale: lang === "en" ? "en-US" : "ru-RU",
    colorScheme: theme,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  await context.addInitScript((t) => localStorage.setItem("theme", t), theme);
  if (lang === "en") await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: test.info().project.use.baseURL! }]);
  const page = await context.newPage();
  await signIn(page, user);
  return { context, page };
}

/** The paths the device keeps pages of (the caches named krug-device-*). */
function keptPaths(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const paths: string[] = [];
    for (const name of await caches.keys()) {
      if (!name.startsWith("krug-device-")) continue;
      for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
    }
    return paths.filter((p) => !p.startsWith("/__krug-device/")).sort();
  });
}

/** The text of every page the device keeps. */
function keptText(page: Page): Promise<string> {
  return page.evaluate(async () => {
    let text = "";
    for (const name of await caches.keys()) {
      if (!name.startsWith("krug-device-")) continue;
      const cache = await caches.open(name);
      for (const request of await cache.keys()) text += await (await cache.match(request))!.text();
    }
    return text;
  });
}

/** Everything of the account on the device: krug-device-* caches and krug-* databases. */
function deviceData(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const names = (await caches.keys()).filter((n) => n.startsWith("krug-device-"));
    const dbs = (await indexedDB.databases()).map((d) => d.name ?? "").filter((n) => n.startsWith("krug-"));
    return [...names, ...dbs];
  });
}

/** Opens the pages once with the worker in control, so the device keeps them. */
async function keep(page: Page, paths: string[]): Promise<void> {
  await page.goto("/");
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  for (const path of paths) {
    await page.goto(path);
    expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  }
  await expect.poll(() => keptPaths(page)).toEqual([...paths].sort());
}

/** A database of the kind another part of the app keeps per account (the outbox), to see it wiped. */
async function openKrugDatabase(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open("krug-outbox", 1);
        open.onupgradeneeded = () => open.result.createObjectStore("messages");
        open.onsuccess = () => {
          open.result.close();
          resolve();
        };
        open.onerror = () => reject(open.error);
      }),
  );
}

async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`) });
}

/** A friend who wrote a post and a message to `me`. */
async function friendWithNews(me: TestUser) {
  const friend = await createUser({ firstName: "Вера", lastName: `Метро${letters(4)}` });
  const apiMe = await apiAs(me);
  const apiFriend = await apiAs(friend);
  await befriend(apiMe, me.id, apiFriend, friend.id);
  const post = await createPost(apiFriend, { title: `Запись до тоннеля ${letters()}`, postText: "<p>Прочитать в метро</p>" });
  const dialog = await (await apiFriend.post("/api/v1/dialogs", { data: { recipientId: me.id } })).json();
  const messageText = `Встречаемся у выхода ${letters()}`;
  expect((await apiFriend.post(`/api/v1/dialogs/${dialog.id}/messages`, { data: { messageText } })).status()).toBe(201);
  return { friend, apiFriend, post, dialogId: dialog.id as number, messageText };
}

for (const [lang, theme] of [
  ["ru", "light"],
  ["en", "dark"],
] as const) {
  test(`a repeat visit paints from the device, and the feed, dialogs and a dialog read offline (${lang}, ${theme}, 390 px)`, async ({ browser }, testInfo) => {
    const me = await createUser({ language: lang });
    const { friend, apiFriend, post, dialogId, messageText } = await friendWithNews(me);
    const { context, page } = await phone(browser, me, lang, theme);
    try {
      await keep(page, ["/", "/im", `/im/${dialogId}`]);

      // Something new on the server: the repeat visit is answered with the kept feed, then shows the new post.
      const later = await createPost(apiFriend, { title: `Запись после ${letters()}`, postText: "<p>Новое после тоннеля</p>" });
      const problems: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(`console: ${message.text()}`);
      });
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      const answer = (await page.goto("/"))!;
      expect(answer.fromServiceWorker()).toBe(true);
      const painted = await answer.text();
      expect(painted).toContain(post.title);
      expect(painted).not.toContain(later.title);
      // The kept page's scripts stand after its content (docs/adr/0185), and it hydrates as the server's page does.
      expect(painted.search(/<script\b[^>]*\basync\b/)).toBeGreaterThan(painted.indexOf(post.title));
      // (Its heading: the notification's toast may name the post too.)
      await expect(page.getByRole("heading", { name: later.title })).toBeVisible();
      await expect(page.getByText(TEXT[lang].offline)).toHaveCount(0);
      expect(problems).toEqual([]);
      await expect.poll(async () => (await (await page.request.get("/")).text()).includes(later.title)).toBe(true);

      // The metro tunnel: the kept pages stay readable, each under the offline notice.
      await context.setOffline(true);
      await page.goto("/");
      const notice = page.getByRole("status").filter({ hasText: TEXT[lang].offline });
      await expect(notice).toBeVisible();
      await expect(page.getByRole("heading", { name: post.title })).toBeVisible();
      await shot(page, testInfo, `feed-offline-${lang}-${theme}`);

      await page.goto("/im");
      await expect(notice).toBeVisible();
      await expect(page.getByText(friend.lastName).first()).toBeVisible();
      await shot(page, testInfo, `dialogs-offline-${lang}-${theme}`);

      // An open dialog has one notice: the chat's own, above its messages.
      await page.goto(`/im/${dialogId}`);
      await expect(page.getByTestId("chat-offline")).toBeVisible();
      await expect(notice).toHaveCount(0);
      await expect(page.getByText(messageText)).toBeVisible();
      await shot(page, testInfo, `dialog-offline-${lang}-${theme}`);
      // The page fits the phone with the notice on it.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      // The network is back: the notices go.
      await context.setOffline(false);
      await expect(page.getByTestId("chat-offline")).toHaveCount(0);
      await page.goto("/");
      await expect(notice).toHaveCount(0);
    } finally {
      await context.close();
    }
  });
}

for (const [lang, theme] of [
  ["ru", "dark"],
  ["en", "light"],
] as const) {
  test(`signing out wipes what the device kept (${lang}, ${theme}, 390 px)`, async ({ browser }) => {
    const me = await createUser({ language: lang });
    const { post } = await friendWithNews(me);
    const { context, page } = await phone(browser, me, lang, theme);
    try {
      await keep(page, ["/", "/im"]);
      await openKrugDatabase(page);
      expect((await deviceData(page)).some((n) => n === "krug-outbox")).toBe(true);

      await page.getByRole("button", { name: TEXT[lang].menu }).click();
      await page.getByRole("menuitem", { name: TEXT[lang].exit }).click();
      await expect(page).toHaveURL(/\/login$/);
      await expect.poll(() => deviceData(page)).toEqual([]);

      // Nothing of the account is left to show: offline, the feed's address gets the offline page.
      await context.setOffline(true);
      await page.goto("/");
      await expect(page.getByText(post.title)).toHaveCount(0);
      expect(await page.locator("h1").innerText()).toBe(lang === "en" ? "You are offline" : "Нет соединения");
    } finally {
      await context.close();
    }
  });
}

test("a revoked session's next request wipes what the device kept (ru, 390 px)", async ({ browser }) => {
  const me = await createUser();
  const { dialogId } = await friendWithNews(me);
  const { context, page } = await phone(browser, me, "ru", "light");
  try {
    await keep(page, ["/", `/im/${dialogId}`]);
    // Ended from elsewhere (another device's "sign out", a password change); this browser still holds its cookies.
    await withDb((sql) => sql`update sessions set revoked_at = now() where account_id = ${me.id} and revoked_at is null`);
    await page.goto(`/im/${dialogId}`);
    await expect(page).toHaveURL(/\/login(\?|$)/);
    await expect.poll(() => deviceData(page)).toEqual([]);
  } finally {
    await context.close();
  }
});

test("another person signing in on the same browser never sees the first one's kept pages (en, 390 px)", async ({ browser }) => {
  const first = await createUser({ language: "en" });
  const { post, messageText, dialogId } = await friendWithNews(first);
  const second = await createUser({ language: "en" });
  const { context, page } = await phone(browser, first, "en", "dark");
  try {
    await keep(page, ["/", `/im/${dialogId}`]);
    // The second person signs in from this browser's page, as the login form does (through the worker).
    const status = await page.evaluate(async (user) => {
      const res = await fetch("/api/v1/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(user) });
      return res.status;
    }, { email: second.email, password: second.password });
    expect(status).toBe(200);
    expect(await keptPaths(page)).toEqual([]);
    const answer = (await page.goto("/"))!;
    expect(await answer.text()).not.toContain(post.title);
    await expect(page.getByText(post.title)).toHaveCount(0);
    await page.goto(`/im/${dialogId}`);
    await expect(page.getByText(messageText)).toHaveCount(0);
    // What the device keeps now is the second person's view: their feed, and no word of the first one's.
    await expect.poll(() => keptPaths(page)).toContain("/");
    const kept = await keptText(page);
    expect(kept).not.toContain(post.title);
    expect(kept).not.toContain(messageText);
  } finally {
    await context.close();
  }
});
