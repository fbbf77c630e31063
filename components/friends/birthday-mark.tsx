"use client";

import { useTranslations } from "next-intl";
import { useReaderTimeZone } from "@/components/layout/time-zone";
import styles from "./birthday-mark.module.css";

/** Today's month and day ("MM-DD") in a time zone. */
export function monthDayIn(zone: string, now: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone: zone, month: "2-digit", day: "2-digit" }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("month")}-${part("day")}`;
}

/** Whether a birthday ("MM-DD") is today; 29 February is kept on the 28th in other years. */
export function isBirthdayToday(birthday: string, today: string, leapYear: boolean): boolean {
  return birthday === today || (birthday === "02-29" && !leapYear && today === "02-28");
}

/**
 * «Сегодня день рождения» on a friend's card and row (issue 27): today in the reader's time zone. It gets
 * only what the friend lets them see (the exact birth date is for friends, docs/adr/0125), so a
 * closed or hidden birthday never shows. The server render and hydration agree on the zone (useReaderTimeZone).
 */
export function BirthdayMark({ birthday }: { birthday: string | null | undefined }) {
  const t = useTranslations("relation");
  const { zone } = useReaderTimeZone();
  if (!birthday || !/^\d{2}-\d{2}$/.test(birthday)) return null;
  const year = Number(new Intl.DateTimeFormat("en-US", { timeZone: zone, year: "numeric" }).format(new Date()));
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  if (!isBirthdayToday(birthday, monthDayIn(zone), leap)) return null;
  return (
    <span className={styles.mark} data-testid="birthday-today">
      {t("birthdayToday")}
    </span>
  );
}
