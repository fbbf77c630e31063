"use client";

import { useLocale } from "next-intl";
import { useHydrated } from "@/components/layout/use-hydrated";
import { dateTimeFormat } from "@/lib/client/date-format";

/**
 * A post's moment in the reader's time zone ("23 ноября в 15:30", with the year when it is not this
 * one). The server cannot know the zone: the first render shows UTC, marked so, like LocalDateTime.
 */
export function PostTime({ iso }: { iso: string }) {
  const locale = useLocale();
  const hydrated = useHydrated();
  const date = new Date(iso);
  const zone = hydrated ? undefined : "UTC";
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
    ...(hydrated ? {} : { timeZoneName: "short" }),
  }).format(date);
  return <time dateTime={iso}>{text}</time>;
}
