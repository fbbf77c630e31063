"use client";

import { useLocale } from "next-intl";
import { useHydrated } from "@/components/layout/use-hydrated";
import { dateTimeFormat } from "@/lib/client/date-format";

// The browser's own zone once hydrated. Before that (server and hydration) UTC, named as such:
// `timeZoneName` cannot be combined with `dateStyle`/`timeStyle` (a RangeError that made the server
// answer 500 on a deleted account's pages), so the same fields are spelled out one by one.
const LOCAL: Intl.DateTimeFormatOptions = { dateStyle: "long", timeStyle: "short" };
const UTC: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "long",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
  timeZoneName: "short",
};

/**
 * A moment as date and time in the reader's own time zone. The server cannot know that zone, so the
 * first render (server and hydration) shows UTC, marked as such, and the browser then puts its own.
 */
export function LocalDateTime({ iso }: { iso: string }) {
  const locale = useLocale();
  const hydrated = useHydrated();
  const text = dateTimeFormat(locale, hydrated ? LOCAL : UTC).format(new Date(iso));
  return <time dateTime={iso}>{text}</time>;
}
