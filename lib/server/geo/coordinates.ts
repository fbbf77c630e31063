import "server-only";
import type { Locale } from "@/lib/i18n/config";
import { listCities, type City } from "./cities";
import data from "./data/city-coordinates.json";
import { findCountry } from "./countries";

// Coordinates of the GeoNames cities (scripts/build-geo-coordinates.ts), for the weather card (docs/adr/0086).
const coordinates = data.coordinates as unknown as Record<string, [lat: number, lon: number]>;

/** A city's latitude and longitude (2 decimals), or null for an id that is not one of our cities. */
export function cityCoordinates(cityId: number): { lat: number; lon: number } | null {
  const hit = coordinates[String(cityId)];
  return hit ? { lat: hit[0], lon: hit[1] } : null;
}

/** The city with GeoNames id `cityId` in country `countryId`, titled in `locale`, or null. */
export function findCity(countryId: string, cityId: number, locale: Locale): City | null {
  return listCities(countryId, locale)?.find((c) => c.id === cityId) ?? null;
}

/**
 * The GeoNames id of a profile's city, from the stored country and city titles (either language, as the
 * settings page saves them). The one place that reads a profile's city for the weather: when accounts carry
 * `city_id` (docs/adr/0044 item 12), this becomes a column read.
 */
export function profileCity(country: string | null, city: string | null): { countryId: string; cityId: number } | null {
  if (!country || !city) return null;
  const countryId = findCountry(country);
  if (!countryId) return null;
  const needle = city.trim().toLowerCase();
  for (const locale of ["ru", "en"] as const) {
    const hit = listCities(countryId, locale)?.find((c) => c.title.toLowerCase() === needle);
    if (hit) return { countryId, cityId: hit.id };
  }
  return null;
}
