import type { BrowserContext, Page } from "@playwright/test";
import { createUser, expect, letters, signedInContext, test, type TestUser } from "./fixtures";
import { apiAs, befriend } from "./profile-support";
import { createPost, pngBytes } from "./posts-support";

// Issue 44, "What a newcomer on a 390 px phone tripped over", items 1 to 7: each journey on a 390 px touch
// phone (isMobile: the layout viewport grows with content that is too wide, as a phone's browser does),
// in Russian and English, light and dark pairwise across the journeys. Item 8 is phone-targets.spec.ts.

test.describe.configure({ timeout: 90_000 });

/** Nothing is wider than the phone: the page neither scrolls sideways nor widened the layout viewport. */
async function fitsPhone(page: Page, what: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(innerWidth, `${what}: layout viewport`).toBe(390);
  expect(scrollWidth, `${what}: sideways scroll`).toBeLessThanOrEqual(390);
}

/** The element lies wholly inside the 390 px width. */
async function insideWidth(page: Page, selector: ReturnType<Page["locator"]>, what: string): Promise<void> {
  const box = (await selector.boundingBox())!;
  expect(box.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what}: right edge`).toBeLessThanOrEqual(390);
}

const ADMIN = {
  ru: { reports: "Жалобы", blockItem: "Заблокировать материал", cancel: "Отмена" },
  en: { reports: "Reports", blockItem: "Block the item", cancel: "Cancel" },
} as const;

test("item 1: every admin page and dialog fits a 390 px phone, the whole admin menu in sight (ru dark, en light)", async ({ browser }, testInfo) => {
  test.setTimeout(150_000);
  const author = await createUser({ firstName: "Автор", lastName: "Длиннофамильнейший" });
  const reporter = await createUser();
  const authorApi = await apiAs(author);
  const post = await createPost(authorApi, {
    title: `Реклама с очень длинным заголовком для очереди жалоб ${letters()}`,
    postText: `<p>Купите наши товары https://example.com/${"a".repeat(90)} ${"Оченьдлинноесловобезпробелов".repeat(3)}</p>`,
  });
  const reported = await (await apiAs(reporter)).post("/api/v1/reports", { data: { targetType: "POST", targetId: post.id, category: "SPAM", comment: "Спам" } });
  expect(reported.status(), await reported.text()).toBe(201);

  for (const [lang, theme] of [["ru", "dark"], ["en", "light"]] as const) {
    const admin = await createUser({ role: "ADMIN", language: lang });
    const L = ADMIN[lang];
    const { context, page } = await signedInContext(browser, admin, { lang, theme, phone: true });
    for (const path of ["/admin", "/admin/users", "/admin/publications", "/admin/comments", "/admin/moderators", "/admin/audit", `/admin/users/${author.id}`, `/admin/publications/${post.id}`, "/admin/reports"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      // The live count of open reports has come in (it was what widened the menu's row).
      await expect(page.getByTestId("open-reports-badge")).toBeVisible();
      await fitsPhone(page, path);
    }
    // Every section of the admin menu is on the screen, «Жалобы» included: no row to swipe sideways.
    const menu = page.getByRole("link", { name: L.reports, exact: false }).first();
    await insideWidth(page, menu, "the reports link");
    for (const link of await page.locator("aside a, aside button").all()) await insideWidth(page, link, `admin menu: ${await link.innerText()}`);

    // The block dialog opens inside the screen over a page that keeps its width.
    const group = page.locator(`[data-testid^="report-group-"]`).filter({ hasText: post.title });
    await group.getByRole("button", { name: L.blockItem }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toBeVisible();
    await insideWidth(page, dialog, "the block dialog");
    await fitsPhone(page, "reports with the dialog open");
    await page.screenshot({ path: testInfo.outputPath(`admin-reports-dialog-${lang}-${theme}.png`) });
    await dialog.getByRole("button", { name: L.cancel }).click();
    await expect(dialog).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath(`admin-reports-${lang}-${theme}.png`), fullPage: true });
    // At a desktop's width the sidebar is a column again, the phone's two-column menu nowhere.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/admin/reports");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const aside = (await page.locator("aside").first().boundingBox())!;
    expect(aside.height, "the desktop sidebar runs the page's height").toBeGreaterThan(600);
    await page.screenshot({ path: testInfo.outputPath(`admin-reports-desktop-${lang}-${theme}.png`) });
    await context.close();
  }
});

