import { test } from "./fixtures";

/** Runs the describe block's tests in `lang`: English sets the language cookie and the stored choice; Russian is the default. */
export function useLanguage(lang: "ru" | "en"): void {
  test.beforeEach(async ({ context, baseURL }) => {
    if (lang === "en") {
      await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL! }]);
      await context.addInitScript(() => localStorage.setItem("selectedLanguage", "en"));
    }
  });
}
