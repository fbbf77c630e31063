import type { APIRequestContext, Browser, BrowserContext, Page } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { createUser, letters, expect as baseExpect, signIn, test, type TestUser } from "./fixtures";
import { pngBytes } from "./posts-support";
import { apiAs, befriend } from "./profile-support";

// Issue 44 (docs/adr/0179), at 390 px in both languages and both themes: sharing into Krug through the
// manifest's share_target (the share sheet's multipart POST, made here by a form of the page, which the
// real service worker receives), a hostile share refused with its reason, a chat message written offline
// sent once after the page was closed, and a post written offline kept as a draft and sent once.

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 300_000 });

const TEXT = {
  ru: {
    shortcuts: ["Сообщения", "Новая запись"],
    heading: "Поделиться в Круге",
    toPost: "Написать запись",
    toDialog: "Отправить в диалог",
    publish: "Опубликовать",
    send: "Отправить",
    tooMany: "Можно поделиться не больше чем 10 фотографиями за раз. Ничего не сохранено.",
    badLink: "Это не ссылка на веб-страницу (нужен адрес http:// или https://). Ничего не сохранено.",
    photos: "2 фотографии",
    failed: "Не отправлено",
    unsentPost: "Неотправленная запись",
    title: "Тема",
    login: "Войти",
  },
  en: {
    shortcuts: ["Messages", "New post"],
    heading: "Share to Krug",
    toPost: "Write a post",
    toDialog: "Send in a conversation",
    publish: "Publish",
    send: "Send",
    tooMany: "You can share at most 10 photos at a time. Nothing was kept.",
    badLink: "This is not a link to a web page (it needs an http:// or https:// address). Nothing was kept.",
    photos: "2 photos",
    failed: "Not sent",
    unsentPost: "Unsent post",
    title: "Title",
    login: "Sign in",
  },
} as const;

type Lang = keyof typeof TEXT;
type Theme = "light" | "dark";

/** A 390 px phone with the service worker allowed (the suite's default blocks it), signed in as `user` unless null. */
async function phone(browser: Browser, lang: Lang, theme: Theme, user: TestUser | null): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    locale: lang === "en" ? "en-US" : "ru-RU",
    colorScheme: theme,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    serviceWorkers: "allow",
  });
  await context.addInitScript((t) => localStorage.setItem("theme", t), theme);
  if (lang === "en") await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
  const page = await context.newPage();
  if (user) await signIn(page, user);
  return { context, page };
}

/** Opens `path` controlled by Krug's service worker: the first load installs it, the second is its. */
async function underWorker(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
}

/** What the share sheet sends: a multipart POST to the manifest's action, made by a form of the page. */
async function shareFromSheet(page: Page, fields: { title?: string; text?: string; url?: string }, photos: Buffer[]): Promise<void> {
  await page.evaluate((f) => {
    const form = document.createElement("form");
    form.method = "post";
    form.enctype = "multipart/form-data";
    form.action = "/share/receive";
    form.id = "e2e-share-sheet";
    for (const [name, value] of Object.entries(f)) {
      const input = document.createElement("input");
      input.name = name;
      input.value = value ?? "";
      form.append(input);
    }
    const files = document.createElement("input");
    files.type = "file";
    files.name = "photos";
    files.multiple = true;
    form.append(files);
    document.body.append(form);
  }, fields);
  if (photos.length > 0) {
    await page.locator("#e2e-share-sheet input[type=file]").setInputFiles(photos.map((buffer, i) => ({ name: `photo-${i}.png`, mimeType: "image/png", buffer })));
  }
  await page.evaluate(() => (document.getElementById("e2e-share-sheet") as HTMLFormElement).submit());
}

async function messagesWith(api: APIRequestContext, dialogId: number, text: string): Promise<number> {
  const res = await api.get(`/api/v1/dialogs/messages?dialogId=${dialogId}&size=100&sort=time,desc`);
  expect(res.status()).toBe(200);
  return ((await res.json()).content as { messageText: string }[]).filter((m) => m.messageText === text).length;
}

