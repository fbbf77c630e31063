import { createECDH, randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page, type Worker } from "@playwright/test";
import type { PushPayload } from "@/lib/validation/push";
import { createUser, expect, signIn, test } from "./fixtures";

// Issue 25 section 2 (docs/adr/0123): «Уведомления на этом устройстве» subscribes this browser, the device
// shows in the settings, a push shaped as the server sends it is shown by the real service worker and its
// click leads to its page; sign-out removes the device.
//
// What stands in: Chromium's push service. `PushManager.subscribe` reaches Google's servers, which this
// machine cannot (it hangs), so the page's PushManager is replaced by one that hands out a subscription
// of the real shape (an https endpoint, a P-256 key and an auth secret made with WebCrypto). Everything
// else is real: our client code, the REST calls, the service worker, and the push itself, delivered to the
// worker by Chromium (CDP ServiceWorker.deliverPushMessage) with a payload the server would send.

test.describe.configure({ timeout: 120_000 });

const TEXT = {
  ru: { title: "Уведомления на этом устройстве", thisDevice: "это устройство", menu: "Меню профиля", exit: "Выйти", remove: "Убрать", body: "Сообщение: «Привет из пуша»" },
  en: { title: "Notifications on this device", thisDevice: "this device", menu: "Profile menu", exit: "Sign out", remove: "Remove", body: "Message: “Hello from a push”" },
} as const;

/** A PushManager with the browser's interface and no push service behind it (see the top of the file). */
function fakePushManager() {
  const KEY = "e2e.fakePushSubscription";
  type Rec = { endpoint: string; key: string; p256dh: string; auth: string };
  const b64u = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  const unb64u = (s: string) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  const make = (rec: Rec) => ({
    endpoint: rec.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: unb64u(rec.key).buffer },
    toJSON: () => ({ endpoint: rec.endpoint, expirationTime: null, keys: { p256dh: rec.p256dh, auth: rec.auth } }),
    unsubscribe: async () => {
      localStorage.removeItem(KEY);
      return true;
    },
  });
  PushManager.prototype.getSubscription = async function () {
    const rec = JSON.parse(localStorage.getItem(KEY) ?? "null") as Rec | null;
    return (rec && make(rec)) as unknown as PushSubscription;
  };
  PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
    const existing = await this.getSubscription();
    if (existing) return existing;
    const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
    const rec: Rec = {
      endpoint: `https://push.example.test/send/${crypto.randomUUID()}`,
      key: b64u(new Uint8Array(options!.applicationServerKey as ArrayBuffer)),
      p256dh: b64u(new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey))),
      auth: b64u(crypto.getRandomValues(new Uint8Array(16))),
    };
    localStorage.setItem(KEY, JSON.stringify(rec));
    return make(rec) as unknown as PushSubscription;
  };
}

async function serviceWorker(context: BrowserContext): Promise<Worker> {
  return context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker"));
}

/**
 * The tags the worker's showNotification has resolved for since this was called, read from the worker.
 *
 * Why not poll getNotifications() instead: Chromium answers it by syncing its notification store with what
 * the platform reports as on screen, and deletes a notification stored a moment before the read that is
 * not on screen yet (PlatformNotificationContextImpl::ReadAllNotificationDataForServiceWorkerRegistration).
 * A poll that lands while a push is being shown loses that notification for good; it did in about one run
 * in four on loaded cores. So the test waits here for the shows it expects, then reads the real list once.
 * The spy calls through to the real method: what is shown is the worker's own doing.
 */
async function watchShows(context: BrowserContext): Promise<() => Promise<string[]>> {
  const worker = await serviceWorker(context);
  await worker.evaluate(() => {
    const registration = (self as unknown as ServiceWorkerGlobalScope).registration as ServiceWorkerRegistration & { e2eShown?: string[] };
    registration.e2eShown = [];
    if ((registration.showNotification as { e2eSpy?: boolean }).e2eSpy) return;
    const real = registration.showNotification.bind(registration);
    const spy = async (title: string, options?: NotificationOptions) => {
      await real(title, options);
      registration.e2eShown?.push(options?.tag ?? "");
    };
    registration.showNotification = Object.assign(spy, { e2eSpy: true });
  });
  return () => worker.evaluate(() => ((self as unknown as ServiceWorkerGlobalScope).registration as ServiceWorkerRegistration & { e2eShown: string[] }).e2eShown);
}

