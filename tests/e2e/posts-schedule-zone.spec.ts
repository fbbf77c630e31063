import { createUser, expect, signIn, test } from "./fixtures";
import { useLanguage } from "./language-support";
import { apiAs } from "./profile-support";
import { localDay } from "./posts-support";

// Issue 24 item 11 (docs/adr/0115): the schedule chip states the hour the reader picked, in the reader's
// zone. In Moscow (UTC+3) picking 19:00 said «Публикация … в 16:00» (UTC); the post itself was right.

for (const lang of ["ru", "en"] as const) {
  test.describe(lang === "ru" ? "по-русски" : "in English", () => {
    test.use({ timezoneId: "Europe/Moscow" });
    useLanguage(lang);

    test("the schedule chip and the queued line say the picked hour, and the post is due at that hour", async ({ page, context }) => {
      const me = await createUser({ firstName: "Мария", lastName: "Часова", language: lang });
      await context.addInitScript((id) => localStorage.setItem(`krug.postHints.${id}`, "done"), me.id);
      await signIn(page, me);
      const ru = lang === "ru";
      await page.goto("/profile");
      await page.getByTestId("composer-open").click();
      const form = page.getByTestId("post-form");
      const title = ru ? "Вечерний пост" : "Evening post";
      await form.getByLabel(ru ? "Тема" : "Title").fill(title);
      await form.getByTestId("post-editor").click();
      await page.keyboard.type(ru ? "Выйдет вечером по Москве." : "Out in the Moscow evening.");
      await form.getByRole("button", { name: ru ? "Отложить" : "Schedule" }).click();
      const schedule = page.getByRole("dialog", { name: ru ? "Отложенная публикация" : "Scheduled publication" });
      const day = localDay(2); // a day ahead in every zone
      await schedule.getByLabel(ru ? "1. Дата" : "1. Date").fill(day);
      await schedule.getByLabel(ru ? "2. Время" : "2. Time").selectOption("19");
      await schedule.getByRole("button", { name: ru ? "Подтвердить" : "Confirm" }).click();

      const clock = ru ? "19:00" : "07:00 PM";
      const chip = form.getByTestId("schedule-chip");
      await expect(chip).toContainText(clock);
      await expect(chip).not.toContainText(ru ? "16:00" : "04:00");
      await form.getByRole("button", { name: ru ? "Запланировать" : "Schedule", exact: true }).click();

      const queued = page.getByTestId("post-card").filter({ hasText: title }).getByTestId("post-queued");
      await expect(queued).toContainText(clock);
      // 19:00 in Moscow is 16:00 UTC: the stored time is the one the chip named.
      const api = await apiAs(me);
      const wall = await (await api.get(`/api/v1/post?accountIds=${me.id}&page=0&size=5`)).json();
      const post = wall.content.find((p: { title: string }) => p.title === title);
      expect(post.publishDate).toBe(`${day}T16:00:00.000Z`);
      await api.dispose();
    });
  });
}
