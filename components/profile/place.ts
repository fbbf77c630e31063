import "server-only";
import type { Locale } from "@/lib/i18n/config";
import { countryTitle, findCountry } from "@/lib/server/geo/countries";

/**
 * "City, Country" as the viewer reads it: a country saved as a code (or as its title in either
 * language) is titled in the viewer's language by the geo service; anything else is shown as typed.
 * GeoNames carries one title per city, so the city is shown as saved.
 */
export function placeOf(city: string | null, country: string | null, locale: Locale): string {
  const code = country ? findCountry(country) : null;
  const countryText = code ? countryTitle(code, locale) : country?.trim();
  return [city?.trim(), countryText].filter(Boolean).join(", ");
}