const PUSH = {
  ru: { title: "Уведомления на этом устройстве", connecting: "Подключаем уведомления…", timeout: /не ответила за 8 с/, retry: "Попробовать ещё раз", enabled: "Уведомления на этом устройстве включены", app: /настройках телефона/, address: /слева от адреса/ },
  en: { title: "Notifications on this device", connecting: "Turning notifications on…", timeout: /did not answer in 8 s/, retry: "Try again", enabled: "Notifications on this device are on", app: /phone's settings/, address: /left of the address/ },
} as const;

/**
 * What stands in for the browser's push service, which this machine cannot reach: a PushManager whose first
 * `subscribe` never answers, as an unreachable service does, and whose next ones hand out a subscription of
 * the real shape (as push-device.spec.ts does). The permission is given.
 */
function pushStandIn() {
  Object.defineProperty(Notification, "permission", { get: () => "granted" });
  Notification.requestPermission = async () => "granted";
  const unb64u = (s: string) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  let made: PushSubscription | null = null;
  PushManager.prototype.getSubscription = async () => made;
  let asked = 0;
  PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
    if (++asked === 1) await new Promise(() => {});
    const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
    const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
    const b64u = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    const endpoint = `https://push.example.test/send/${crypto.randomUUID()}`;
    const key = options!.applicationServerKey as ArrayBuffer;
    made = {
      endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: typeof key === "string" ? unb64u(key).buffer : key },
      toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: b64u(raw), auth: b64u(crypto.getRandomValues(new Uint8Array(16))) } }),
      unsubscribe: async () => true,
    } as unknown as PushSubscription;
    return made;
  };
}

test("item 2: the push switch shows progress, gives up after 8 s with a message and a retry that works; an installed app's help names the phone's settings (ru light, en dark)", async ({ browser, baseURL }) => {
  for (const [lang, theme] of [["ru", "light"], ["en", "dark"]] as const) {
    const T = PUSH[lang];
    const me = await createUser({ language: lang });
    const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, serviceWorkers: "allow", colorScheme: theme, locale: lang === "en" ? "en-US" : "ru-RU" });
    if (lang === "en") await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL! }]);
    await context.addInitScript(pushStandIn);
    const page = await context.newPage();
    const res = await page.request.post("/api/v1/auth/login", { data: { email: me.email, password: me.password } });
    expect(res.status()).toBe(200);
    await page.goto("/push");
    const toggle = page.getByRole("switch", { name: T.title });
    await expect(toggle).toBeEnabled();
    await toggle.click();
    // At once: the switch says it is working on it.
    await expect(page.getByTestId("push-connecting")).toHaveText(T.connecting);
    await expect(toggle).toBeDisabled();
    // The service does not answer: after 8 s the switch gives up, says so, and offers another try.
    const alert = page.getByRole("alert").filter({ hasText: T.timeout });
    await expect(alert).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId("push-connecting")).toHaveCount(0);
    await expect(toggle).not.toBeChecked();
    await expect(toggle).toBeEnabled();
    // The service answers the next time: the retry switches notifications on.
    await alert.getByRole("button", { name: T.retry }).click();
    await expect(page.getByText(T.enabled)).toBeVisible();
    await expect(toggle).toBeChecked();
    await expect(alert).toHaveCount(0);
    await context.close();

    // Installed (its own window, no address bar), with notifications refused: the help points to the phone's settings.
    const app = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, colorScheme: theme, locale: lang === "en" ? "en-US" : "ru-RU" });
    if (lang === "en") await app.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL! }]);
    await app.addInitScript(() => {
      Object.defineProperty(Notification, "permission", { get: () => "denied" });
      const real = window.matchMedia.bind(window);
      window.matchMedia = (q: string) => (q.includes("display-mode: standalone") ? ({ ...real(q), matches: true, media: q } as MediaQueryList) : real(q));
    });
    const appPage = await app.newPage();
    await appPage.request.post("/api/v1/auth/login", { data: { email: me.email, password: me.password } });
    await appPage.goto("/push");
    const hint = appPage.locator("#push-this-device-hint");
    await expect(hint).toHaveText(T.app);
    await expect(hint).not.toHaveText(T.address);
    await app.close();
  }
});

