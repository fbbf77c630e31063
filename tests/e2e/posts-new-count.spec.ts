import { createUser, expect, signIn, test } from "./fixtures";
import { useLanguage } from "./language-support";
import { apiAs, befriend } from "./profile-support";
import { createPost } from "./posts-support";

// Issue 24 item 17: the "new posts" pill counts every post newer than the top of the feed; it said
// «5 новых записей» (the page size) after 13.

for (const lang of ["ru", "en"] as const) {
  test.describe(lang === "ru" ? "по-русски" : "in English", () => {
    useLanguage(lang);

    test("thirteen posts of a friend make a pill of thirteen", async ({ page }) => {
      test.setTimeout(120_000);
      const reader = await createUser({ firstName: "Нина", lastName: "Лентова", language: lang });
      const writer = await createUser({ firstName: "Олег", lastName: "Писарев", language: lang });
      const [readerApi, writerApi] = await Promise.all([apiAs(reader), apiAs(writer)]);
      await befriend(readerApi, reader.id, writerApi, writer.id);
      await createPost(writerApi, { title: "Старая запись", postText: "<p>Та, что уже в ленте</p>" });
      await signIn(page, reader);
      await page.goto("/");
      await expect(page.getByTestId("post-card").filter({ hasText: "Старая запись" })).toBeVisible();

      for (let i = 1; i <= 13; i++) await createPost(writerApi, { title: `Новая запись ${i}`, postText: `<p>Текст новой записи номер ${i}</p>` });
      const pill = page.getByRole("button", { name: lang === "ru" ? "13 новых записей" : "13 new posts" });
      // The pill asks again on every POST_PUBLISHED frame, and on focus; bring the tab to the front too.
      await expect(async () => {
        await page.evaluate(() => window.dispatchEvent(new Event("focus")));
        await expect(pill).toBeVisible({ timeout: 3_000 });
      }).toPass({ timeout: 60_000 });
      await pill.click();
      await expect(page.getByTestId("post-card").first()).toContainText("Новая запись 13");
      await expect(pill).toHaveCount(0);
      await Promise.all([readerApi.dispose(), writerApi.dispose()]);
    });
  });
}
