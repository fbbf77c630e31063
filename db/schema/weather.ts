import { bigint, jsonb, pgTable, timestamp } from "drizzle-orm/pg-core";

/**
 * The weather of a city as the provider last answered it (issue 13, docs/adr/0086): one row per GeoNames
 * city id, shared by every instance. Fresh for 30 minutes; older rows are still shown, with their time, when
 * the provider is unreachable. A few thousand cities at most, each overwritten in place: no index beyond the key.
 */
export const weatherCache = pgTable("weather_cache", {
  cityId: bigint({ mode: "number" }).primaryKey(),
  /** The normalised forecast (lib/validation/weather: WeatherData), not the provider's raw answer. */
  data: jsonb().notNull(),
  fetchedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
