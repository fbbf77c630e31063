import type { Browser, Page, TestInfo } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { createUser, expect as baseExpect, signIn, test, type TestUser } from "./fixtures";
import { createPost } from "./posts-support";
import { apiAs, befriend } from "./profile-support";

// Issue 27: B shares A's post with a comment of their own; A hears of it in the bell; the repost's card
// shows the original; A deletes the original and B's repost says so. One journey per language, with
// the repost's card looked at light and dark, on a desktop and at 390 px.

// Two browsers and a production server share a busy machine: generous timeouts, and unique Cyrillic
// surnames (names take letters only) so that parallel runs never meet.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 300_000 });
const surname = () => `Репост${[..."абвгдежзиклмнопрстуфхцчшэюя"].sort(() => Math.random() - 0.5).slice(0, 6).join("")}`;

const TEXT = {
  ru: {
    names: ["Алиса", "Борис"],
    share: "Поделиться",
    dialog: "Поделиться записью",
    comment: "Ваш комментарий",
    shared: "Запись появилась на вашей стене",
    sentence: "Поделились вашей записью",
    gone: "Запись удалена",
    actions: "Действия с записью",
    delete: "Удалить",
    deleteTitle: "Удалить запись?",
    words: "Очень советую прочитать!",
    oneComment: "1 комментарий",
    deletedNote: "Запись удалена.",
    restore: "Восстановить",
    bComment: "Интересно, спасибо за рассказ!",
    commentDeleted: "Комментарий удалён.",
    recover: "Восстановить",
  },
  en: {
    names: ["Alice", "Boris"],
    share: "Share",
    dialog: "Share this post",
    comment: "Your comment",
    shared: "The post is now on your wall",
    sentence: "Shared your post",
    gone: "Post deleted",
    actions: "Post actions",
    delete: "Delete",
    deleteTitle: "Delete the post?",
    words: "Highly recommended reading!",
    oneComment: "1 comment",
    deletedNote: "Post deleted.",
    restore: "Restore",
    bComment: "Interesting, thanks for the story!",
    commentDeleted: "Comment deleted.",
    recover: "Recover",
  },
} as const;
type Lang = keyof typeof TEXT;

async function signedIn(browser: Browser, user: TestUser, lang: Lang, opts: { theme?: "light" | "dark"; width?: number } = {}) {
  const phone = opts.width ? { viewport: { width: opts.width, height: 844 }, isMobile: true, hasTouch: true } : {};
  const context = await browser.newContext({ locale: lang === "en" ? "en-US" : "ru-RU", colorScheme: opts.theme ?? "light", ...phone });
  if (opts.theme) await context.addInitScript((theme) => localStorage.setItem("theme", theme), opts.theme);
  if (lang === "en") await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
  const page = await context.newPage();
  // The fixtures' 5xx guard watches only its own page: these pages get their own.
  const failures: string[] = [];
  page.on("response", (res) => void (res.status() >= 500 && failures.push(`${res.status()} ${res.url()}`)));
  await signIn(page, user);
  return { context, page, failures };
}

async function noSideScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

