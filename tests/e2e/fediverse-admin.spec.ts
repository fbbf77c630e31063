import { createUser, expect, signedInContext, test } from "./fixtures";

// Issue 43 (docs/adr/0174): an administrator blocks a whole fediverse server from the admin area with a
// reason, sees it listed and in the audit log, and lifts the block; a moderator reads that only
// administrators may. Russian in the light theme on a desktop, English in the dark theme on a 390 px phone.

const TEXTS = {
  ru: {
    title: "Федиверс",
    host: "Сервер",
    reason: "Причина",
    block: "Заблокировать сервер",
    blocked: (h: string) => `Сервер ${h} заблокирован`,
    unblocked: "Разблокировано",
    unblock: "Разблокировать",
    invalid: "Укажите имя сервера, например social.example",
    audit: "заблокировал сервер федиверса",
    adminsOnly: "Блокировать и разблокировать серверы могут только администраторы.",
  },
  en: {
    title: "Fediverse",
    host: "Server",
    reason: "Reason",
    block: "Block the server",
    blocked: (h: string) => `${h} is blocked`,
    unblocked: "Unblocked",
    unblock: "Unblock",
    invalid: "Give the server's name, e.g. social.example",
    audit: "blocked a fediverse server",
    adminsOnly: "Only administrators can block and unblock servers.",
  },
} as const;

for (const lang of ["ru", "en"] as const) {
  test(`an administrator blocks a fediverse server and lifts the block (${lang})`, async ({ browser }) => {
    test.setTimeout(60_000);
    const x = TEXTS[lang];
    const phone = lang === "en";
    const admin = await createUser({ role: "ADMIN", language: lang });
    const { context, page } = await signedInContext(browser, admin, { lang, theme: lang === "ru" ? "light" : "dark", phone });
    const host = `spam-${lang}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}.example`;

    if (phone) await page.goto("/admin/fediverse");
    else {
      await page.goto("/admin");
      await page.getByRole("link", { name: x.title, exact: true }).click();
    }
    await expect(page.getByRole("heading", { level: 1, name: x.title })).toBeVisible();
    const form = page.getByTestId("block-server-form");

    // Not a host: said under the field, nothing sent.
    await form.getByLabel(x.host).fill("not a host!");
    await form.getByLabel(x.reason).fill("Спам");
    await form.getByRole("button", { name: x.block }).click();
    await expect(form.getByText(x.invalid)).toBeVisible();

    await form.getByLabel(x.host).fill(`https://${host.toUpperCase()}/about`);
    await form.getByRole("button", { name: x.block }).click();
    await expect(page.getByText(x.blocked(host)).first()).toBeVisible();
    const row = page.getByTestId("blocked-servers").getByRole("row", { name: new RegExp(host) });
    await expect(row).toContainText("Спам");
    if (phone) {
      // The table scrolls inside its card, never the page.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    }

    await page.goto("/admin/audit");
    await expect(page.getByTestId("audit-table")).toContainText(x.audit);

    await page.goto("/admin/fediverse");
    await page.getByTestId(`unblock-servers-${host}`).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByLabel(x.reason).fill("Ошибка");
    await dialog.getByRole("button", { name: x.unblock }).click();
    await expect(page.getByText(x.unblocked, { exact: true }).first()).toBeVisible();
    // Its row is gone (other journeys may hold blocks of their own on this server).
    await expect(page.getByTestId(`unblock-servers-${host}`)).toHaveCount(0);
    await context.close();

    const moderator = await createUser({ role: "MODERATOR", language: lang });
    const seen = await signedInContext(browser, moderator, { lang, theme: "light", phone });
    await seen.page.goto("/admin/fediverse");
    await expect(seen.page.getByText(x.adminsOnly)).toBeVisible();
    await expect(seen.page.getByTestId("block-server-form")).toHaveCount(0);
    await seen.context.close();
  });
}
