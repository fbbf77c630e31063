import type { Browser, BrowserContext, Page } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { createUser, letters, expect as baseExpect, signIn, test, type TestUser } from "./fixtures";
import { apiAs, befriend } from "./profile-support";

// Two browsers and a production server share a busy machine: page loads get more than the default 10 s.
const expect = baseExpect.configure({ timeout: 30_000 });

// Names keep only letters (spec section 5), so uniqueness comes from random letters.
async function signedIn(browser: Browser, user: TestUser, locale: "ru" | "en" = "ru"): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale: locale === "en" ? "en-US" : "ru-RU" });
  if (locale === "en") await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
  const page = await context.newPage();
  await signIn(page, user);
  return { context, page };
}

async function friends(locale: "ru" | "en"): Promise<[TestUser, TestUser]> {
  const [a, b] = await Promise.all([
    createUser({ firstName: locale === "en" ? "Alice" : "Алиса", lastName: `Чат${letters()}`, language: locale }),
    createUser({ firstName: locale === "en" ? "Boris" : "Борис", lastName: `Чат${letters()}`, language: locale }),
  ]);
  const [apiA, apiB] = await Promise.all([apiAs(a), apiAs(b)]);
  await befriend(apiA, a.id, apiB, b.id);
  await Promise.all([apiA.dispose(), apiB.dispose()]);
  return [a, b];
}

const composer = (page: Page) => page.locator("#chat-composer");
const bubbles = (page: Page) => page.getByTestId("chat-history").getByTestId("message");
const bubble = (page: Page, text: string) => bubbles(page).filter({ hasText: text });
/** The "messages" badge of the sidebar (desktop width; the phone bar's twin is hidden there). */
const sidebarBadge = (page: Page) => page.getByRole("navigation", { name: /Основное меню|Main menu/ }).getByTestId("im-unread-badge");
const row = (page: Page, user: TestUser) => page.getByTestId("dialog-row").filter({ hasText: `${user.firstName} ${user.lastName}` });

// Accounts are made with the operators' CLI (a process each) and two browsers chat side by side.
test.describe.configure({ timeout: 300_000 });

