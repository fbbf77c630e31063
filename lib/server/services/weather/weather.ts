import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { cityCoordinates, findCity } from "@/lib/server/geo/coordinates";
import { env } from "@/lib/server/env";
import { NotFoundError } from "@/lib/server/http/errors";
import { consumeAccountLimits } from "@/lib/server/http/rate-limit";
import { log } from "@/lib/server/log";
import type { Locale } from "@/lib/i18n/config";
import { weatherQuery, type WeatherData, type WeatherDto } from "@/lib/validation/weather";
import { requireViewer, type ServiceCtx } from "../context";
import { parseInput } from "../posts/shared";

// The weather card (issue 13, docs/adr/0086): Open-Meteo's forecast for a city, fetched from the server
// only, with a short timeout, and cached in Postgres per city for 30 minutes so every instance shares it.
// Per process, one call per city is in flight at a time and a failed call is not repeated for a minute
// (docs/adr/0110-weather-single-flight.md).

export const WEATHER_FRESH_MINUTES = 30;
export const WEATHER_TIMEOUT_MS = 1_500;
/** After a failed call, the provider is not asked about that city again for this long. */
export const WEATHER_FAILURE_PAUSE_MS = 60_000;
const FORECAST_DAYS = 4;

const numbers = (v: unknown): number[] | null => (Array.isArray(v) && v.every((n) => typeof n === "number") ? v : null);

/** Open-Meteo's answer → WeatherData, or null when it is not in the expected shape. Today is left out of `daily`. */
export function parseForecast(body: unknown): WeatherData | null {
  const b = body as { current?: Record<string, unknown>; daily?: Record<string, unknown> } | null;
  const cur = b?.current;
  const d = b?.daily;
  if (!cur || !d || typeof cur.temperature_2m !== "number" || typeof cur.weather_code !== "number") return null;
  const dates = Array.isArray(d.time) && d.time.every((t) => typeof t === "string") ? (d.time as string[]) : null;
  const codes = numbers(d.weather_code);
  const max = numbers(d.temperature_2m_max);
  const min = numbers(d.temperature_2m_min);
  if (!dates || !codes || !max || !min) return null;
  return {
    current: { temperature: cur.temperature_2m, code: cur.weather_code, isDay: cur.is_day !== 0 },
    daily: dates.slice(1, FORECAST_DAYS).map((date, i) => ({ date, code: codes[i + 1], min: min[i + 1], max: max[i + 1] })),
  };
}

async function fetchForecast(lat: number, lon: number): Promise<WeatherData | null> {
  const url = new URL(env().WEATHER_API_URL);
  url.searchParams.set("latitude", String(lat));
  url.searchParams.set("longitude", String(lon));
  url.searchParams.set("current", "temperature_2m,weather_code,is_day");
  url.searchParams.set("daily", "weather_code,temperature_2m_max,temperature_2m_min");
  url.searchParams.set("timezone", "auto");
  url.searchParams.set("forecast_days", String(FORECAST_DAYS));
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(WEATHER_TIMEOUT_MS), cache: "no-store" });
    if (!res.ok) throw new Error(`status ${res.status}`);
    const data = parseForecast(await res.json());
    if (!data) throw new Error("unexpected answer");
    return data;
  } catch (err) {
    log.warn({ err: (err as Error).message, provider: url.origin }, "weather provider unreachable");
    return null;
  }
}

type Cached = { data: WeatherData; fetched_at: string; fresh: boolean };
type Fresh = { data: WeatherData; fetched_at: string };

const readCached = async (db: DbOrTx, cityId: number): Promise<Cached | undefined> =>
  (
    await db.execute<Cached>(sql`
      select data, to_json(fetched_at) #>> '{}' as fetched_at, fetched_at > now() - make_interval(mins => ${WEATHER_FRESH_MINUTES}) as fresh
      from weather_cache where city_id = ${cityId}`)
  )[0];

/** The refresh of a city under way in this process, which every request missing the cache meanwhile joins. */
const inFlight = new Map<number, Promise<Fresh | null>>();
/** Until when (ms) the provider is not asked about a city after a failure. */
const failedUntil = new Map<number, number>();