/** A finger's stroke on the screen, through the browser's own input pipeline (touch-action applies). */
async function swipe(context: BrowserContext, page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [from] });
  for (let i = 1; i <= 8; i++) {
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x: from.x + ((to.x - from.x) * i) / 8, y: from.y + ((to.y - from.y) * i) / 8 }] });
  }
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await cdp.detach();
}

test("item 3: a downward swipe closes the photo viewer and leaves the page where it was (en light)", async ({ browser }) => {
  const me = await createUser({ language: "en", firstName: "Nora", lastName: "Finch" });
  const api = await apiAs(me);
  const upload = await api.post("/api/v1/storage?type=IMAGE", { multipart: { file: { name: "lake.png", mimeType: "image/png", buffer: await pngBytes("#4a7fb5", 1200, 800) } } });
  expect(upload.ok(), await upload.text()).toBe(true);
  const post = await createPost(api, { title: "A lake in the morning", postText: `<p>${"The water was still and the sky was clear. ".repeat(30)}</p>`, imagePath: (await upload.json()).data });
  const { context, page } = await signedInContext(browser, me, { lang: "en", theme: "light", phone: true });
  await page.goto(`/post/${post.id}`);
  await page.getByRole("button", { name: /^Open the image/ }).first().click();
  const viewer = page.getByRole("dialog", { name: "Image viewer" });
  await expect(viewer).toBeVisible();
  const scrolled = await page.evaluate(() => window.scrollY);
  await swipe(context, page, { x: 195, y: 300 }, { x: 200, y: 620 });
  await expect(viewer).toBeHidden();
  expect(await page.evaluate(() => window.scrollY), "the page behind did not scroll").toBe(scrolled);
  await context.close();
});

test("item 4: «Ответить» brings the comment field above the bottom tab bar (ru dark)", async ({ browser }) => {
  const me = await createUser({ firstName: "Нина", lastName: "Зорина" });
  const friend = await createUser({ firstName: "Олег", lastName: "Гранин" });
  const [meApi, friendApi] = await Promise.all([apiAs(me), apiAs(friend)]);
  await befriend(meApi, me.id, friendApi, friend.id);
  const post = await createPost(friendApi, { title: "Прогулка к маяку", postText: "<p>Мы дошли до старого маяка и обратно.</p>" });
  for (let i = 1; i <= 5; i++) {
    const res = await friendApi.post(`/api/v1/post/${post.id}/comment`, { data: { commentText: `Комментарий номер ${i}: ветер был сильный, но мы дошли.` } });
    expect(res.status(), await res.text()).toBe(201);
  }
  const { context, page } = await signedInContext(browser, me, { lang: "ru", theme: "dark", phone: true });
  await page.goto(`/post/${post.id}`);
  const field = page.getByTestId("comment-input");
  await expect(page.getByTestId("comment")).toHaveCount(5);
  const bar = page.getByRole("navigation", { name: "Навигация" });
  const barTop = (await bar.boundingBox())!.y;
  // The field on the screen but behind the bar (its bottom 35 px above the screen's edge; the reply line that
  // «Ответить» adds above it moves it down by less than that): where a reader scrolling the comments has it
  // when they press «Ответить» under the last one. Focus alone scrolls nothing there.
  await field.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().bottom - (window.innerHeight - 35)));
  await page.getByTestId("comment").last().getByRole("button", { name: "Ответить" }).click();
  await expect(page.getByTestId("comment-mode")).toContainText("Олег");
  await expect(field).toBeFocused();
  await expect.poll(async () => (await field.boundingBox())!.y + (await field.boundingBox())!.height, { message: "the field's bottom is above the tab bar" }).toBeLessThanOrEqual(barTop);
  await context.close();
});

