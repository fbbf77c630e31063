import "server-only";
import data from "./data/cities.json";
import { isCountryCode } from "./countries";

export type City = { id: number; title: string; countryId: string };

type Row = [geonameId: number, title: string, population: number];
const byCountry = data.countries as unknown as Record<string, Row[]>;

/**
 * Cities of a country (GeoNames cities15000: over 15 000 people, or a capital), most populous first,
 * so the likeliest choices lead the picker. See scripts/build-geo-cities.ts for the source. The data
 * set carries no Russian titles, so both languages get GeoNames' own title.
 * Returns null for a code that is not a country.
 */
export function listCities(countryId: string): City[] | null {
  if (!isCountryCode(countryId)) return null;
  return (byCountry[countryId] ?? []).map(([id, title]) => ({ id, title, countryId }));
}
