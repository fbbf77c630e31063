import { createUser, expect, signIn, test } from "./fixtures";

// Issue 30 §2 (docs/adr/0140): the statistics page shows the server's health at a glance — the same
// checks as /api/ready — in both languages; /api/metrics stays closed while METRICS_TOKEN is unset.
const texts = {
  ru: {
    title: "Состояние сервера: готов",
    database: "База данных",
    listener: "Живое соединение с базой",
    up: "Работает",
    jobs: /в очереди \d+, с ошибкой \d+/,
    backup: ["Резервная копия", "Ежедневной копии нет: не задан BACKUP_TARGET"],
  },
  en: {
    title: "Server health: ready",
    database: "Database",
    listener: "Realtime connection to the database",
    up: "Up",
    jobs: /\d+ waiting, \d+ failed/,
    backup: ["Backup", "No daily backup: BACKUP_TARGET is not set"],
  },
} as const;

for (const lang of ["ru", "en"] as const) {
  test(`the statistics page shows the server's health (${lang})`, async ({ browser, baseURL, request }) => {
    const admin = await createUser({ role: "ADMIN", language: lang, firstName: "Здоровье", lastName: "Сервера" });
    const context = await browser.newContext();
    if (lang === "en") {
      await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL! }]);
      await context.addInitScript(() => localStorage.setItem("selectedLanguage", "en"));
    }
    const page = await context.newPage();
    await signIn(page, admin);
    await page.goto("/admin");
    const t = texts[lang];
    const health = page.getByTestId("health");
    await expect(health.getByRole("heading", { level: 2 })).toHaveText(t.title);
    await expect(health).toHaveAttribute("data-ready", "true");
    await expect(page.getByTestId("health-database")).toContainText(t.database);
    await expect(page.getByTestId("health-database")).toContainText(t.up);
    await expect(page.getByTestId("health-listener")).toContainText(t.listener);
    await expect(page.getByTestId("health-listener")).toContainText(t.up);
    await expect(page.getByTestId("health-jobs")).toContainText(t.jobs);
    // The journeys' server has no BACKUP_TARGET (the backup runs are proven in tests/integration/backup-*.test.ts).
    for (const text of t.backup) await expect(page.getByTestId("health-backup")).toContainText(text);
    await context.close();

    const ready = await request.get("/api/ready");
    expect(ready.status()).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, database: "up", listener: "up" });
    expect((await request.get("/api/metrics", { headers: { authorization: "Bearer anything-at-all-0123456789" } })).status()).toBe(404);
  });
}
