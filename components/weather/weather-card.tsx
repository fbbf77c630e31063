"use client";

import { useFormatter, useTranslations } from "next-intl";
import Link from "@/components/ui/link";
import { useId, useState, useSyncExternalStore } from "react";
import useSWR, { useSWRConfig } from "swr";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { fieldStyles } from "@/components/ui/text-field";
import { api } from "@/lib/client/api";
import { notify } from "@/lib/client/notify";
import type { WeatherDto } from "@/lib/validation/weather";
import { conditionOf } from "./conditions";
import { ConditionIcon } from "./weather-icons";
import styles from "./weather.module.css";

type Country = { id: string; title: string };
type City = { id: number; title: string; countryId: string };

// A city picked on this browser only ("RU:524901"), when the person chose not to put it in their profile;
// it wins over the profile's city on this browser until they pick again.
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
  const { mutate } = useSWRConfig();

  // The choice goes into the profile (PUT account/me {countryId, cityId}) or stays on this browser.
  async function pick(value: string, toProfile: boolean) {
    if (toProfile) {
      const [countryId, cityId] = value.split(":");
      try {
        await api("account/me", { method: "PUT", body: { countryId, cityId: Number(cityId) } });
        saveChoice(null);
        await mutate("weather");
      } catch {
        notify({ status: "error", message: t("saveFailed") });
        saveChoice(value);
      }
    } else saveChoice(value);
    setPicking(false);
  }

  let body;
  if (picking || (data?.status === "noCity" && !choice) || (error && choice)) {
    body = (
      <CityPicker noProfileCity={data?.status === "noCity"} onPick={pick} />
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

function CityPicker({ noProfileCity, onPick }: { noProfileCity: boolean; onPick: (value: string, toProfile: boolean) => Promise<void> }) {
  const t = useTranslations("weather");
  const ids = { country: useId(), city: useId(), save: useId() };
  const [country, setCountry] = useState("");
  const [city, setCity] = useState("");
  // Without a city in the profile, putting the chosen one there is what most people want; changing away
  // from the profile's city asks for it explicitly.
  const [toProfile, setToProfile] = useState(noProfileCity);
  const [saving, setSaving] = useState(false);
  const { data: countries } = useSWR<Country[]>("geo/country", fetchJson);
  const { data: cities } = useSWR<City[]>(country ? `geo/country/${country}/city` : null, fetchJson);
  return (
    <form
      className={styles.picker}
      data-testid="weather-picker"
      onSubmit={(e) => {
        e.preventDefault();
        if (!country || !city || saving) return;
        setSaving(true);
        void onPick(`${country}:${city}`, toProfile).finally(() => setSaving(false));
      }}
    >
      <p className={styles.muted}>{noProfileCity ? t("pickText") : t("changeText")}</p>
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
      <label htmlFor={ids.save} className={styles.check}>
        <input id={ids.save} type="checkbox" checked={toProfile} onChange={(e) => setToProfile(e.target.checked)} />
        {t("saveToProfile")}
      </label>
      <div className={styles.actions}>
        <Button type="submit" disabled={!country || !city || saving}>
          {t("show")}
        </Button>
      </div>
    </form>
  );
}
