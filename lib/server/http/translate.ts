import "server-only";
import en from "@/messages/en.json";
import ru from "@/messages/ru.json";
import { readCookie } from "@/lib/server/auth/tokens";
import { DEFAULT_LOCALE, isLocale, LOCALE_COOKIE, type Locale } from "@/lib/i18n/config";

const dictionaries: Record<Locale, unknown> = { ru, en };

/**
 * The language an API answer is written in: the saved choice, else the browser's, else Russian. `cookie`:
 * the request's Cookie header when the caller has it already.
 */
export function localeOfHeaders(headers: Headers, cookie: string | null = headers.get("cookie")): Locale {
  const saved = readCookie(cookie, LOCALE_COOKIE);
  if (isLocale(saved)) return saved;
  const first = (headers.get("accept-language") ?? "").split(",")[0]?.trim().slice(0, 2).toLowerCase();
  return isLocale(first) ? first : DEFAULT_LOCALE;
}

/**
 * Service and schema messages are keys of messages/*.json ("errors.badCredentials"); this turns a
 * key into the text of the locale and leaves any other message as it is.
 */
export function translate(locale: Locale, message: string): string {
  if (!/^[a-zA-Z]+(\.[a-zA-Z0-9_]+)+$/.test(message)) return message;
  let node: unknown = dictionaries[locale];
  for (const part of message.split(".")) {
    if (typeof node !== "object" || node === null) return message;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === "string" ? node : message;
}