/** Forgets the failures remembered (tests that bring the provider back up). */
export function forgetWeatherFailures(): void {
  failedUntil.clear();
}

/**
 * A fresh forecast of `cityId`, stored: null when the provider failed now or within the failure pause.
 * One refresh per city at a time; it reads the cache once more first, since a request that missed the
 * cache just before the previous refresh stored its row joins no refresh any more and must not call out.
 */
function refresh(db: DbOrTx, cityId: number, place: { lat: number; lon: number }): Promise<Fresh | null> {
  const running = inFlight.get(cityId);
  if (running) return running;
  const started = (async (): Promise<Fresh | null> => {
    if ((failedUntil.get(cityId) ?? 0) > Date.now()) return null;
    const cached = await readCached(db, cityId);
    if (cached?.fresh) return cached;
    const data = await fetchForecast(place.lat, place.lon);
    if (!data) {
      failedUntil.set(cityId, Date.now() + WEATHER_FAILURE_PAUSE_MS);
      return null;
    }
    failedUntil.delete(cityId);
    const [row] = await db.execute<{ fetched_at: string }>(sql`
      insert into weather_cache (city_id, data, fetched_at) values (${cityId}, ${JSON.stringify(data)}::jsonb, now())
      on conflict (city_id) do update set data = excluded.data, fetched_at = excluded.fetched_at
      returning to_json(fetched_at) #>> '{}' as fetched_at`);
    return { data, fetched_at: row.fetched_at };
  })().finally(() => inFlight.delete(cityId));
  inFlight.set(cityId, started);
  return started;
}

/** The weather of GeoNames city `cityId`: cached when fresh, else fetched; the last value or nothing when the provider fails. */
export async function cityWeather(ctx: ServiceCtx, cityId: number): Promise<Omit<WeatherDto, "city">> {
  const place = cityCoordinates(cityId);
  if (!place) return { status: "unavailable", fetchedAt: null, weather: null };
  const cached = await readCached(ctx.tx ?? ctx.db, cityId);
  if (cached?.fresh) return { status: "fresh", fetchedAt: new Date(cached.fetched_at).toISOString(), weather: cached.data };
  // Shared by the requests that join it: never one request's transaction.
  const fresh = await refresh(ctx.db, cityId, place);
  if (fresh) return { status: "fresh", fetchedAt: new Date(fresh.fetched_at).toISOString(), weather: fresh.data };
  if (cached) return { status: "stale", fetchedAt: new Date(cached.fetched_at).toISOString(), weather: cached.data };
  return { status: "unavailable", fetchedAt: null, weather: null };
}

/**
 * GET weather — the viewer's weather: of the city given by `country` and `city` (the card's picker), else of
 * the profile's city; `noCity` when the profile names none we know. An unknown city → 404.
 */
export async function getWeather({ ctx, input, locale }: { ctx: ServiceCtx; input: unknown; locale: Locale }): Promise<WeatherDto> {
  const viewer = requireViewer(ctx);
  const q = parseInput(weatherQuery, input);
  await consumeAccountLimits(["weather"], viewer.id); // RATE_LIMIT_WEATHER (ADR 0110)
  let place: { countryId: string; cityId: number } | null;
  if (q.country && q.city) {
    place = { countryId: q.country, cityId: q.city };
  } else {
    const [row] = await (ctx.tx ?? ctx.db).execute<{ country_code: string | null; city_id: number | null }>(
      sql`select country_code, city_id from accounts where id = ${viewer.id}`,
    );
    place = row?.country_code && row.city_id ? { countryId: row.country_code, cityId: Number(row.city_id) } : null;
    if (!place) return { status: "noCity", city: null, fetchedAt: null, weather: null };
  }
  const city = findCity(place.countryId, place.cityId, locale);
  if (!city || !cityCoordinates(city.id)) throw new NotFoundError("weather.cityNotFound");
  return { ...(await cityWeather(ctx, city.id)), city };
}
