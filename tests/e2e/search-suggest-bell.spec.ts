import type { Browser, Page } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { nameLatin } from "../../lib/server/search/name-latin";
import { createUser, expect as baseExpect, signIn, test, type TestUser } from "./fixtures";
import { apiAs } from "./profile-support";

// Issue 27, finding and answering (docs/adr/0132): the header suggests people as one types and is walked
// by keyboard, a Latin spelling finds a Cyrillic name (and the search page's field keeps what was
// searched), and a friend request is accepted right in the bell, which opening marks read.
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 240_000 });

function letters(n = 6): string {
  const abc = "бвгдзклмнпрстф";
  return Array.from({ length: n }, () => abc[Math.floor(Math.random() * abc.length)] + "о").join("");
}

async function open(browser: Browser, user: TestUser, locale: "ru" | "en", theme: "light" | "dark", width: number): Promise<Page> {
  const context = await browser.newContext({ locale: locale === "en" ? "en-US" : "ru-RU", colorScheme: theme, viewport: { width, height: 860 }, timezoneId: "UTC" });
  if (locale === "en") await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
  const page = await context.newPage();
  await signIn(page, user);
  return page;
}

const TEXT = {
  ru: { accept: "Принять", accepted: "Заявка принята", all: "Все результаты по запросу", birthday: "Сегодня день рождения" },
  en: { accept: "Accept", accepted: "Request accepted", all: "All results for", birthday: "Birthday today" },
} as const;

for (const locale of ["ru", "en"] as const) {
  test(`header suggestions by keyboard, a Latin spelling finds a Cyrillic name, a request accepted from the bell (${locale})`, async ({ browser }, testInfo) => {
    const text = TEXT[locale];
    const tag = letters();
    const [me, gleb, asker] = await Promise.all([
      createUser({ firstName: locale === "en" ? "Alice" : "Алиса", lastName: `Поиск${letters()}`, language: locale }),
      createUser({ firstName: "Глеб", lastName: `Ж${tag}`, language: locale }),
      createUser({ firstName: "Юлия", lastName: `Ж${tag}`, language: locale }),
    ]);
    // Gleb is typed in Latin letters: «Глеб Ж…» as its key spells it.
    const typed = nameLatin(`Глеб Ж${tag}`);
    const apiAsker = await apiAs(asker);
    expect((await apiAsker.post(`/api/v1/friends/${me.id}/request`)).status()).toBe(200);

    const page = await open(browser, me, locale, "light", 1280);
    await page.goto("/");
    const field = page.locator("#header-search");
    await field.click();
    await field.pressSequentially(typed, { delay: 20 });
    const list = page.getByTestId("search-suggest");
    const options = list.getByRole("option");
    await expect(options.filter({ hasText: `Глеб Ж${tag}` })).toHaveCount(1);
    await expect(options.filter({ hasText: `Юлия Ж${tag}` })).toHaveCount(0);
    await expect(options.last()).toContainText(text.all);
    expect(await options.count()).toBeLessThanOrEqual(9);
    await page.screenshot({ path: testInfo.outputPath(`suggest-${locale}-light-desktop.png`) });

    // ↓ picks the first suggestion, ↑ past the top returns to the field, Escape closes, Enter opens.
    await field.press("ArrowDown");
    await expect(options.first()).toHaveAttribute("aria-selected", "true");
    await expect(field).toHaveAttribute("aria-activedescendant", (await options.first().getAttribute("id"))!);
    await field.press("ArrowUp");
    await expect(field).not.toHaveAttribute("aria-activedescendant", /.+/);
    await field.press("Escape");
    await expect(list).toBeHidden();
    await field.press("ArrowDown");
    await expect(list).toBeVisible();
    await expect(options.first()).toHaveAttribute("aria-selected", "true");
    await field.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/profile/${gleb.id}$`));
    await expect(page.getByRole("heading", { level: 1 })).toContainText(`Глеб Ж${tag}`);

    // Enter with nothing picked is the search page, whose field shows what was searched, and finds Gleb.
    await field.click();
    await field.fill(typed);
    await field.press("Enter");
    await expect(page).toHaveURL(/\/search\?/);
    await expect(page.locator("#search-query")).toHaveValue(typed);
    await expect(page.getByTestId("person-row").filter({ hasText: `Глеб Ж${tag}` })).toHaveCount(1);

    // The bell: the request with «Принять» right there; opening it marked it read (the badge goes).
    await expect(page.getByTestId("bell-badge")).toHaveText("1");
    await page.getByTestId("bell").click();
    const panel = page.getByTestId("bell-panel");
    const request = panel.locator("li").filter({ has: page.locator('[data-type="FRIEND_REQUEST"]') });
    await expect(request).toContainText(`Юлия Ж${tag}`);
    await expect(page.getByTestId("bell-badge")).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath(`bell-${locale}-light-desktop.png`) });
    await request.getByRole("button", { name: text.accept }).click();
    await expect(request.getByTestId("bell-request-answered")).toContainText(text.accepted);
    const side = await (await page.request.get(`/api/v1/account/${asker.id}`)).json();
    expect(side.statusCode).toBe("FRIEND");

    // Her birthday is today (in the reader's zone, UTC here): the mark on her row and on her page.
    const today = new Date();
    const born = `${today.getUTCFullYear() - 30}-${String(today.getUTCMonth() + 1).padStart(2, "0")}-${String(today.getUTCDate()).padStart(2, "0")}`;
    expect((await apiAsker.put("/api/v1/account/me", { data: { birthDate: born } })).status()).toBe(200);
    await page.keyboard.press("Escape");
    await page.goto("/friends");
    const row = page.getByTestId("person-row").filter({ hasText: `Юлия Ж${tag}` });
    await expect(row.getByTestId("birthday-today")).toContainText(text.birthday);
    await page.screenshot({ path: testInfo.outputPath(`birthday-${locale}-light-desktop.png`) });
    await page.goto(`/profile/${asker.id}`);
    await expect(page.getByTestId("birthday-today")).toContainText(text.birthday);
    // Not a friend: no mark, whatever the date (Gleb shares her birthday but not the friendship).
    await page.goto(`/profile/${gleb.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(`Глеб Ж${tag}`);
    await expect(page.getByTestId("birthday-today")).toHaveCount(0);
    await page.context().close();

    // The same at 390 px and dark: the suggestions across the bar, the bell's request answered.
    const phone = await open(browser, me, locale, "dark", 390);
    await phone.goto("/");
    const phoneField = phone.locator("#header-search");
    await phoneField.click();
    await phoneField.pressSequentially(typed, { delay: 20 });
    await expect(phone.getByTestId("search-suggest").getByRole("option").filter({ hasText: `Глеб Ж${tag}` })).toHaveCount(1);
    await phone.screenshot({ path: testInfo.outputPath(`suggest-${locale}-dark-phone.png`) });
    await phoneField.press("Escape");
    await phone.getByTestId("bell").click();
    await expect(phone.getByTestId("bell-panel").locator('[data-type="FRIEND_REQUEST"]').first()).toBeVisible();
    await phone.screenshot({ path: testInfo.outputPath(`bell-${locale}-dark-phone.png`) });
    await phone.keyboard.press("Escape");
    await phone.goto("/friends");
    await expect(phone.getByTestId("person-row").filter({ hasText: `Юлия Ж${tag}` }).getByTestId("birthday-today")).toBeVisible();
    await phone.screenshot({ path: testInfo.outputPath(`birthday-${locale}-dark-phone.png`) });
    await phone.context().close();
    await apiAsker.dispose();
  });
}
