import type { APIRequestContext, Page } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { createUser, letters, expect as baseExpect, signIn, test, type TestUser } from "./fixtures";
import { apiAs, befriend } from "./profile-support";

// A production server and a browser share a busy machine: page loads get more than the default 10 s.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

const LONG = "строка ".repeat(40).trim();

async function send(api: APIRequestContext, dialogId: number, messageText: string): Promise<void> {
  const res = await api.post(`/api/v1/dialogs/${dialogId}/messages`, { data: { messageText } });
  expect(res.status(), await res.text()).toBe(201);
}

/** How far the history is from its bottom, in pixels (0 when the newest message is at the bottom edge). */
const gapBelow = (page: Page) =>
  page.getByTestId("chat-history").evaluate((el) => Math.round(el.scrollHeight - el.scrollTop - el.clientHeight));

/**
 * The history opens at the newest message and follows new ones while the reader is there; scrolled up,
 * a new message is offered with a "to new messages" button instead, which takes the reader down and goes
 * (docs/adr/0154: whether the reader is at the bottom is watched with an IntersectionObserver, not read
 * from the layout on every scroll event).
 */
for (const locale of ["ru", "en"] as const) {
  test(`the chat history stays with the newest message and offers a jump when scrolled up (${locale})`, async ({ browser }) => {
    const en = locale === "en";
    const [alice, boris]: TestUser[] = await Promise.all([
      createUser({ firstName: en ? "Alice" : "Алиса", lastName: `Лента${letters()}`, language: locale }),
      createUser({ firstName: en ? "Boris" : "Борис", lastName: `Лента${letters()}`, language: locale }),
    ]);
    const [apiA, apiB] = await Promise.all([apiAs(alice), apiAs(boris)]);
    await befriend(apiA, alice.id, apiB, boris.id);
    const created = await apiA.post("/api/v1/dialogs", { data: { recipientId: boris.id } });
    expect(created.status(), await created.text()).toBe(201);
    const dialogId = ((await created.json()) as { id: number }).id;
    // Twelve long messages: more than a phone's screen of history.
    for (let i = 1; i <= 12; i++) await send(apiA, dialogId, `${i}. ${LONG}`);

    const context = await browser.newContext({ locale: en ? "en-US" : "ru-RU", viewport: { width: 390, height: 844 }, colorScheme: en ? "dark" : "light" });
    if (en) await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
    const page = await context.newPage();
    await signIn(page, boris);
    await page.goto(`/im/${dialogId}`);
    const history = page.getByTestId("chat-history");
    const jump = page.getByRole("button", { name: en ? "To new messages" : "К новым сообщениям" });

    // Opened at the newest: the last message in view, the first above it, no jump offered.
    await expect(history.getByTestId("message").filter({ hasText: "12." })).toBeInViewport();
    await expect(history.getByTestId("message").filter({ hasText: /^1\. / })).not.toBeInViewport();
    expect(await gapBelow(page)).toBeLessThan(96);
    await expect(jump).toHaveCount(0);

    // A new message while the reader is at the bottom: followed, still no button.
    await send(apiA, dialogId, `13. ${LONG}`);
    await expect(history.getByTestId("message").filter({ hasText: "13." })).toBeInViewport();
    await expect.poll(() => gapBelow(page)).toBeLessThan(96);
    await expect(jump).toHaveCount(0);

    // Scrolled up to the oldest: a new message does not pull the reader down but is offered.
    await history.evaluate((el) => el.scrollTo({ top: 0 }));
    await expect(history.getByTestId("message").filter({ hasText: /^1\. / })).toBeInViewport();
    await send(apiA, dialogId, `14. ${LONG}`);
    await expect(jump).toBeVisible();
    await expect(history.getByTestId("message").filter({ hasText: /^1\. / })).toBeInViewport();
    await expect(history.getByTestId("message").filter({ hasText: "14." })).not.toBeInViewport();

    // The button takes the reader to the newest and goes away.
    await jump.click();
    await expect(history.getByTestId("message").filter({ hasText: "14." })).toBeInViewport();
    await expect(jump).toHaveCount(0);

    // Scrolling down by hand to the bottom also clears the offer.
    await history.evaluate((el) => el.scrollTo({ top: 0 }));
    await send(apiA, dialogId, `15. ${LONG}`);
    await expect(jump).toBeVisible();
    await history.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect(jump).toHaveCount(0);
    await expect(history.getByTestId("message").filter({ hasText: "15." })).toBeInViewport();

    await Promise.all([apiA.dispose(), apiB.dispose(), context.close()]);
  });
}