/** The notifications the worker shows now, as the page reads them from its registration. */
async function shown(page: Page) {
  return page.evaluate(async () =>
    (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      silent: n.silent,
      url: (n.data as { url?: string } | null)?.url,
    })),
  );
}

type BrowserOptions = Parameters<typeof chromium.launchPersistentContext>[1];

/**
 * A Chromium of its own profile (a service worker needs a persistent context) with the page's PushManager
 * stood in (see above) and, unless `grant` is false, the notification permission granted; removed after.
 */
async function withPushBrowser(
  { launchOptions, baseURL }: { launchOptions: BrowserOptions; baseURL: string | undefined },
  { context: options, grant = true }: { context: BrowserOptions; grant?: boolean },
  body: (context: BrowserContext, page: Page) => Promise<void>,
): Promise<void> {
  const profile = await mkdtemp(path.join(tmpdir(), "krug-push-"));
  const context = await chromium.launchPersistentContext(profile, { ...launchOptions, baseURL, ...options, serviceWorkers: "allow" });
  try {
    if (grant) {
      await context.grantPermissions(["notifications"], { origin: new URL(baseURL!).origin });
      await context.addInitScript(fakePushManager);
    }
    await body(context, context.pages()[0] ?? (await context.newPage()));
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

// Both languages and both schemes, in two runs (each a browser of its own with a push service: the longest
// journeys of the suite, and the four combinations ran the same steps twice over).
for (const [lang, scheme] of [
  ["ru", "light"],
  ["en", "dark"],
] as const) {
  test(`this device's notifications: switch, device list, a push shown and clicked, sign-out (${lang}, ${scheme}, 390 px)`, async ({ launchOptions, baseURL }, testInfo) => {
    const T = TEXT[lang];
    await withPushBrowser({ launchOptions, baseURL }, { context: { locale: lang === "en" ? "en-GB" : "ru-RU", colorScheme: scheme, viewport: { width: 390, height: 844 } } }, async (context, page) => {
      if (lang === "en") await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL! }]);
      const user = await createUser({ language: lang, firstName: "Вера", lastName: "Пушкина" });
      await signIn(page, user);

      // The switch on /push: off at first, on after the click; the worker is the one the page registered.
      await page.goto("/push");
      const toggle = page.getByRole("switch", { name: T.title });
      await expect(toggle).toBeEnabled();
      await expect(toggle).not.toBeChecked();
      await page.screenshot({ path: testInfo.outputPath(`push-off-${lang}-${scheme}.png`), fullPage: true });
      await toggle.click();
      // Subscribing registers the worker, asks the push service and checks the endpoint's address on the server:
      // on a loaded host (two journeys of this file at once) that is more than the default ten seconds.
      await expect(toggle).toBeChecked({ timeout: 30_000 });
      await expect(toggle).toBeEnabled();
      const devices = async () => (await (await page.request.get("/api/v1/push/subscriptions")).json()) as { devices: { id: number; language: string }[] };
      expect((await devices()).devices).toEqual([expect.objectContaining({ language: lang })]);
      await page.screenshot({ path: testInfo.outputPath(`push-on-${lang}-${scheme}.png`), fullPage: true });

      // A reload reads it back as on, and posts nothing again (only a new or changed subscription is posted).
      const posts: string[] = [];
      page.on("request", (r) => {
        if (r.method() === "POST" && r.url().includes("/api/v1/push/subscriptions")) posts.push(r.url());
      });
      await page.reload();
      await expect(page.getByRole("switch", { name: T.title })).toBeChecked();
      expect(posts).toEqual([]);

      // The settings list this device, marked.
      await page.goto("/settings");
      await expect(page.getByRole("switch", { name: T.title })).toBeChecked();
      const row = page.locator("[data-device-id]");
      await expect(row).toHaveCount(1);
      await expect(row).toContainText(T.thisDevice);
      await expect(row.getByRole("button", { name: new RegExp(T.remove) })).toBeVisible();
      const card = page.locator("section", { has: page.getByRole("switch", { name: T.title }) }).last();
      await card.screenshot({ path: testInfo.outputPath(`settings-${lang}-${scheme}.png`) });
      await page.setViewportSize({ width: 1280, height: 900 });
      await card.screenshot({ path: testInfo.outputPath(`settings-desktop-${lang}-${scheme}.png`) });
      await page.goto("/push");
      await page.screenshot({ path: testInfo.outputPath(`push-desktop-${lang}-${scheme}.png`), fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });

      // The push: Chromium hands the worker a payload shaped as the server's (lib/server/services/push/deliver.ts).
      const cdp = await context.newCDPSession(page);
      const origin = new URL(baseURL!).origin;
      const registrationId = new Promise<string>((resolve) =>
        cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
          const ours = registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted);
          if (ours) resolve(ours.registrationId);
        }),
      );
      await cdp.send("ServiceWorker.enable");
      const deliver = async (payload: PushPayload) =>
        cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId: await registrationId, data: JSON.stringify(payload) });
      const message: PushPayload = { title: "Борис Годунов", body: T.body, icon: null, url: "/im/777", tag: "dialog-777", type: "MESSAGE" };

      // A tab showing that very dialog: the message is not shown; anything else is, silently.
      await page.goto("/im/777");
      let shows = await watchShows(context);
      await deliver(message);
      await deliver({ title: "Борис Годунов", body: "like", icon: null, url: "/post/5", tag: "LIKE-5", type: "LIKE" });
      await expect.poll(shows).toEqual(["LIKE-5"]);
      const whileOpen = await shown(page);
      expect(whileOpen.map((n) => n.tag)).toEqual(["LIKE-5"]);
      expect(whileOpen[0].silent).toBe(true);

      // No Krug tab: shown with its text; a burst of the dialog is one notification, the newest.
      shows = await watchShows(context);
      await page.goto("about:blank");
      await deliver({ ...message, body: "older" });
      await deliver(message);
      await expect.poll(shows).toEqual(["dialog-777", "dialog-777"]);
      await page.goto("/settings");
      // The second show replaces the first under the tag; the browser's list may lag it by a moment.
      await expect
        .poll(async () => (await shown(page)).filter((n) => n.tag === "dialog-777"))
        .toEqual([{ title: "Борис Годунов", body: T.body, tag: "dialog-777", silent: false, url: "/im/777" }]);

      // A click (no CDP command clicks a notification: the worker is handed a notificationclick for the
      // real notification) closes it and takes the open tab to the dialog.
      const worker = await serviceWorker(context);
      await worker.evaluate(async () => {
        const scope = self as unknown as ServiceWorkerGlobalScope;
        const [n] = (await scope.registration.getNotifications()).filter((x) => x.tag === "dialog-777");
        scope.dispatchEvent(new NotificationEvent("notificationclick", { notification: n }));
      });
      await expect(page).toHaveURL(/\/im\/777$/);
      expect((await shown(page)).map((n) => n.tag)).not.toContain("dialog-777");

      // A payload pointing elsewhere leads to our own notifications page, never to another site.
      shows = await watchShows(context);
      await page.goto("about:blank");
      await deliver({ ...message, tag: "evil", url: "https://evil.example/steal" });
      await expect.poll(shows).toEqual(["evil"]);
      await page.goto("/settings");
      expect((await shown(page)).find((n) => n.tag === "evil")?.url).toBe("/push");

      // Sign-out removes this device and ends the browser's subscription.
      await page.getByRole("button", { name: T.menu }).click();
      await page.getByRole("menuitem", { name: T.exit }).click();
      await expect(page).toHaveURL("/login");
      expect(await page.evaluate(() => localStorage.getItem("e2e.fakePushSubscription"))).toBeNull();
      expect(await page.evaluate(() => localStorage.getItem("krug.push.device"))).toBeNull();
      await signIn(page, user);
      expect((await devices()).devices).toEqual([]);
      await page.goto("/push");
      await expect(page.getByRole("switch", { name: T.title })).not.toBeChecked();
    });
  });
}

