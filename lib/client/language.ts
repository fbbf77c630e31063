import { isLocale, LOCALE_COOKIE, LOCALE_STORAGE_KEY, type Locale } from "@/lib/i18n/config";

const YEAR_SECONDS = 365 * 24 * 60 * 60;

/**
 * Saves the language where both sides can read it: localStorage (spec: `selectedLanguage`) for the
 * browser and the cookie for the server, so the next server render is already in this language.
 */
export function saveLanguage(locale: Locale): void {
  try {
    localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // Storage can be unavailable (private mode, quota); the cookie alone still works.
  }
  document.cookie = `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax`;
}

export function storedLanguage(): Locale | undefined {
  try {
    const value = localStorage.getItem(LOCALE_STORAGE_KEY);
    return isLocale(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function cookieLanguage(): Locale | undefined {
  for (const part of document.cookie.split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === LOCALE_COOKIE) return isLocale(value) ? value : undefined;
  }
  return undefined;
}