async function journey(browser: Browser, lang: Lang, testInfo: TestInfo) {
  const T = TEXT[lang];
  const [alice, boris] = await Promise.all(T.names.map((firstName) => createUser({ firstName, lastName: surname(), language: lang })));
  const [apiA, apiB] = await Promise.all([apiAs(alice), apiAs(boris)]);
  await befriend(apiA, alice.id, apiB, boris.id);
  const title = `${lang === "ru" ? "Поход" : "Hike"} ${surname().slice(6)}`;
  const original = await createPost(apiA, { title, postText: "<p>Прошли двадцать километров вдоль реки.</p>" });
  await apiB.post(`/api/v1/post/${original.id}/like`, { data: { type: "POST", reactionType: "heart" } });

  const a = await signedIn(browser, alice, lang);
  const b = await signedIn(browser, boris, lang);
  await Promise.all([a.page.goto("/"), b.page.goto("/")]);
  await expect(a.page.getByTestId("bell")).toBeVisible();

  // Boris shares Alice's post from his feed, with words of his own.
  const bCard = b.page.getByTestId("post-card").filter({ hasText: title }).first();
  await bCard.getByRole("button", { name: T.share }).click();
  const dialog = b.page.getByRole("alertdialog", { name: T.dialog });
  await dialog.getByLabel(T.comment).fill(T.words);
  await dialog.getByRole("button", { name: T.share }).click();
  await expect(b.page.getByText(T.shared)).toBeVisible();

  // Alice hears of it live: the bell's newest entry names Boris, says he shared her post and its title.
  await expect(a.page.getByTestId("bell-badge")).toBeVisible();
  await a.page.getByTestId("bell").click();
  const entry = a.page.getByTestId("bell-panel").getByTestId("notification").first();
  await expect(entry).toContainText(T.sentence);
  await expect(entry).toContainText(boris.firstName);
  await expect(entry).toContainText(`${T.sentence}`);
  await expect(entry).toContainText(title);
  await entry.click();
  // The entry leads to Boris's repost: his words, and the original inside with its author, text and counts.
  await expect(a.page).toHaveURL(/\/post\/\d+/);
  const repostId = Number(new URL(a.page.url()).pathname.split("/").pop());
  const repostCard = a.page.locator(`[data-testid="post-card"][data-post-id="${repostId}"]`);
  await expect(repostCard).toContainText(T.words);
  const inner = repostCard.getByTestId("repost-original");
  await expect(inner).toContainText(alice.firstName);
  await expect(inner).toContainText(title);
  await expect(inner).toContainText("Прошли двадцать километров");
  await expect(inner.getByTestId("repost-original-counts")).toContainText("1");

  // Live counts of the original: Alice comments on her own post, Boris's open repost page counts it.
  // The comment is written once Boris's socket watches the original (its WATCH_POSTS frame is sent).
  const watching = new Promise<void>((resolve) =>
    b.page.on("websocket", (ws) =>
      ws.on("framesent", (frame) => {
        if (typeof frame.payload === "string" && frame.payload.includes("WATCH_POSTS") && frame.payload.includes(String(original.id))) resolve();
      }),
    ),
  );
  await b.page.goto(`/post/${repostId}`);
  const bInner = b.page.getByTestId("repost-original");
  await expect(bInner).toContainText(title);
  await watching;
  await apiA.post(`/api/v1/post/${original.id}/comment`, { data: { commentText: "Спасибо, что поделились!" } });
  await expect(bInner.getByTestId("repost-original-comments")).toHaveText(T.oneComment);

  // The repost's card looked at: light and dark, desktop and 390 px.
  for (const theme of ["light", "dark"] as const) {
    for (const width of [undefined, 390]) {
      const s = await signedIn(browser, boris, lang, { theme, width });
      await s.page.goto(`/post/${repostId}`);
      await expect(s.page.locator("html")).toHaveAttribute("data-theme", theme);
      await expect(s.page.getByTestId("repost-original")).toContainText(title);
      if (width) await noSideScroll(s.page);
      await s.page.screenshot({ path: testInfo.outputPath(`repost-${lang}-${theme}-${width ?? "desktop"}.png`), fullPage: true });
      expect(s.failures).toEqual([]);
      await s.context.close();
    }
  }

  // Alice deletes the original on her wall; Boris's repost then says the post was deleted.
  await a.page.goto("/profile");
  const aCard = a.page.locator(`[data-testid="post-card"][data-post-id="${original.id}"]`);
  await aCard.getByRole("button", { name: T.actions }).click();
  await a.page.getByRole("menuitem", { name: T.delete }).click();
  await a.page.getByRole("alertdialog", { name: T.deleteTitle }).getByRole("button", { name: T.delete }).click();
  await expect(aCard).toHaveCount(0);
  await b.page.reload();
  await expect(b.page.getByTestId("repost-gone")).toHaveText(T.gone);
  await expect(b.page.getByTestId("post-card").first()).toContainText(T.words);
  await b.page.screenshot({ path: testInfo.outputPath(`repost-gone-${lang}.png`), fullPage: true });

  // In its place on Alice's wall: «Запись удалена. Восстановить». She restores it; the repost shows it again.
  const note = a.page.locator(`[data-testid="post-deleted"][data-post-id="${original.id}"]`);
  await expect(note).toContainText(T.deletedNote);
  await a.page.screenshot({ path: testInfo.outputPath(`post-deleted-${lang}.png`), fullPage: true });
  await note.getByRole("button", { name: T.restore }).click();
  await expect(aCard).toContainText(title);
  await b.page.reload();
  await expect(b.page.getByTestId("repost-original")).toContainText(title);

  // Boris comments on Alice's post; she, its author, removes his comment; he sees the placeholder, with no way back.
  await apiB.post(`/api/v1/post/${original.id}/comment`, { data: { commentText: T.bComment } });
  await a.page.goto(`/post/${original.id}`);
  const bComment = a.page.getByTestId("comment").filter({ hasText: T.bComment });
  await bComment.getByTestId("comment-delete-as-post-author").click();
  const placeholder = a.page.locator(`[data-testid="comment"][data-deleted="true"]`);
  await expect(placeholder).toContainText(T.commentDeleted);
  await expect(placeholder.getByRole("button", { name: T.recover })).toBeVisible();
  await b.page.goto(`/post/${original.id}`);
  await expect(b.page.getByTestId("comment").filter({ hasText: T.bComment })).toHaveCount(0);
  const bPlaceholder = b.page.locator(`[data-testid="comment"][data-deleted="true"]`);
  await expect(bPlaceholder).toHaveText(T.commentDeleted);
  await expect(bPlaceholder.getByRole("button")).toHaveCount(0);

  expect([...a.failures, ...b.failures]).toEqual([]);
  await Promise.all([apiA.dispose(), apiB.dispose(), a.context.close(), b.context.close()]);
}

test("B shares A's post with a comment; A hears of it; the original's deletion shows on the repost (ru)", async ({ browser }, testInfo) => {
  await journey(browser, "ru", testInfo);
});

test("B shares A's post with a comment; A hears of it; the original's deletion shows on the repost (en)", async ({ browser }, testInfo) => {
  await journey(browser, "en", testInfo);
});
