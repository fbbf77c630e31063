import { createUser, expect, signIn, test } from "./fixtures";
import { useLanguage } from "./language-support";
import { apiAs } from "./profile-support";
import { createPost } from "./posts-support";

// Issue 24 item 12 (docs/adr/0115): the admin's lists, the user card and the audit log show times in the
// reader's zone (the tz cookie of ADR 102), as the rest of the site; they were UTC with no zone named.

const ZONE = "Asia/Vladivostok"; // UTC+10 all year: its clock never equals UTC's

for (const lang of ["ru", "en"] as const) {
  test.describe(lang === "ru" ? "по-русски" : "in English", () => {
    test.use({ timezoneId: ZONE });
    useLanguage(lang);

    test("the audit log and the moderation list are in the reader's zone", async ({ page, context }) => {
      const admin = await createUser({ role: "ADMIN", language: lang, firstName: "Админ", lastName: "Восточный" });
      const author = await createUser({ language: lang, firstName: "Автор", lastName: "Приморский" });
      const authorApi = await apiAs(author);
      const post = (await createPost(authorApi, { title: "Запись из Владивостока", postText: "<p>Утро над бухтой</p>" })) as { id: number; title: string; time?: string };
      await authorApi.dispose();
      await signIn(page, admin);
      const blocked = await page.request.put(`/api/v1/admin/posts/${post.id}/block`, { data: { reason: "Проверка времени" } });
      expect(blocked.status(), await blocked.text()).toBe(200);
      const audit = await page.request.get(`/api/v1/admin/audit?accountId=${author.id}`);
      const created = new Date((await audit.json()).content[0].createdAt);
      const clock = (timeZone: string) => new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit", timeZone }).format(created);
      const local = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short", timeZone: ZONE }).format(created);
      const posted = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short", timeZone: ZONE }).format(new Date(post.time!));

      // A first visit: the server does not know the zone yet, so it says UTC and names it.
      await page.goto(`/admin/users/${author.id}`);
      const row = page.getByTestId("audit-table").getByRole("row").filter({ hasText: "Проверка времени" });
      await expect(row).toContainText(clock("UTC"));
      await expect(row).toContainText("UTC");
      await expect.poll(async () => (await context.cookies()).find((c) => c.name === "tz")?.value).toBe(ZONE);

      // From then on: the reader's own time, in the audit log and in the moderation list.
      await page.reload();
      await expect(row).toContainText(local);
      await expect(row).not.toContainText("UTC");
      await page.goto(`/admin/publications?author=${author.id}`);
      const listed = page.getByTestId(`post-row-${post.id}`);
      await expect(listed).toContainText(posted);
      await expect(listed).not.toContainText("UTC");
    });
  });
}
