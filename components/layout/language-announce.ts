import type { Locale } from "@/lib/i18n/config";

/**
 * The "language changed" toast must be written in the new language, whose messages arrive only with
 * the refreshed render; the switch leaves a note here and LocaleSync announces once they are in.
 */
let pending: Locale | null = null;

export function announceLanguage(locale: Locale): void {
  pending = locale;
}

export function takeAnnouncement(current: string): Locale | null {
  if (pending !== current) return null;
  const locale = pending;
  pending = null;
  return locale;
}
