import "server-only";
import { getLocale } from "next-intl/server";
import { dateTimeFormat } from "@/lib/client/date-format";
import { readerTimeZone } from "@/lib/i18n/reader-time-zone";

/**
 * The date and date-time formats of the admin's lists, card and audit log, in the reader's zone as every
 * other time of the site (docs/adr/0115); without the zone cookie, UTC and said so.
 */
export async function staffDates(): Promise<{ date: Intl.DateTimeFormat; dateTime: Intl.DateTimeFormat }> {
  const [locale, { zone, named }] = await Promise.all([getLocale(), readerTimeZone()]);
  return {
    date: dateTimeFormat(locale, { dateStyle: "medium", timeZone: zone }),
    dateTime: dateTimeFormat(
      locale,
      named
        ? { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZone: zone, timeZoneName: "short" }
        : { dateStyle: "medium", timeStyle: "short", timeZone: zone },
    ),
  };
}
