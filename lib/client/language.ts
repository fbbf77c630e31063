import { isLocale, LOCALE_COOKIE, LOCALE_STORAGE_KEY, type Locale } from "@/lib/i18n/config";

const YEAR_SECONDS = 365 * 24 * 60 * 60;

/**
 * Saves the language where both sides can read it: localStorage (spec: `selectedLanguage`) for the
 * browser and the cookie for the server, so the next server render is already in this language.
 * `cookie: false` leaves a cookie that already says it alone (writing one is a round trip to the
 * browser's cookie store).
 */
export function saveLanguage(locale: Locale, { cookie = true }: { cookie?: boolean } = {}): void {
  try {
    localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // Storage can be unavailable (private mode, quota); the cookie alone still works.
  }
  if (cookie) document.cookie = `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax`;
}

export function storedLanguage(): Locale | undefined {
  try {
    const value = localStorage.getItem(LOCALE_STORAGE_KEY);
    return isLocale(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