test("item 5: a touch screen gets no keyboard hints, and a tag's 10-character limit is said as it is hit (en dark)", async ({ browser }) => {
  const me = await createUser({ language: "en", firstName: "Oliver", lastName: "Grant" });
  const api = await apiAs(me);
  const post = await createPost(api, { title: "A note of mine", postText: "<p>Short text of my own note here.</p>" });
  const { context, page } = await signedInContext(browser, me, { lang: "en", theme: "dark", phone: true });
  await context.addInitScript((id) => localStorage.setItem(`krug.postHints.${id}`, "done"), me.id);
  await page.goto(`/post/${post.id}`);
  await expect(page.getByTestId("comment-input")).toBeVisible();
  await expect(page.getByText("Enter to send, Shift+Enter for a new line")).toHaveCount(0);

  await page.goto("/");
  await page.getByRole("button", { name: "What's new?" }).click();
  const form = page.getByRole("form", { name: "New post" });
  const tags = form.getByRole("combobox", { name: "Tags" });
  await expect(tags).toHaveAttribute("placeholder", "Type a tag and a comma");
  // Eleven characters: the field keeps ten and says why.
  await tags.pressSequentially("lighthouses");
  await expect(tags).toHaveValue("lighthouse");
  await expect(form.getByRole("alert")).toHaveText("A tag is at most 10 characters long");
  // A comma typed on a phone's keyboard adds the tag.
  await tags.fill("lighthouse,");
  await expect(form.getByRole("list", { name: /tags/i }).getByText("#lighthouse")).toBeVisible();
  await expect(tags).toHaveValue("");

  // The chat's composer tells a screen reader of no Enter either.
  const friend = await createUser({ language: "en" });
  const dialog = await (await api.post("/api/v1/dialogs", { data: { recipientId: friend.id } })).json();
  expect((await api.post(`/api/v1/dialogs/${dialog.id}/messages`, { data: { messageText: "See you at seven" } })).status()).toBe(201);
  await page.goto(`/im/${dialog.id}`);
  const composer = page.getByRole("textbox", { name: "Message" });
  await expect(composer).toBeVisible();
  // The server renders the keyboard's hint (it cannot know the screen); hydration drops it on a touch screen.
  const described = () =>
    composer.evaluate((el) =>
      (el.getAttribute("aria-describedby") ?? "")
        .split(" ")
        .map((id) => document.getElementById(id)?.textContent ?? "")
        .join(" "),
    );
  await expect.poll(described, { message: "the composer describes no Enter key on a touch screen" }).not.toContain("Enter");
  // Editing a message: its close button names no Esc key.
  await page.getByTestId("message").first().getByRole("button").first().click();
  await page.getByRole("menuitem", { name: "Edit" }).click();
  await expect(page.getByTestId("composer-editing").getByRole("button", { name: "Cancel editing", exact: true })).toBeVisible();
  await context.close();
});

async function dialogWithHistory(a: TestUser, b: TestUser, count: number): Promise<number> {
  const aApi = await apiAs(a);
  const dialog = await (await aApi.post("/api/v1/dialogs", { data: { recipientId: b.id } })).json();
  for (let i = 1; i <= count; i++) {
    const res = await aApi.post(`/api/v1/dialogs/${dialog.id}/messages`, { data: { messageText: `Сообщение ${i}: ${"как прошёл день, что нового у тебя и у всех наших? ".repeat(4)}` } });
    expect(res.status()).toBe(201);
  }
  return dialog.id as number;
}

