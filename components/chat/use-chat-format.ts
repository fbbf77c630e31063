"use client";

import { useFormatter, useTranslations } from "next-intl";
import { dayKey } from "@/lib/client/chat/timeline";
import { useReaderTimeZone } from "@/components/layout/time-zone";
import { genderOf } from "@/lib/i18n/gender";

const DAY_MS = 86_400_000;

// The shared clock (lib/client/clock.ts): 0 on the server and in hydration, where nothing relative renders.
export { useNow } from "@/lib/client/clock";

/** How the chat writes times: clock, list stamps, day separators and "last seen", in the reader's zone. */
export function useChatFormat() {
  const t = useTranslations("im");
  const format = useFormatter();
  const { zone: timeZone } = useReaderTimeZone();

  const clock = (iso: string) => format.dateTime(new Date(iso), { hour: "2-digit", minute: "2-digit", timeZone });
  const sameYear = (a: Date, b: Date) =>
    format.dateTime(a, { year: "numeric", timeZone }) === format.dateTime(b, { year: "numeric", timeZone });

  /** Relative day of `iso` against `now`: 0 today, 1 yesterday, else 2. */
  const dayDistance = (iso: string, now: number) => {
    const day = dayKey(iso, timeZone);
    if (day === dayKey(new Date(now), timeZone)) return 0;
    if (day === dayKey(new Date(now - DAY_MS), timeZone)) return 1;
    return 2;
  };

  const longDate = (date: Date, now: number) =>
    format.dateTime(date, sameYear(date, new Date(now)) ? { day: "numeric", month: "long", timeZone } : { day: "numeric", month: "long", year: "numeric", timeZone });

  return {
    timeZone,
    clock,
    /** A dialog row's stamp: the clock today, "Вчера", a short date this year, else a numeric date. */
    listStamp(iso: string, now: number): string {
      if (!now) return "";
      const distance = dayDistance(iso, now);
      if (distance === 0) return clock(iso);
      if (distance === 1) return t("yesterday");
      const date = new Date(iso);
      return sameYear(date, new Date(now))
        ? format.dateTime(date, { day: "numeric", month: "short", timeZone })
        : format.dateTime(date, { day: "2-digit", month: "2-digit", year: "2-digit", timeZone });
    },
    /** A day separator: "Сегодня", "Вчера", "12 ноября" (with the year when it is not this one). */
    dayLabel(iso: string, now: number): string {
      if (now) {
        const distance = dayDistance(iso, now);
        if (distance === 0) return t("today");
        if (distance === 1) return t("yesterday");
      }
      return longDate(new Date(iso), now || Date.parse(iso));
    },
    /** "в сети" or "был в сети …": minutes ago within the hour, then today/yesterday/date at a time. */
    presence(partner: { isOnline: boolean; lastOnlineTime: string | null; firstName?: string; lastName?: string }, now: number): string {
      if (partner.isOnline) return t("online");
      if (!partner.lastOnlineTime || !now) return t("offline");
      const seen = Date.parse(partner.lastOnlineTime);
      const ago = now - seen;
      let when: string;
      if (ago < 60_000) when = t("justNow");
      else if (ago < 3_600_000) when = format.relativeTime(seen, now);
      else {
        const distance = dayDistance(partner.lastOnlineTime, now);
        const time = clock(partner.lastOnlineTime);
        when =
          distance === 0 ? t("todayAt", { time }) : distance === 1 ? t("yesterdayAt", { time }) : t("dateAt", { date: longDate(new Date(seen), now), time });
      }
      // "был"/"была" in the partner's gender, from the name as on the profile (ADR 0051).
      return t("lastSeen", { when, gender: partner.firstName ? genderOf({ firstName: partner.firstName, lastName: partner.lastName }) : "other" });
    },
  };
}