test("two people chat live in Russian: typing, read ticks, unread badges, a dropped line", async ({ browser }) => {
  const [alice, boris] = await friends("ru");
  const a = await signedIn(browser, alice);
  const b = await signedIn(browser, boris);

  // Boris waits on the (still empty) dialog list.
  await b.page.goto("/im");
  await expect(b.page.getByRole("heading", { name: "Сообщений пока нет" })).toBeVisible();
  await expect(sidebarBadge(b.page)).toHaveCount(0);

  // Alice writes from Boris's profile: the dialog is created (404 → POST) and opens empty.
  await a.page.goto(`/profile/${boris.id}`);
  await a.page.getByRole("link", { name: "Написать сообщение" }).click();
  await expect(a.page).toHaveURL(/\/im\/\d+$/);
  const dialogUrl = a.page.url();
  await expect(a.page.getByText("Диалог начат, сообщений нет")).toBeVisible();
  await expect(a.page.getByRole("heading", { name: `${boris.firstName} ${boris.lastName}` })).toBeAttached();

  // Enter sends; the message is stored (one tick) and reaches Boris's list with an unread count.
  await composer(a.page).fill("Привет, Борис!");
  await composer(a.page).press("Enter");
  await expect(composer(a.page)).toHaveValue("");
  await expect(bubble(a.page, "Привет, Борис!")).toHaveAttribute("data-read-status", "SENT");
  await expect(bubble(a.page, "Привет, Борис!").getByRole("img", { name: "Отправлено, не прочитано" })).toBeVisible();
  await expect(row(b.page, alice)).toBeVisible();
  await expect(row(b.page, alice).getByTestId("dialog-preview")).toHaveText("Привет, Борис!");
  await expect(row(b.page, alice)).toHaveAttribute("data-unread", "1");
  await expect(sidebarBadge(b.page)).toHaveText("1");

  // A second one adds one more, in the list and on the badge (spec section 4).
  await composer(a.page).fill("Как дела?");
  await composer(a.page).press("Enter");
  await expect(row(b.page, alice)).toHaveAttribute("data-unread", "2");
  await expect(sidebarBadge(b.page)).toHaveText("2");
  await expect(row(b.page, alice).getByTestId("dialog-preview")).toHaveText("Как дела?");

  // Boris opens the dialog: his counters reset, and Alice's ticks turn to "read" live.
  await row(b.page, alice).click();
  await expect(b.page).toHaveURL(dialogUrl);
  await expect(bubble(b.page, "Привет, Борис!")).toBeVisible();
  await expect(bubble(b.page, "Как дела?")).toBeVisible();
  await expect(b.page.getByText("Сегодня", { exact: true })).toBeVisible();
  await expect(sidebarBadge(b.page)).toHaveCount(0);
  await expect(bubble(a.page, "Как дела?")).toHaveAttribute("data-read-status", "READ");
  await expect(bubble(a.page, "Привет, Борис!").getByRole("img", { name: "Прочитано" })).toBeVisible();
  await expect(a.page.getByTestId("chat-presence")).toHaveText("в сети");

  // Boris types: Alice sees the typing line. Shift+Enter makes a new line, Enter sends.
  await composer(b.page).pressSequentially("Отлично", { delay: 20 });
  await expect(a.page.getByTestId("typing-line")).toHaveText(`${boris.firstName} печатает…`);
  await composer(b.page).press("Shift+Enter");
  await composer(b.page).pressSequentially("а у тебя?");
  await expect(composer(b.page)).toHaveValue("Отлично\nа у тебя?");
  await composer(b.page).press("Enter");
  await expect(bubble(a.page, "Отлично")).toContainText("а у тебя?");
  await expect(a.page.getByTestId("typing-line")).toHaveText("");
  // Both are in the dialog: nothing counts as unread, and Boris's message is read at once.
  await expect(sidebarBadge(a.page)).toHaveCount(0);
  await expect(bubble(b.page, "Отлично")).toHaveAttribute("data-read-status", "READ");

  // Alice's line drops. Her send fails (retry offered); Boris writes meanwhile.
  await a.context.setOffline(true);
  await composer(a.page).fill("Отправлю, когда появится связь");
  await composer(a.page).press("Enter");
  await expect(bubble(a.page, "Отправлю, когда появится связь")).toHaveAttribute("data-state", "failed");
  await expect(a.page.getByRole("button", { name: "Повторить" })).toBeVisible();
  await composer(b.page).fill("Ты пропала?");
  await composer(b.page).press("Enter");
  await expect(bubble(b.page, "Ты пропала?")).toHaveAttribute("data-read-status", /SENT|READ/);

  // Back online: what Boris wrote arrives, what Alice wrote goes out by itself, each exactly once.
  await a.context.setOffline(false);
  await expect(bubble(a.page, "Ты пропала?")).toHaveCount(1);
  await expect(bubble(b.page, "Отправлю, когда появится связь")).toHaveCount(1);
  await expect(bubble(a.page, "Отправлю, когда появится связь")).toHaveAttribute("data-read-status", /SENT|READ/);
  await expect(bubble(a.page, "Отправлю, когда появится связь")).toHaveCount(1);

  // Alice leaves for the list: a message now counts there, opening the dialog resets it.
  await a.page.getByRole("link", { name: "Ко всем сообщениям" }).click();
  await expect(row(a.page, boris)).toHaveAttribute("data-unread", "0");
  await composer(b.page).fill("Ещё одно");
  await composer(b.page).press("Enter");
  await expect(row(a.page, boris)).toHaveAttribute("data-unread", "1");
  await expect(sidebarBadge(a.page)).toHaveText("1");
  // The counts hold after a reload (the server agrees with the live arithmetic).
  await a.page.reload();
  await expect(sidebarBadge(a.page)).toHaveText("1");
  await row(a.page, boris).click();
  await expect(bubble(a.page, "Ещё одно")).toBeVisible();
  await expect(sidebarBadge(a.page)).toHaveCount(0);
  await expect(bubble(b.page, "Ещё одно")).toHaveAttribute("data-read-status", "READ");

  // Alice leaves: Boris sees when she was last here, in her gender ("была", never "был(а)").
  await a.context.close();
  await expect(b.page.getByTestId("chat-presence")).toHaveText(/^была в сети /);
  await b.context.close();
});

