import { createUser, expect, signIn, test } from "./fixtures";
import { useLanguage } from "./language-support";
import { apiAs } from "./profile-support";
import { createPost } from "./posts-support";

// docs/adr/0152: the feed's cards come rendered from the server and hydration keeps them. When each card
// sat in a Suspense boundary of its own, a synchronous update during hydration made React render every
// card again on the client: the server's <article>s were removed and new ones put in their place, the
// page's largest paint came after the scripts instead of with the first paint.

for (const lang of ["ru", "en"] as const) {
  test.describe(lang === "ru" ? "по-русски" : "in English", () => {
    useLanguage(lang);

    test("the server's cards stay through hydration", async ({ page }) => {
      const reader = await createUser({ firstName: "Вера", lastName: "Гидратова", language: lang });
      const readerApi = await apiAs(reader);
      for (let i = 1; i <= 3; i++) {
        await createPost(readerApi, { title: `Запись ${i}`, postText: `<p>${"Достаточно длинный текст записи, чтобы быть самым большим на экране. ".repeat(4)}${i}</p>` });
      }
      await page.addInitScript(() => {
        const w = window as unknown as { __removedCards: number };
        w.__removedCards = 0;
        new MutationObserver((records) => {
          for (const r of records) for (const n of r.removedNodes) if (n instanceof Element && (n.matches("article") || n.querySelector("article"))) w.__removedCards++;
        }).observe(document, { childList: true, subtree: true });
      });
      await signIn(page, reader);
      await page.goto("/");
      const cards = page.getByTestId("post-card");
      await expect(cards).toHaveCount(3);
      // Hydrated: the card's menu opens (a client island inside the card).
      await expect(async () => {
        await cards.first().getByRole("button", { name: lang === "ru" ? "Действия с записью" : "Post actions" }).click();
        await expect(page.getByRole("menu")).toBeVisible({ timeout: 1_000 });
      }).toPass({ timeout: 15_000 });
      await page.keyboard.press("Escape");
      expect(await page.evaluate(() => (window as unknown as { __removedCards: number }).__removedCards)).toBe(0);
      // Still the server's cards, and still all of them.
      await expect(cards).toHaveCount(3);
      await readerApi.dispose();
    });
  });
}
