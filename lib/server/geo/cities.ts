import "server-only";
import type { Locale } from "@/lib/i18n/config";
import data from "./data/cities.json";
import { isCountryCode } from "./countries";

export type City = { id: number; title: string; countryId: string };

type Row = [geonameId: number, title: string, population: number, titleRu: string];
const byCountry = data.countries as unknown as Record<string, Row[]>;

/**
 * Cities of a country (GeoNames cities15000: over 15 000 people, or a capital), most populous first,
 * so the likeliest choices lead the picker, titled in `locale`. Russian titles exist for every city of
 * Russia and the other CIS countries and for the world's 1,000 largest (scripts/build-geo-cities.ts,
 * docs/adr/0044); other cities keep GeoNames' title in Russian too. Returns null for a code that is not
 * a country.
 */
export function listCities(countryId: string, locale: Locale): City[] | null {
  if (!isCountryCode(countryId)) return null;
  return (byCountry[countryId] ?? []).map(([id, title, , titleRu]) => ({ id, title: (locale === "ru" && titleRu) || title, countryId }));
}