test("a read receipt lost to a dropped line is sent when the line returns (en)", async ({ browser }) => {
  const [alice, boris] = await friends("en");
  const a = await signedIn(browser, alice, "en");
  const b = await signedIn(browser, boris, "en");
  await a.page.goto(`/profile/${boris.id}`);
  await a.page.getByRole("link", { name: "Send a message" }).click();
  await expect(a.page).toHaveURL(/\/im\/\d+$/);
  const dialogUrl = a.page.url();
  const dialogId = dialogUrl.split("/").pop();
  await expect(a.page.getByText("The conversation has started, no messages yet")).toBeVisible();
  await b.page.goto(dialogUrl);
  await expect(composer(b.page)).toBeVisible();

  // Alice's requests fail while her socket stays open: Boris's message reaches her, its receipt does not.
  const receipt = (req: { method(): string; url(): string }) => req.method() === "PUT" && req.url().endsWith(`/api/v1/dialogs/${dialogId}`);
  await a.page.route(`**/api/v1/dialogs/${dialogId}`, (route) => (route.request().method() === "PUT" ? route.abort("internetdisconnected") : route.fallback()));
  const failed = a.page.waitForEvent("requestfailed", { predicate: receipt, timeout: 30_000 });
  await composer(b.page).fill("Are you there?");
  await composer(b.page).press("Enter");
  await expect(bubble(a.page, "Are you there?")).toBeVisible();
  await failed;
  await expect(bubble(b.page, "Are you there?")).toHaveAttribute("data-read-status", "SENT");

  // The line returns (the browser says so): the receipt goes out, Boris sees it read, nothing stays unread.
  await a.page.unroute(`**/api/v1/dialogs/${dialogId}`);
  const sent = a.page.waitForResponse((res) => receipt(res.request()) && res.ok(), { timeout: 30_000 });
  await a.page.evaluate(() => window.dispatchEvent(new Event("online")));
  await sent;
  await expect(bubble(b.page, "Are you there?")).toHaveAttribute("data-read-status", "READ");
  await a.page.getByRole("link", { name: "All messages" }).click();
  await expect(row(a.page, boris)).toHaveAttribute("data-unread", "0");
  await a.page.reload();
  await expect(row(a.page, boris)).toHaveAttribute("data-unread", "0");
  await expect(sidebarBadge(a.page)).toHaveCount(0);
  await Promise.all([a.context.close(), b.context.close()]);
});

test("a read receipt that fails while the line is up is sent again shortly, with no event to wait for (ru)", async ({ browser }) => {
  const [alice, boris] = await friends("ru");
  const a = await signedIn(browser, alice);
  const b = await signedIn(browser, boris);
  await a.page.goto(`/profile/${boris.id}`);
  await a.page.getByRole("link", { name: "Написать сообщение" }).click();
  await expect(a.page).toHaveURL(/\/im\/\d+$/);
  const dialogUrl = a.page.url();
  const dialogId = dialogUrl.split("/").pop();
  await b.page.goto(dialogUrl);
  await expect(composer(b.page)).toBeVisible();

  // Alice's first receipt fails (a request that left while the line was down ends after it came back: no
  // "online" event follows); the next one goes through by itself.
  const receipt = (req: { method(): string; url(): string }) => req.method() === "PUT" && req.url().endsWith(`/api/v1/dialogs/${dialogId}`);
  let aborted = 0;
  await a.page.route(`**/api/v1/dialogs/${dialogId}`, (route) => {
    if (route.request().method() !== "PUT" || aborted > 0) return route.fallback();
    aborted += 1;
    return route.abort("connectionreset");
  });
  const failed = a.page.waitForEvent("requestfailed", { predicate: receipt, timeout: 30_000 });
  const sent = a.page.waitForResponse((res) => receipt(res.request()) && res.ok(), { timeout: 30_000 });
  await composer(b.page).fill("Ты здесь?");
  await composer(b.page).press("Enter");
  await expect(bubble(a.page, "Ты здесь?")).toBeVisible();
  await failed;
  await sent;
  expect(aborted).toBe(1);
  await expect(bubble(b.page, "Ты здесь?")).toHaveAttribute("data-read-status", "READ");
  await a.page.getByRole("link", { name: "Ко всем сообщениям" }).click();
  await expect(row(a.page, boris)).toHaveAttribute("data-unread", "0");
  await Promise.all([a.context.close(), b.context.close()]);
});

