import { z } from "zod";

/** GET weather?country=&city= — an explicit city (the picker); without both, the viewer's profile city. */
export const weatherQuery = z
  .object({
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, "weather.cityNotFound")
      .transform((v) => v.toUpperCase())
      .optional(),
    city: z.coerce.number().int("weather.cityNotFound").min(1, "weather.cityNotFound").max(2 ** 31, "weather.cityNotFound").optional(),
  })
  .refine((q) => (q.country === undefined) === (q.city === undefined), { message: "weather.cityNotFound", path: ["city"] });

/** One day of the forecast: local date (YYYY-MM-DD), WMO weather code, min and max °C. */
export type WeatherDay = { date: string; code: number; min: number; max: number };

/** What the provider said, normalised (stored in weather_cache.data). */
export type WeatherData = {
  current: { temperature: number; code: number; isDay: boolean };
  daily: WeatherDay[];
};

/**
 * The weather card's answer. `fresh`: fetched within 30 minutes; `stale`: the provider is unreachable and
 * this is the last value (see `fetchedAt`); `unavailable`: unreachable and nothing cached; `noCity`: the
 * profile names no city we know (the card offers a picker).
 */
export type WeatherDto = {
  status: "fresh" | "stale" | "unavailable" | "noCity";
  city: { id: number; title: string; countryId: string } | null;
  fetchedAt: string | null;
  weather: WeatherData | null;
};
