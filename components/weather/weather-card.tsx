"use client";

import { useFormatter, useTranslations } from "next-intl";
import Link from "next/link";
import { useId, useState, useSyncExternalStore } from "react";
import useSWR from "swr";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { fieldStyles } from "@/components/ui/text-field";
import { api } from "@/lib/client/api";
import type { WeatherDto } from "@/lib/validation/weather";
import { conditionOf } from "./conditions";
import { ConditionIcon } from "./weather-icons";
import styles from "./weather.module.css";

type Country = { id: string; title: string };
type City = { id: number; title: string; countryId: string };

// The city picked on this browser when the profile names none ("RU:524901"); the profile's city wins otherwise.
const STORAGE_KEY = "krug.weather.city";
const listeners = new Set<() => void>();
const subscribe = (fn: () => void) => (listeners.add(fn), () => listeners.delete(fn));
const readChoice = () => (typeof window === "undefined" ? null : window.localStorage.getItem(STORAGE_KEY));
function saveChoice(value: string | null) {
  if (value) window.localStorage.setItem(STORAGE_KEY, value);
  else window.localStorage.removeItem(STORAGE_KEY);
  listeners.forEach((fn) => fn());
}

const fetchJson = <T,>(path: string) => api<T>(path);

/**
 * The weather card (issue 13): current temperature and conditions, the next three days, for the viewer's
 * profile city or one picked here. Rendered in the browser from GET weather, so the feed never waits on the
 * provider; a stale value shows its time, no value a calm "unavailable" state.
 */
export function WeatherCard({ heading = "h2", more = false }: { heading?: "h1" | "h2"; more?: boolean }) {
  const t = useTranslations("weather");
  const format = useFormatter();
  const choice = useSyncExternalStore(subscribe, readChoice, () => null);
  const [picking, setPicking] = useState(false);
  const [country, city] = choice?.split(":") ?? [];
  const key = choice ? `weather?country=${country}&city=${city}` : "weather";
  const { data, error, isLoading } = useSWR<WeatherDto>(key, fetchJson, { revalidateOnFocus: false, shouldRetryOnError: false });

  let body;
  if (picking || (data?.status === "noCity" && !choice) || (error && choice)) {
    body = (
      <CityPicker
        onPick={(value) => {
          saveChoice(value);
          setPicking(false);
        }}
      />
    );
  } else if (isLoading || (!data && !error)) {
    body = <Spinner label={t("loading")} />;
  } else if (!data?.weather || error) {
    body = (
      <div data-testid="weather-unavailable">
        <p>{t("unavailable")}</p>
        <p className={styles.muted}>{t("unavailableText")}</p>
      </div>
    );
  } else {
    const w = data.weather;
    const now = conditionOf(w.current.code, w.current.isDay);
    const time = format.dateTime(new Date(data.fetchedAt!), { hour: "2-digit", minute: "2-digit" });
    body = (
      <>
        <div className={styles.now} data-testid="weather-now">
          <ConditionIcon condition={now} size={44} className={styles.icon} />
          <div>
            <div className={styles.temp}>{`${Math.round(w.current.temperature)}°C`}</div>
            <div className={styles.condition}>{t(`conditions.${now}`)}</div>
          </div>
        </div>
        <ul className={styles.days} aria-label={t("forecast")}>
          {w.daily.map((d) => {
            const c = conditionOf(d.code);
            return (
              <li key={d.date} className={styles.day}>
                <span>{format.dateTime(new Date(`${d.date}T12:00:00`), { weekday: "short", day: "numeric" })}</span>
                <ConditionIcon condition={c} size={26} className={styles.dayIcon} />
                <span>{t(`conditions.${c}`)}</span>
                <span>{t("minMax", { min: Math.round(d.min), max: Math.round(d.max) })}</span>
              </li>
            );
          })}
        </ul>
        <p className={styles.muted} data-testid="weather-time">
          {data.status === "stale" ? t("staleAt", { time: format.dateTime(new Date(data.fetchedAt!), { dateStyle: "short", timeStyle: "short" }) }) : t("updatedAt", { time })}
        </p>
      </>
    );
  }

  return (
    <Card aria-label={t("cardLabel")} data-testid="weather-card">
      <CardHeader as={heading} title={t("title")}>
        {more ? (
          <Link href="/weather" className={styles.link}>
            {t("more")}
          </Link>
        ) : null}
      </CardHeader>
      <div className={styles.body}>
        {data?.city && !picking ? <div className={styles.place}>{data.city.title}</div> : null}
        {body}
        {!picking && data && data.status !== "noCity" ? (
          <div className={styles.actions}>
            <button type="button" className={styles.link} onClick={() => setPicking(true)}>
              {t("change")}
            </button>
          </div>
        ) : null}
      </div>
    </Card>
  );
}

function CityPicker({ onPick }: { onPick: (value: string) => void }) {
  const t = useTranslations("weather");
  const ids = { country: useId(), city: useId() };
  const [country, setCountry] = useState("");
  const [city, setCity] = useState("");
  const { data: countries } = useSWR<Country[]>("geo/country", fetchJson);
  const { data: cities } = useSWR<City[]>(country ? `geo/country/${country}/city` : null, fetchJson);
  return (
    <form
      className={styles.picker}
      data-testid="weather-picker"
      onSubmit={(e) => {
        e.preventDefault();
        if (country && city) onPick(`${country}:${city}`);
      }}
    >
      <p className={styles.muted}>{t("pickText")}</p>
      <div className={fieldStyles.field}>
        <label htmlFor={ids.country} className={fieldStyles.label}>
          {t("country")}
        </label>
        <select id={ids.country} className={`${fieldStyles.input} ${styles.select}`} value={country} onChange={(e) => (setCountry(e.target.value), setCity(""))}>
          <option value="">{t("chooseCountry")}</option>
          {countries?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.title}
            </option>
          ))}
        </select>
      </div>
      <div className={fieldStyles.field}>
        <label htmlFor={ids.city} className={fieldStyles.label}>
          {t("city")}
        </label>
        <select id={ids.city} className={`${fieldStyles.input} ${styles.select}`} value={city} disabled={!cities} onChange={(e) => setCity(e.target.value)}>
          <option value="">{t("chooseCity")}</option>
          {cities?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.title}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.actions}>
        <Button type="submit" disabled={!country || !city}>
          {t("show")}
        </Button>
      </div>
    </form>
  );
}