test("chat in English on a phone: list and chat as two screens, presence, typing and ticks", async ({ browser }) => {
  const [alice, boris] = await friends("en");
  const a = await signedIn(browser, alice, "en");
  const b = await signedIn(browser, boris, "en");
  await b.page.setViewportSize({ width: 390, height: 780 });

  await a.page.goto(`/im?recipientId=${boris.id}`);
  await expect(a.page).toHaveURL(/\/im\/\d+$/);
  await expect(a.page.getByText("The conversation has started, no messages yet")).toBeVisible();
  await composer(a.page).fill("Hello from Alice");
  await a.page.getByRole("button", { name: "Send" }).click();
  await expect(bubble(a.page, "Hello from Alice").getByRole("img", { name: "Sent, not read yet" })).toBeVisible();

  // On the phone the list is its own screen; the bottom bar's badge counts the message.
  await b.page.goto("/im");
  const phoneBar = b.page.getByRole("navigation", { name: "Navigation" });
  await expect(phoneBar.getByTestId("im-unread-badge")).toHaveText("1");
  await expect(row(b.page, alice).getByTestId("dialog-preview")).toHaveText("Hello from Alice");
  await row(b.page, alice).click();
  await expect(b.page.getByTestId("dialog-list")).toHaveCount(0);
  await expect(bubble(b.page, "Hello from Alice")).toBeVisible();
  await expect(phoneBar.getByTestId("im-unread-badge")).toHaveCount(0);
  await expect(bubble(a.page, "Hello from Alice").getByRole("img", { name: "Read" })).toBeVisible();
  await expect(b.page.getByTestId("chat-presence")).toHaveText("online");

  await composer(b.page).pressSequentially("Hi", { delay: 20 });
  await expect(a.page.getByTestId("typing-line")).toHaveText(`${boris.firstName} is typing…`);
  await composer(b.page).press("Enter");
  await expect(bubble(a.page, "Hi")).toBeVisible();

  // Back to the list on the phone, by the header's back link.
  await b.page.getByRole("link", { name: "All messages" }).click();
  await expect(row(b.page, alice).getByTestId("dialog-preview")).toHaveText("You: Hi");

  await Promise.all([a.context.close(), b.context.close()]);
});

test("someone else's dialog looks like a dialog that does not exist; an impossible id is an unknown path", async ({ page }) => {
  const [alice, boris] = await friends("ru");
  const api = await apiAs(alice);
  const created = await api.post("/api/v1/dialogs", { data: { recipientId: boris.id } });
  expect(created.ok()).toBe(true);
  const { id } = (await created.json()) as { id: number };
  await api.dispose();

  await signIn(page, await createUser({ firstName: "Вера", lastName: `Чат${letters()}` }));
  const response = await page.goto(`/im/${id}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "Диалог не найден" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Ко всем сообщениям" })).toBeVisible();
  // Past any id: the news page, as for every unknown path (spec section 2), never an error.
  await page.goto("/im/99999999999999999999");
  await expect(page).toHaveURL(/\/$/);
});
