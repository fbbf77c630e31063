"use client";

import { useLocale } from "next-intl";
import { useHydrated } from "@/components/layout/use-hydrated";

/**
 * A moment as date and time in the reader's own time zone. The server cannot know that zone, so the
 * first render (server and hydration) shows UTC, marked as such, and the browser then puts its own.
 */
export function LocalDateTime({ iso }: { iso: string }) {
  const locale = useLocale();
  const hydrated = useHydrated();
  const options: Intl.DateTimeFormatOptions = { dateStyle: "long", timeStyle: "short" };
  const text = new Intl.DateTimeFormat(locale, hydrated ? options : { ...options, timeZone: "UTC", timeZoneName: "short" }).format(new Date(iso));
  return <time dateTime={iso}>{text}</time>;
}
