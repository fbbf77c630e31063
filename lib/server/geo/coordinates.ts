import "server-only";
import type { Locale } from "@/lib/i18n/config";
import { listCities, type City } from "./cities";
import data from "./data/city-coordinates.json";

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
