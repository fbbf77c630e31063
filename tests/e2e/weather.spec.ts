import type { Browser } from "@playwright/test";
import { contextIn, createUser, expect as baseExpect, signIn, test, type TestUser } from "./fixtures";

// Issue 13's weather card against the e2e server's fake provider (tests/support/fake-open-meteo.ts, started
// by scripts/e2e-server.ts): 7 °C and partly cloudy everywhere, then overcast, rain and snow; down for every
// place south of the equator. Each test makes its own accounts.

test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

const TEXT = {
  ru: { title: "Погода", now: "Переменная облачность", days: ["Пасмурно", "Дождь", "Снег"], updated: "Обновлено", unavailable: "Погода сейчас недоступна", country: "Страна", city: "Город", show: "Показать погоду", russia: "Россия", kazan: "Казань", toProfile: "Указать этот город в профиле", change: "Сменить город", germany: "Германия", berlin: "Берлин" },
  en: { title: "Weather", now: "Partly cloudy", days: ["Overcast", "Rain", "Snow"], updated: "Updated", unavailable: "Weather is unavailable right now", country: "Country", city: "City", show: "Show the weather", russia: "Russia", kazan: "Kazan", toProfile: "Set this city in my profile", change: "Change city", germany: "Germany", berlin: "Berlin" },
} as const;

async function signedIn(browser: Browser, baseURL: string, lang: "ru" | "en", user: TestUser, place?: { country: string; city: string }) {
  const context = await contextIn(browser, lang, baseURL);
  const page = await context.newPage();
  await signIn(page, user);
  if (place) expect((await page.request.put("/api/v1/account/me", { data: place })).status()).toBe(200);
  return { context, page };
}

for (const lang of ["ru", "en"] as const) {
  const L = TEXT[lang];

  test(`the feed's weather card shows the profile city's weather and forecast (${lang})`, async ({ browser, baseURL }) => {
    const user = await createUser({ language: lang });
    const { context, page } = await signedIn(browser, baseURL!, lang, user, { country: "Россия", city: "Казань" });
    await page.goto("/");
    const card = page.getByTestId("weather-card");
    await expect(card.getByRole("heading", { name: L.title })).toBeVisible();
    await expect(card).toContainText(L.kazan);
    await expect(card.getByTestId("weather-now")).toContainText("7°C");
    await expect(card.getByTestId("weather-now")).toContainText(L.now);
    const days = card.getByRole("list").getByRole("listitem");
    await expect(days).toHaveCount(3);
    for (const [i, text] of L.days.entries()) await expect(days.nth(i)).toContainText(text);
    await expect(card.getByTestId("weather-time")).toContainText(L.updated);

    // On a phone the side column gives way to the weather page, reached from the feed.
    await page.setViewportSize({ width: 390, height: 800 });
    await page.getByRole("link", { name: L.title, exact: true }).click();
    await expect(page).toHaveURL(/\/weather$/);
    await expect(page.getByRole("heading", { level: 1, name: L.title })).toBeVisible();
    await expect(page.getByTestId("weather-now")).toContainText("7°C");
    await context.close();
  });

  test(`without a city in the profile the card offers a picker (${lang})`, async ({ browser, baseURL }) => {
    const user = await createUser({ language: lang });
    const { context, page } = await signedIn(browser, baseURL!, lang, user);
    await page.goto("/weather");
    const picker = page.getByTestId("weather-picker");
    await picker.getByLabel(L.country).selectOption({ label: L.russia });
    await picker.getByLabel(L.city, { exact: true }).selectOption({ label: L.kazan });
    // Without a profile city the choice goes into the profile unless the person unticks it.
    await expect(picker.getByLabel(L.toProfile)).toBeChecked();
    await picker.getByRole("button", { name: L.show }).click();
    await expect(page.getByTestId("weather-now")).toContainText(L.now);
    await expect(page.getByTestId("weather-card")).toContainText(L.kazan);
    const me = await (await page.request.get("/api/v1/account/me")).json();
    expect(me).toMatchObject({ countryId: "RU", cityId: 551487 });

    // Changing the city for this browser only leaves the profile as it is, and survives a reload.
    await page.getByRole("button", { name: L.change }).click();
    await expect(picker.getByLabel(L.toProfile)).not.toBeChecked();
    await picker.getByLabel(L.country).selectOption({ label: L.germany });
    await picker.getByLabel(L.city, { exact: true }).selectOption({ label: L.berlin });
    await picker.getByRole("button", { name: L.show }).click();
    await expect(page.getByTestId("weather-card")).toContainText(L.berlin);
    await page.reload();
    await expect(page.getByTestId("weather-card")).toContainText(L.berlin);
    expect(await (await page.request.get("/api/v1/account/me")).json()).toMatchObject({ countryId: "RU", cityId: 551487 });
    await context.close();
  });

  test(`with the provider down the card is calm: weather unavailable, the feed unharmed (${lang})`, async ({ browser, baseURL }) => {
    const user = await createUser({ language: lang });
    // The fake provider is down for places south of the equator; nothing was ever cached for Sydney.
    const { context, page } = await signedIn(browser, baseURL!, lang, user, { country: "AU", city: "Sydney" });
    await page.goto("/");
    await expect(page.getByTestId("weather-unavailable")).toContainText(L.unavailable);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await context.close();
  });
}