async function postsTitled(api: APIRequestContext, accountId: number, title: string): Promise<{ imagePath: string | null }[]> {
  const res = await api.get(`/api/v1/post?accountId=${accountId}&page=0&size=50`);
  expect(res.status()).toBe(200);
  return ((await res.json()).content as { title: string; imagePath: string | null }[]).filter((p) => p.title === title);
}

/** How many rows a device store of this origin holds (krug-outbox, krug-drafts, krug-share). */
function deviceRows(page: Page, name: string): Promise<number> {
  return page.evaluate(
    (db) =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open(db);
        // A database Krug has not made yet holds nothing; reading must not make it.
        open.onupgradeneeded = () => open.transaction?.abort();
        open.onerror = () => resolve(0);
        open.onsuccess = () => {
          const d = open.result;
          if (!d.objectStoreNames.contains(db)) {
            d.close();
            resolve(0);
            return;
          }
          const count = d.transaction(db).objectStore(db).count();
          count.onsuccess = () => {
            d.close();
            resolve(count.result);
          };
        };
      }),
    name,
  );
}

async function people(lang: Lang): Promise<{ alice: TestUser; boris: TestUser; apiA: APIRequestContext; apiB: APIRequestContext; dialogId: number }> {
  const [alice, boris] = await Promise.all([
    createUser({ firstName: lang === "en" ? "Alice" : "Алиса", lastName: `Делится${letters()}`, language: lang }),
    createUser({ firstName: lang === "en" ? "Boris" : "Борис", lastName: `Читает${letters()}`, language: lang }),
  ]);
  const [apiA, apiB] = await Promise.all([apiAs(alice), apiAs(boris)]);
  await befriend(apiA, alice.id, apiB, boris.id);
  const res = await apiA.post("/api/v1/dialogs", { data: { recipientId: boris.id } });
  expect(res.ok(), await res.text()).toBe(true);
  return { alice, boris, apiA, apiB, dialogId: (await res.json()).id };
}

const shot = (page: Page, name: string, lang: Lang, theme: Theme) => page.screenshot({ path: `test-results/share-offline/${name}-${lang}-${theme}.png` });

