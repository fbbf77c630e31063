"use client";

import { useLocale } from "next-intl";
import { useReaderTimeZone } from "@/components/layout/time-zone";
import { dateTimeFormat } from "@/lib/client/date-format";

/**
 * A post's moment in the reader's time zone ("23 ноября в 15:30", with the year when it is not this
 * one). The server renders it in the zone the reader's browser told it; when it has not yet (a first
 * visit), in UTC, marked so, and the browser puts its own zone right after hydration.
 */
export function PostTime({ iso }: { iso: string }) {
  const locale = useLocale();
  const { zone, named } = useReaderTimeZone();
  const date = new Date(iso);
  const years = dateTimeFormat("en", { year: "numeric", timeZone: zone });
  const thisYear = years.format(new Date());
  const year = years.format(date);
  const text = dateTimeFormat(locale, {
    day: "numeric",
    month: "long",
    ...(year !== thisYear ? { year: "numeric" } : {}),
    hour: "2-digit",
    minute: "2-digit",
    timeZone: zone,
    ...(named ? { timeZoneName: "short" } : {}),
  }).format(date);
  return <time dateTime={iso}>{text}</time>;
}
