/** Languages of Krug. Russian is the default; the choice lives in localStorage and this cookie. */
export const LOCALES = ["ru", "en"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "ru";
export const LOCALE_COOKIE = "NEXT_LOCALE";
export const LOCALE_STORAGE_KEY = "selectedLanguage";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/**
 * The language of a request from its locale cookie and Accept-Language header: the saved choice, else the
 * browser's first language when it is one of ours, else Russian. Pure, so the page cache of the custom
 * server (lib/server/http/page-cache.ts) decides exactly as the render does.
 */
export function localeOf(saved: string | undefined, acceptLanguage: string | undefined): Locale {
  if (isLocale(saved)) return saved;
  const first = (acceptLanguage ?? "").split(",")[0]?.trim().slice(0, 2).toLowerCase();
  return isLocale(first) ? first : DEFAULT_LOCALE;
}
