"use client";

import { useLocale } from "next-intl";
import { useReaderTimeZone } from "@/components/layout/time-zone";
import { dateTimeFormat } from "@/lib/client/date-format";

/**
 * A moment as date and time in the reader's own time zone: the one the browser told the server, else
 * (a first visit) UTC, marked as such, until the browser puts its own right after hydration.
 * `timeZoneName` cannot be combined with `dateStyle`/`timeStyle` (a RangeError that made the server
 * answer 500 on a deleted account's pages), so the named form spells the same fields out one by one.
 */
export function LocalDateTime({ iso }: { iso: string }) {
  const locale = useLocale();
  const { zone, named } = useReaderTimeZone();
  const options: Intl.DateTimeFormatOptions = named
    ? { year: "numeric", month: "long", day: "numeric", hour: "2-digit", minute: "2-digit", timeZone: zone, timeZoneName: "short" }
    : { dateStyle: "long", timeStyle: "short", timeZone: zone };
  return <time dateTime={iso}>{dateTimeFormat(locale, options).format(new Date(iso))}</time>;
}
