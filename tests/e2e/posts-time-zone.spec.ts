import type { APIRequestContext } from "@playwright/test";
import { createUser, expect, signIn, test } from "./fixtures";
import { apiAs } from "./profile-support";
import { createPost, withDb } from "./posts-support";

// ADR 101: the browser tells the server its time zone (the "tz" cookie), and the server renders post
// times in it, so the page is right from its first paint and hydration has nothing to redo. Without the
// cookie (a first visit) the server writes UTC, named so, and the browser puts its own zone.

const PUBLISHED = "2025-03-05T22:30:00.000Z"; // 6 March 2025, 08:30 in Vladivostok (UTC+10, no DST)

/** The text of the server-rendered <time> of the post, as the document's HTML has it. */
async function serverTime(request: APIRequestContext): Promise<string> {
  const res = await request.get("/");
  expect(res.status()).toBe(200);
  const html = await res.text();
  const match = html.match(/<time dateTime="2025-03-05T22:30:00(?:\.000)?Z">([^<]*)<\/time>/);
  expect(match, "the post's time in the server's HTML").not.toBeNull();
  return match![1];
}

for (const lang of ["ru", "en"] as const) {
  test.describe(lang === "ru" ? "по-русски" : "in English", () => {
    test.use({ timezoneId: "Asia/Vladivostok" });
    test.beforeEach(async ({ context, baseURL }) => {
      if (lang === "en") {
        await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL! }]);
        await context.addInitScript(() => localStorage.setItem("selectedLanguage", "en"));
      }
    });

    test("post times are in the reader's zone from the server's first render on", async ({ page, context }) => {
      const me = await createUser({ firstName: "Zoya", lastName: "Vostok", language: lang });
      const post = await createPost(await apiAs(me), { title: lang === "ru" ? "Рассвет над бухтой" : "Dawn over the bay", postText: "<p>The sun came up over the Golden Horn bay.</p>" });
      await withDb((sql) => sql`update posts set publish_date = ${PUBLISHED} where id = ${post.id}`);
      await signIn(page, me);
      const day = lang === "ru" ? /6 марта 2025/ : /March 6, 2025/;
      const [utcClock, localClock] = lang === "ru" ? ["22:30", "08:30"] : ["10:30 PM", "08:30 AM"];

      // A first visit: the server does not know the zone and says UTC (the evening of the 5th).
      const first = await serverTime(page.request);
      expect(first).toContain(utcClock);
      expect(first).toMatch(/UTC/);

      // The browser shows its own zone and tells the server.
      await page.goto("/");
      const time = page.getByTestId("post-card").filter({ hasText: post.title }).locator(`time[datetime^="2025-03-05T22:30"]`).first();
      await expect(time).toHaveText(day);
      await expect(time).toContainText(localClock);
      await expect(time).not.toContainText("UTC");
      await expect.poll(async () => (await context.cookies()).find((c) => c.name === "tz")?.value).toBe("Asia/Vladivostok");

      // From now on the server renders the same text itself.
      const next = await serverTime(page.request);
      expect(next).toMatch(day);
      expect(next).toContain(localClock);
      expect(next).not.toMatch(/UTC/);
      expect(next).toBe(await time.textContent());

      // A cookie naming no zone is ignored: UTC again, and the browser writes the right one back.
      await context.addCookies([{ name: "tz", value: "Mars/Olympus_Mons", url: page.url() }]);
      expect(await serverTime(page.request)).toMatch(/UTC/);
      await page.reload();
      await expect(time).toContainText(localClock);
      await expect.poll(async () => (await context.cookies()).find((c) => c.name === "tz")?.value).toBe("Asia/Vladivostok");
    });
  });
}