// Each journey in both languages and both schemes, the four combinations shared between the two (as the
// device journeys do): every step runs in ru and en, light and dark, at 390 px.
for (const [lang, theme, journey] of [
  ["ru", "light", "share"],
  ["en", "dark", "share"],
  ["ru", "dark", "offline"],
  ["en", "light", "offline"],
] as const) {
  const T = TEXT[lang];

  if (journey === "share") {
    test(`share into Krug at 390 px (${lang}, ${theme}): the manifest, a post with photos, a conversation, a hostile share`, async ({ browser }) => {
      const { alice, boris, apiA, apiB, dialogId } = await people(lang);
      const { context, page } = await phone(browser, lang, theme, alice);
      try {
        // The manifest offers the share target and the two shortcuts, in the reader's language.
        const manifest = await (await page.request.get(`/manifest/${lang}.webmanifest`)).json();
        expect(manifest.share_target).toMatchObject({ action: "/share/receive", method: "POST", enctype: "multipart/form-data" });
        expect(manifest.share_target.params.files[0]).toMatchObject({ name: "photos" });
        expect(manifest.shortcuts.map((s: { name: string; url: string }) => [s.name, s.url])).toEqual([
          [T.shortcuts[0], "/im"],
          [T.shortcuts[1], "/?compose=post"],
        ]);

        // The «Новая запись» shortcut opens the feed with the form open, and the address is the feed's again.
        await page.goto("/?compose=post");
        await expect(page.getByTestId("post-form")).toBeVisible();
        await expect(page).toHaveURL(/\/$/);

        // A link, a text and two photos: the chooser shows them.
        await underWorker(page, "/");
        const title = `Поделилась ${letters()}`;
        await shareFromSheet(page, { title, text: "Смотри, что нашла", url: "https://example.org/article" }, [await pngBytes("#c33"), await pngBytes("#3c3")]);
        await expect(page).toHaveURL(/\/share\?received=1$/);
        await expect(page.getByRole("heading", { level: 1, name: T.heading })).toBeVisible();
        const preview = page.getByTestId("share-preview");
        await expect(preview).toContainText(title);
        await expect(preview).toContainText("https://example.org/article");
        await expect(preview).toContainText(T.photos);
        await expect(preview.locator("img")).toHaveCount(2);
        await shot(page, "chooser", lang, theme);

        // A post: the composer holds the share, its first photo goes through the post photo upload.
        await page.getByRole("button", { name: T.toPost }).click();
        await expect(page.getByLabel(T.title)).toHaveValue(title);
        await expect(page.getByTestId("post-form").locator("figure img")).toBeVisible();
        await expect(page.getByTestId("post-form").locator("figure progress")).toHaveCount(0);
        await shot(page, "composer", lang, theme);
        await page.getByRole("button", { name: T.publish }).click();
        await expect(page).toHaveURL(/\/$/);
        await expect.poll(async () => (await postsTitled(apiA, alice.id, title)).length).toBe(1);
        expect((await postsTitled(apiA, alice.id, title))[0].imagePath).toMatch(/^\/api\/v1\/storage\/files\/[a-f0-9]{32}\.webp$/);
        // Used once: the share is gone from the device.
        expect(await deviceRows(page, "krug-share")).toBe(0);

        // A text to a conversation: one message with the link, in the dialog.
        const said = `Почитай ${letters()}`;
        await shareFromSheet(page, { text: said, url: "https://example.org/b" }, []);
        await expect(page).toHaveURL(/\/share\?received=1$/);
        await page.getByRole("button", { name: T.toDialog }).click();
        await page.getByTestId("share-dialog").filter({ hasText: `${boris.firstName} ${boris.lastName}` }).click();
        await expect(page).toHaveURL(new RegExp(`/im/${dialogId}$`));
        await expect.poll(() => messagesWith(apiB, dialogId, `${said}\nhttps://example.org/b`)).toBe(1);

        // Hostile shares: eleven photos, a javascript: link. Each is refused with its reason, nothing is kept.
        await shareFromSheet(page, { text: "много" }, await Promise.all(Array.from({ length: 11 }, () => pngBytes("#333", 8, 8))));
        await expect(page).toHaveURL(/\/share\?error=tooManyPhotos$/);
        await expect(page.getByTestId("share-refused").getByRole("alert")).toHaveText(T.tooMany);
        await shot(page, "refused", lang, theme);
        expect(await deviceRows(page, "krug-share")).toBe(0);
        await shareFromSheet(page, { text: "x", url: "javascript:alert(document.cookie)" }, []);
        await expect(page).toHaveURL(/\/share\?error=badLink$/);
        await expect(page.getByTestId("share-refused").getByRole("alert")).toHaveText(T.badLink);
        expect(await deviceRows(page, "krug-share")).toBe(0);
      } finally {
        await context.close();
        await Promise.all([apiA.dispose(), apiB.dispose()]);
      }
    });
  }

  if (journey === "offline") {
    test(`written offline at 390 px (${lang}, ${theme}): a message sent once after the page was closed, a post kept as a draft and sent once`, async ({ browser }) => {
      const { alice, apiA, apiB, dialogId } = await people(lang);
      const { context, page } = await phone(browser, lang, theme, alice);
      try {
        // A message written in the metro: it cannot leave, so it is kept on the device, and the page is closed.
        await underWorker(page, `/im/${dialogId}`);
        const text = `Из туннеля ${letters()}`;
        await context.setOffline(true);
        await page.locator("#chat-composer").fill(text);
        await page.getByRole("button", { name: T.send, exact: true }).click();
        await expect(page.getByTestId("message").filter({ hasText: text })).toContainText(T.failed);
        await expect.poll(() => deviceRows(page, "krug-outbox")).toBe(1);
        await page.close();
        // Chromium's emulated offline holds the pages' requests, not the worker's: the browser itself still
        // counts as online, so Background Sync may already have sent it from the worker. Never twice, though.
        expect(await messagesWith(apiB, dialogId, text)).toBeLessThanOrEqual(1);

        // Back online, Krug opens again: the message arrives (Background Sync or the retry on open), once.
        await context.setOffline(false);
        const again = await context.newPage();
        await again.goto("/im");
        await expect.poll(() => deviceRows(again, "krug-outbox")).toBe(0);
        await expect.poll(() => messagesWith(apiB, dialogId, text)).toBe(1);
        // Opening the dialog again sends nothing more: it shows the one stored message.
        await again.goto(`/im/${dialogId}`);
        await expect(again.getByTestId("message").filter({ hasText: text })).toHaveCount(1);
        expect(await messagesWith(apiB, dialogId, text)).toBe(1);

        // A post written offline: kept as a draft on the device and offered above the composer.
        await again.goto("/");
        await again.getByTestId("composer-open").click();
        const title = `Черновик ${letters()}`;
        await again.getByLabel(T.title).fill(title);
        await again.locator(".ProseMirror").click();
        await again.keyboard.type("Написано без связи, в дороге.");
        await context.setOffline(true);
        await again.getByRole("button", { name: T.publish }).click();
        const offer = again.getByTestId("post-draft");
        await expect(offer).toContainText(T.unsentPost);
        await expect(offer).toContainText(title);
        expect(await deviceRows(again, "krug-drafts")).toBe(1);
        // Still offline, sending keeps it.
        await again.getByTestId("post-draft-send").click();
        await expect(offer.getByRole("alert")).toBeVisible();
        await expect(offer).toHaveCount(1);
        await shot(again, "draft", lang, theme);

        // The page is closed; the next open (online) still offers it, and one tap sends it once.
        await again.close();
        await context.setOffline(false);
        const third = await context.newPage();
        await third.goto("/");
        await expect(third.getByTestId("post-draft")).toContainText(title);
        await third.getByTestId("post-draft-send").click();
        await expect(third.getByTestId("post-draft")).toHaveCount(0);
        await expect.poll(async () => (await postsTitled(apiA, alice.id, title)).length).toBe(1);
        expect(await deviceRows(third, "krug-drafts")).toBe(0);
        await third.reload();
        await expect(third.getByRole("heading", { level: 3, name: title })).toHaveCount(1);
        await expect(third.getByTestId("post-draft")).toHaveCount(0);
      } finally {
        await context.close();
        await Promise.all([apiA.dispose(), apiB.dispose()]);
      }
    });
  }
}

test("a share made signed out is waiting in the chooser after signing in (ru)", async ({ browser }) => {
  const alice = await createUser({ firstName: "Алиса", lastName: `Входит${letters()}`, language: "ru" });
  const { context, page } = await phone(browser, "ru", "light", null);
  try {
    await underWorker(page, "/login");
    const title = `До входа ${letters()}`;
    await shareFromSheet(page, { title, url: "https://example.org/later" }, []);
    await expect(page).toHaveURL(/\/login\?redirect=Share$/);
    await page.getByLabel("E-mail", { exact: true }).fill(alice.email);
    await page.getByLabel("Пароль", { exact: true }).fill(alice.password);
    await page.getByRole("button", { name: TEXT.ru.login, exact: true }).click();
    await expect(page).toHaveURL(/\/share$/);
    await expect(page.getByTestId("share-preview")).toContainText(title);
    await expect(page.getByTestId("share-preview")).toContainText("https://example.org/later");
  } finally {
    await context.close();
  }
});