test("switching off on /push removes the device; removing it in the settings turns the switch off", async ({ launchOptions, baseURL }) => {
  await withPushBrowser({ launchOptions, baseURL }, { context: { locale: "ru-RU" } }, async (context, page) => {
    await signIn(page, await createUser());
    const count = async () => ((await (await page.request.get("/api/v1/push/subscriptions")).json()) as { devices: unknown[] }).devices.length;

    await page.goto("/push");
    const toggle = page.getByRole("switch", { name: TEXT.ru.title });
    await toggle.click();
    await expect(toggle).toBeChecked({ timeout: 30_000 });
    await expect(toggle).toBeEnabled();
    expect(await count()).toBe(1);
    await toggle.click();
    await expect(toggle).not.toBeChecked();
    await expect(toggle).toBeEnabled();
    expect(await count()).toBe(0);

    await toggle.click();
    await expect(toggle).toBeChecked({ timeout: 30_000 });
    await page.goto("/settings");
    await page.locator("[data-device-id]").getByRole("button", { name: /Убрать/ }).click();
    await expect(page.locator("[data-device-id]")).toHaveCount(0);
    await expect(page.getByRole("switch", { name: TEXT.ru.title })).not.toBeChecked();
    expect(await count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem("e2e.fakePushSubscription"))).toBeNull();
  });
});

