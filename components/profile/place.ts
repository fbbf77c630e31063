import "server-only";
import type { Locale } from "@/lib/i18n/config";
import { placeView } from "@/lib/server/geo/places";

/**
 * "City, Country" as the viewer reads it: titled in the viewer's language from the ISO code and the
 * GeoNames id (docs/adr/0044), whatever language the profile was saved in; text that names no place
 * (another client's) is shown as typed.
 */
export function placeOf(
  account: { city: string | null; cityId: number | null; country: string | null; countryId: string | null },
  locale: Locale,
): string {
  const view = placeView({ countryCode: account.countryId, country: account.country, cityId: account.cityId, city: account.city }, locale);
  return [view.city?.trim(), view.country?.trim()].filter(Boolean).join(", ");
}
