import type { Browser } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { createUser, expect, signIn, test, type TestUser } from "../e2e/fixtures";
import { createPost } from "../e2e/posts-support";
import { apiAs, befriend } from "../e2e/profile-support";

// `npm run tour`: every route of the product as a person sees it, in both languages, both themes and
// the widths of issue 14 (desktop, phone, the narrowest phone), saved as PNGs in tour-results/ for a
// person to look at. Nothing is asserted beyond "the page answered and nothing overflows sideways":
// this is a looking tool, not a test, and it is not part of `npm test`.

const LOCALES = (process.env.TOUR_LOCALES ?? "ru,en").split(",") as ("ru" | "en")[];
const THEMES = (process.env.TOUR_THEMES ?? "light,dark").split(",");
const WIDTHS = (process.env.TOUR_WIDTHS ?? "1280,390,320").split(",").map(Number);

type Cast = { me: TestUser; friend: TestUser; admin: TestUser; dialogId: number; postId: number };

async function cast(): Promise<Cast> {
  const [me, friend, admin] = await Promise.all([
    createUser({ firstName: "Анна", lastName: "Смирнова" }),
    createUser({ firstName: "Борис", lastName: "Орлов" }),
    createUser({ firstName: "Вера", lastName: "Админова", role: "ADMIN" }),
  ]);
  const [apiMe, apiFriend] = await Promise.all([apiAs(me), apiAs(friend)]);
  await befriend(apiMe, me.id, apiFriend, friend.id);
  const post = await createPost(apiFriend, { title: "Выходные в горах", postText: "<p>Поднялись к озеру, вода ледяная. <strong>Очень</strong> красиво.</p>", tags: [{ name: "горы" }] });
  await createPost(apiMe, { title: "Первый пост", postText: "<p>Привет, Круг!</p>" });
  // A city in the profile, so the weather card (the e2e server's fake provider) shows a forecast.
  expect((await apiMe.put("/api/v1/account/me", { data: { country: "Россия", city: "Казань" } })).status()).toBe(200);
  await apiFriend.post(`/api/v1/post/${post.id}/comment`, { data: { commentText: "Вода правда ледяная!" } });
  const dialog = await apiMe.post("/api/v1/dialogs", { data: { recipientId: friend.id } });
  const { id: dialogId } = (await dialog.json()) as { id: number };
  await apiMe.post(`/api/v1/dialogs/${dialogId}/messages`, { data: { messageText: "Привет! Как съездили?" } });
  await apiFriend.post(`/api/v1/dialogs/${dialogId}/messages`, { data: { messageText: "Отлично, фото в посте 🙂" } });
  await Promise.all([apiMe.dispose(), apiFriend.dispose()]);
  return { me, friend, admin, dialogId, postId: post.id };
}

async function shoot(browser: Browser, who: TestUser | null, paths: string[], tag: string) {
  for (const locale of LOCALES)
    for (const theme of THEMES)
      for (const width of WIDTHS) {
        const context = await browser.newContext({ locale: locale === "en" ? "en-US" : "ru-RU", viewport: { width, height: 900 }, colorScheme: theme === "dark" ? "dark" : "light" });
        await context.addCookies([{ name: "NEXT_LOCALE", value: locale, url: baseURL }]);
        await context.addInitScript((t) => localStorage.setItem("theme", t), theme);
        const page = await context.newPage();
        if (who) await signIn(page, who);
        for (const path of paths) {
          const response = await page.goto(path);
          expect(response?.status(), path).toBeLessThan(500);
          await page.waitForLoadState("networkidle");
          const name = `${tag}-${path.replace(/[^a-z0-9]+/gi, "_").replace(/^_|_$/g, "") || "news"}-${locale}-${theme}-${width}.png`;
          await page.screenshot({ path: `tour-results/${name}`, fullPage: true });
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          expect(overflow, `${path} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
        }
        await context.close();
      }
}

test.describe.configure({ timeout: 1_800_000 });

test("every route, both languages, both themes, three widths", async ({ browser }) => {
  const { me, friend, admin, dialogId, postId } = await cast();
  await shoot(browser, null, ["/login", "/registration", "/forgot", `/profile/${friend.id}`], "guest");
  await shoot(
    browser,
    me,
    ["/", "/profile", `/profile/${friend.id}`, "/friends", "/friends/find", "/search?text=Борис", "/push", "/im", `/im/${dialogId}`, "/settings", "/calculator", "/weather"],
    "user",
  );
  await shoot(browser, admin, ["/admin", "/admin/users", "/admin/publications", "/admin/comments", "/admin/moderators", "/admin/audit", `/admin/publications/${postId}`], "admin");
});
