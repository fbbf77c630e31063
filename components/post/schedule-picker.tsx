"use client";

import * as Popover from "@radix-ui/react-popover";
import { useLocale, useTranslations } from "next-intl";
import { useId, useState } from "react";
import { useReaderTimeZone } from "@/components/layout/time-zone";
import { Button } from "@/components/ui/button";
import { CloseIcon } from "@/components/ui/icons";
import { dateTimeFormat } from "@/lib/client/date-format";
import { SCHEDULE_HOURS } from "@/lib/validation/post-shared";
import { CalendarIcon } from "./post-icons";
import styles from "./post-form.module.css";

/** Spec section 9: the hours offered for a scheduled post (8 to 23). */
const HOURS = Array.from({ length: SCHEDULE_HOURS.to - SCHEDULE_HOURS.from + 1 }, (_, i) => SCHEDULE_HOURS.from + i);

const pad = (n: number) => String(n).padStart(2, "0");
const dateKey = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The local moment of a "YYYY-MM-DD" day at `hour`:00. */
export function localMoment(day: string, hour: number): Date {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y, m - 1, d, hour, 0, 0, 0);
}

/** Hours of `day` still ahead of `now` (all of them on a later day). */
export function hoursLeft(day: string, now: Date): number[] {
  return HOURS.filter((h) => localMoment(day, h).getTime() > now.getTime());
}

/**
 * Scheduling (spec section 2): first a date, then an hour between 8 and 23, then confirm. Cancel clears
 * the choice, so the post goes out at once.
 */
export function SchedulePicker({ value, onChange }: { value: Date | null; onChange: (next: Date | null) => void }) {
  const t = useTranslations("post.schedule");
  const locale = useLocale();
  // The chip states the hour the reader picked, in the reader's zone (ADR 102), not next-intl's UTC.
  const { zone, named } = useReaderTimeZone();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [day, setDay] = useState("");
  const [hour, setHour] = useState<number | null>(null);
  const now = new Date();
  const today = dateKey(now);
  const hours = day ? hoursLeft(day, now) : [];

  return (
    <div className={styles.schedule}>
      <Popover.Root
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (next) {
            setDay(value ? dateKey(value) : "");
            setHour(value ? value.getHours() : null);
          }
        }}
      >
        <Popover.Trigger asChild>
          <Button variant="ghost" className={styles.barButton} data-hint="schedule">
            <CalendarIcon />
            {value ? t("change") : t("open")}
          </Button>
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content className={styles.schedulePop} sideOffset={6} align="start" aria-label={t("title")}>
            <p className={styles.scheduleTitle}>{t("title")}</p>
            <ol className={styles.scheduleSteps}>
              <li>
                <label htmlFor={`${id}-day`} className={styles.label}>
                  {t("stepDate")}
                </label>
                <input
                  id={`${id}-day`}
                  type="date"
                  className={styles.input}
                  min={today}
                  value={day}
                  onChange={(e) => {
                    setDay(e.target.value);
                    setHour(null);
                  }}
                />
              </li>
              <li>
                <label htmlFor={`${id}-hour`} className={styles.label}>
                  {t("stepTime")}
                </label>
                <select
                  id={`${id}-hour`}
                  className={styles.input}
                  disabled={!day || hours.length === 0}
                  value={hour ?? ""}
                  onChange={(e) => setHour(e.target.value === "" ? null : Number(e.target.value))}
                >
                  <option value="">{day && hours.length === 0 ? t("noHours") : t("pickHour")}</option>
                  {hours.map((h) => (
                    <option key={h} value={h}>
                      {pad(h)}:00
                    </option>
                  ))}
                </select>
              </li>
            </ol>
            <div className={styles.scheduleActions}>
              <Button
                variant="ghost"
                onClick={() => {
                  onChange(null);
                  setOpen(false);
                }}
              >
                {t("cancel")}
              </Button>
              <Button
                disabled={!day || hour === null}
                onClick={() => {
                  if (!day || hour === null) return;
                  onChange(localMoment(day, hour));
                  setOpen(false);
                }}
              >
                {t("confirm")}
              </Button>
            </div>
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      {value ? (
        <span className={styles.scheduleChip} data-testid="schedule-chip">
          {t("chosen", {
            time: dateTimeFormat(locale, {
              day: "numeric",
              month: "long",
              hour: "2-digit",
              minute: "2-digit",
              timeZone: zone,
              ...(named ? { timeZoneName: "short" } : {}),
            }).format(value),
          })}
          <button type="button" className={styles.tagRemove} aria-label={t("clear")} onClick={() => onChange(null)}>
            <CloseIcon size={14} />
          </button>
        </span>
      ) : null}
    </div>
  );
}