test("item 6: in the chat the day's label leaves the top message's text alone; offline, a banner and no «в сети» (ru light)", async ({ browser }) => {
  const alice = await createUser({ firstName: "Алиса", lastName: "Ветрова" });
  const boris = await createUser({ firstName: "Борис", lastName: "Ключев" });
  const id = await dialogWithHistory(boris, alice, 8);
  // Boris is here: his page holds the socket that makes him «в сети».
  const b = await signedInContext(browser, boris, { lang: "ru", phone: true });
  await b.page.goto(`/im/${id}`);
  const a = await signedInContext(browser, alice, { lang: "ru", theme: "light", phone: true });
  await a.page.goto(`/im/${id}`);
  const history = a.page.getByTestId("chat-history");
  await expect(a.page.getByTestId("message").last()).toBeVisible();
  await expect(a.page.getByTestId("chat-presence")).toHaveText("в сети");

  // A message's top exactly at the history's top edge, where the sticky «Сегодня» stands while scrolling.
  await history.evaluate((el) => {
    const msgs = el.querySelectorAll<HTMLElement>('[data-testid="message"]');
    const target = msgs[2];
    el.scrollTop += target.getBoundingClientRect().top - el.getBoundingClientRect().top;
  });
  const label = a.page.getByTestId("chat-day-label");
  // While the reader scrolls, it says which day this is ...
  await expect.poll(() => label.evaluate((el) => getComputedStyle(el).opacity)).toBe("1");
  // ... and once they stop, the top message is read whole.
  await expect.poll(() => label.evaluate((el) => getComputedStyle(el).opacity), { timeout: 5_000 }).toBe("0");
  const overlap = await a.page.evaluate(() => {
    const l = document.querySelector('[data-testid="chat-day-label"] span')!.getBoundingClientRect();
    return [...document.querySelectorAll('[data-testid="message"]')].some((m) => {
      const r = m.getBoundingClientRect();
      return r.top < l.bottom && r.bottom > l.top && Number(getComputedStyle(document.querySelector('[data-testid="chat-day-label"]')!).opacity) > 0;
    });
  });
  expect(overlap, "a visible day label over a message").toBe(false);
  await a.page.screenshot({ path: test.info().outputPath("chat-top-ru-light.png") });

  // The line drops: the chat says so at once, and does not claim Boris is online.
  await a.context.setOffline(true);
  await expect(a.page.getByTestId("chat-offline")).toHaveText("Нет соединения. Новые сообщения придут, когда связь восстановится.");
  await expect(a.page.getByTestId("chat-presence")).toHaveCount(0);
  await a.page.screenshot({ path: test.info().outputPath("chat-offline-ru-light.png") });
  // Back: the banner goes, Boris is online again.
  await a.context.setOffline(false);
  await expect(a.page.getByTestId("chat-offline")).toHaveCount(0);
  await expect(a.page.getByTestId("chat-presence")).toHaveText("в сети");
  await Promise.all([a.context.close(), b.context.close()]);
});

test("item 7: the emoji picker's first category is named for its smileys, its search leaves the keyboard closed, and it is fetched before the first press (ru dark, en light)", async ({ browser }) => {
  for (const [lang, theme, heading] of [["ru", "dark", "Смайлики и люди"], ["en", "light", "Smileys & people"]] as const) {
    const me = await createUser({ language: lang });
    const friend = await createUser({ language: lang });
    const dialog = await (await (await apiAs(me)).post("/api/v1/dialogs", { data: { recipientId: friend.id } })).json();
    const { context, page } = await signedInContext(browser, me, { lang, theme, phone: true });
    await page.goto(`/im/${dialog.id}`);
    const composer = page.getByRole("textbox", { name: lang === "ru" ? "Сообщение" : "Message" });
    await expect(composer).toBeVisible();
    // Tapping the field fetches the picker (and the Russian names) ahead of the press.
    const fetched = page.waitForResponse((r) => r.url().includes("/_next/static/chunks/"), { timeout: 10_000 });
    await composer.tap();
    await fetched;
    await page.getByTestId("emoji-button").tap();
    const picker = page.getByTestId("emoji-picker");
    // A new account has no recent emoji: the first section is the smileys, and its name says so.
    await expect(picker.getByRole("rowgroup").first()).toHaveAccessibleName(heading);
    await expect(picker.getByRole("tab", { selected: true })).toHaveAccessibleName(heading);
    await expect(picker.getByRole("gridcell", { name: lang === "ru" ? /улыб/i : /grinning face/i }).first()).toBeVisible();
    // The search is not focused: the phone's keyboard stays closed over the picker.
    await expect(picker.getByRole("searchbox").or(picker.getByRole("textbox"))).not.toBeFocused();
    await page.screenshot({ path: test.info().outputPath(`emoji-${lang}-${theme}.png`) });
    await context.close();
  }
});
