import { expect, test } from "@playwright/test";

// Issue 29 §1: the API reference at /api/docs loads with nothing from outside this origin (no CDN, no
// fonts, no telemetry), shows a call with its Russian example, the socket's frames, and follows Krug's
// stored light or dark theme. In ru and en (the page's title, language and whole text follow the request).

// One language per reference (issue 40 item 19): the sections, calls and the socket's page in the page's language.
const WORDS = {
  ru: { register: "#tag/вход-и-регистрация/POST/api/v1/auth/register", call: "Зарегистрировать аккаунт", rule: "В именах допустимы латинские и кириллические буквы", socket: "#tag/сокет-живые-события", down: "сервер → клиент: NOTIFICATION", up: "клиент → сервер: RESUME" },
  en: { register: "#tag/sign-in-and-registration/POST/api/v1/auth/register", call: "Register an account", rule: "Names keep Latin and Cyrillic letters", socket: "#tag/socket-live-events", down: "server → client: NOTIFICATION", up: "client → server: RESUME" },
};

for (const [locale, lang, title, heading] of [["ru-RU", "ru", "Справочник API Круга", "API Круга"], ["en-US", "en", "Krug API reference", "Krug API"]] as const) {
  for (const theme of ["light", "dark"] as const) {
    test(`/api/docs offline, a call with its example, ${theme} theme (${lang})`, async ({ browser, baseURL }) => {
      const origin = new URL(baseURL!).origin;
      const context = await browser.newContext({ locale, baseURL, viewport: theme === "dark" ? { width: 390, height: 844 } : { width: 1280, height: 900 } });
      const outside: string[] = [];
      await context.route("**/*", (route) => {
        if (new URL(route.request().url()).origin !== origin) {
          outside.push(route.request().url());
          return route.abort();
        }
        return route.continue();
      });
      await context.addInitScript((t) => localStorage.setItem("theme", t), theme);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));

      await page.goto("/api/docs");
      await expect(page).toHaveTitle(title);
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible({ timeout: 20_000 });
      await expect(page.locator("body")).toHaveClass(new RegExp(`${theme}-mode`));
      // Krug's palette, not Scalar's: the surface colour of app/globals.css.
      const background = await page.evaluate(() => getComputedStyle(document.body).getPropertyValue("--scalar-background-1").trim());
      expect(background).toBe(theme === "dark" ? "#1c1d20" : "#ffffff");

      // One call: registration, with its rules and the Russian example body.
      const words = WORDS[lang];
      await page.goto(`/api/docs${words.register}`);
      const register = page.getByRole("heading", { name: words.call }).first();
      await expect(register).toBeVisible({ timeout: 20_000 });
      await expect(page.getByText(words.rule).first()).toBeVisible();
      await expect(page.getByText(/Анна/).first()).toBeVisible();

      // The socket's page: the frames both ways.
      await page.goto(`/api/docs${words.socket}`);
      await expect(page.getByText(words.down).first()).toBeVisible({ timeout: 20_000 });
      await expect(page.getByText(words.up).first()).toBeVisible();

      await page.screenshot({ path: test.info().outputPath(`api-docs-${lang}-${theme}.png`) });
      expect(outside).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
}
