import type { Browser, Page } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { createUser, letters, expect as baseExpect, signIn, test, type TestUser } from "./fixtures";
import { createPost } from "./posts-support";
import { apiAs, befriend } from "./profile-support";

// Two clients and a production server share a busy machine: give live steps more than the default.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 300_000 });

async function signedIn(browser: Browser, user: TestUser, locale: "ru" | "en"): Promise<Page> {
  const context = await browser.newContext({ locale: locale === "en" ? "en-US" : "ru-RU" });
  if (locale === "en") await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
  const page = await context.newPage();
  await signIn(page, user);
  return page;
}

const TEXT = {
  ru: { comment: "Отличная запись, поздравляю!", sentence: "Комментарий к вашей записи", markAll: "Отметить все как прочитанные", postTitle: "Запись" },
  en: { comment: "Great post, congratulations!", sentence: "Commented on your post", markAll: "Mark all as read", postTitle: "Post" },
} as const;

for (const locale of ["ru", "en"] as const) {
  test(`a friend comments on my post: toast and badge live, the bell shows it, its link opens the post, mark all read clears the badge (${locale})`, async ({ browser }) => {
    const text = TEXT[locale];
    const [me, friend] = await Promise.all([
      createUser({ firstName: locale === "en" ? "Alice" : "Алиса", lastName: `Увед${letters()}`, language: locale }),
      createUser({ firstName: locale === "en" ? "Boris" : "Борис", lastName: `Увед${letters()}`, language: locale }),
    ]);
    const [apiMe, apiFriend] = await Promise.all([apiAs(me), apiAs(friend)]);
    await befriend(apiMe, me.id, apiFriend, friend.id);
    // Start from a clean bell: the approval of the friendship is already an unread notification.
    expect((await apiMe.put("/api/v1/notifications/readed")).status()).toBe(200);
    const post = await createPost(apiMe, { title: `Весна ${letters()}`, postText: "<p>Первый тёплый день в этом году.</p>" });

    const page = await signedIn(browser, me, locale);
    // The live part needs the socket subscribed first: wait for the sidecar's READY frame.
    const socketReady = page
      .waitForEvent("websocket", { timeout: 60_000 })
      .then((ws) => ws.waitForEvent("framereceived", { predicate: (f) => String(f.payload).includes('"READY"'), timeout: 60_000 }));
    await page.goto("/");
    await socketReady;
    const bell = page.getByTestId("bell");
    await expect(bell).toBeVisible();
    await expect(page.getByTestId("bell-badge")).toHaveCount(0);

    // The friend comments (another client): a toast and the badge arrive without a reload.
    const res = await apiFriend.post(`/api/v1/post/${post.id}/comment`, { data: { commentText: text.comment } });
    expect(res.status(), await res.text()).toBeLessThan(300);
    const friendName = `${friend.firstName} ${friend.lastName}`;
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: friendName })).toContainText(text.comment);
    await expect(page.getByTestId("bell-badge")).toHaveText("1");

    // The bell shows it with the name, the sentence of its type and the comment.
    await bell.click();
    const panel = page.getByTestId("bell-panel");
    const entry = panel.getByTestId("notification").first();
    await expect(entry).toContainText(friendName);
    await expect(entry).toContainText(text.sentence);
    await expect(entry).toContainText(text.comment);
    await expect(entry).toHaveAttribute("data-type", "POST_COMMENT");

    // Its link opens the post.
    await entry.click();
    await expect(page).toHaveURL(new RegExp(`/post/${post.id}(#.*)?$`));
    await expect(page.getByRole("heading", { level: 1, name: text.postTitle })).toBeVisible();
    await expect(page.getByTestId("post-card")).toContainText(post.title);

    // Mark all as read clears the list and the badge.
    await bell.click();
    await panel.getByTestId("bell-mark-all").click();
    await expect(page.getByTestId("bell-badge")).toHaveCount(0);
    await expect(panel.getByTestId("notification")).toHaveCount(0);
    await page.keyboard.press("Escape");
    await page.reload();
    await expect(page.getByTestId("bell")).toBeVisible();
    await expect(page.getByTestId("bell-badge")).toHaveCount(0);

    // /push keeps the whole list (read now), rendered with the page.
    await page.goto("/push");
    const onPush = page.getByTestId("push-list").getByTestId("notification").filter({ hasText: text.comment });
    await expect(onPush).toBeVisible();
    await expect(onPush).toHaveAttribute("data-read", "true");

    await Promise.all([apiMe.dispose(), apiFriend.dispose()]);
  });
}