test("a browser that refused notifications says how to allow them, and the switch stays off", async ({ launchOptions, baseURL }, testInfo) => {
  await withPushBrowser({ launchOptions, baseURL }, { context: { locale: "ru-RU" }, grant: false }, async (context, page) => {
    // Chromium's own answer to a site the person blocked.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Browser.setPermission", { permission: { name: "notifications" }, setting: "denied", origin: new URL(baseURL!).origin });
    await signIn(page, await createUser());
    await page.goto("/settings");
    const toggle = page.getByRole("switch", { name: TEXT.ru.title });
    await expect(toggle).toBeDisabled();
    await expect(toggle).not.toBeChecked();
    await expect(page.getByText("Браузер запретил Кругу показывать уведомления")).toBeVisible({ timeout: 30_000 });
    await page.locator("section", { has: toggle }).last().screenshot({ path: testInfo.outputPath("settings-denied.png") });
  });
});

test("an error of the API is shown with its own message, and the switch stays off", async ({ launchOptions, baseURL }, testInfo) => {
  await withPushBrowser({ launchOptions, baseURL }, { context: { locale: "ru-RU" } }, async (context, page) => {
    await signIn(page, await createUser());
    // Twenty other browsers subscribed within the hour: RATE_LIMIT_PUSH_SUBSCRIBE (20/1h) ends the next one.
    for (let i = 0; i < 20; i++) {
      const keys = { p256dh: createECDH("prime256v1").generateKeys().toString("base64url"), auth: randomBytes(16).toString("base64url") };
      const res = await page.request.post("/api/v1/push/subscriptions", { data: { endpoint: `https://push.example.test/other/${i}`, keys } });
      expect(res.status()).toBe(201);
    }
    await page.goto("/push");
    const toggle = page.getByRole("switch", { name: TEXT.ru.title });
    await toggle.click();
    // The first subscription waits for the service worker to install (as above): up to 30 s on a loaded host.
    await expect(page.getByRole("alert").filter({ hasText: "Слишком много подписок за короткое время. Попробуйте позже." })).toBeVisible({ timeout: 30_000 });
    await expect(toggle).not.toBeChecked();
    await expect(toggle).toBeEnabled();
    await page.screenshot({ path: testInfo.outputPath("push-error.png") });
    await page.goto("/settings");
    await expect(page.locator("[data-device-id]")).toHaveCount(20);
    await expect(page.locator("[data-device-id]").filter({ hasText: "это устройство" })).toHaveCount(0);
  });
});

test("a subscription made with another VAPID key is replaced on the next visit: one device, a new row", async ({ launchOptions, baseURL }) => {
  await withPushBrowser({ launchOptions, baseURL }, { context: { locale: "ru-RU" } }, async (context, page) => {
    await signIn(page, await createUser());
    const list = async () => ((await (await page.request.get("/api/v1/push/subscriptions")).json()) as { devices: { id: number }[] }).devices.map((d) => d.id);

    await page.goto("/push");
    const toggle = page.getByRole("switch", { name: TEXT.ru.title });
    await toggle.click();
    await expect(toggle).toBeChecked({ timeout: 30_000 });
    const [before] = await list();
    // As if the server's key pair had changed since: the browser's subscription names another key.
    await page.evaluate(() => {
      const rec = JSON.parse(localStorage.getItem("e2e.fakePushSubscription")!) as { key: string };
      rec.key = "B" + rec.key.slice(1, -4) + "AAAA";
      localStorage.setItem("e2e.fakePushSubscription", JSON.stringify(rec));
    });
    await page.reload();
    await expect(page.getByRole("switch", { name: TEXT.ru.title })).toBeChecked({ timeout: 30_000 });
    await expect.poll(list).not.toEqual([before]);
    expect(await list()).toHaveLength(1);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("krug.push.device")!) as { id: number });
    expect(await list()).toEqual([stored.id]);
  });
});
