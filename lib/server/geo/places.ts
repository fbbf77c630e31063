import "server-only";
import type { Locale } from "@/lib/i18n/config";
import { listCities } from "./cities";
import { COUNTRY_CODES, countryTitle, findCountry, listCountries } from "./countries";

/**
 * An account's place as stored (docs/adr/0044, issue 7 item 12): the ISO country code and the GeoNames
 * city id; the text columns hold only what resolves to neither (another client's free text).
 */
export type StoredPlace = { countryCode: string | null; country: string | null; cityId: number | null; city: string | null };

/** A place as the API shows it: titles in the request's language, the ids beside them. */
export type PlaceView = { country: string | null; countryId: string | null; city: string | null; cityId: number | null };

type CityEntry = { id: number; countryId: string; en: string; ru: string };

let index: { byId: Map<number, CityEntry>; byCountry: Map<string, CityEntry[]> } | null = null;

/** Every city once, with both titles, from the same lists the picker shows (most populous first). */
function cities() {
  if (!index) {
    const byId = new Map<number, CityEntry>();
    const byCountry = new Map<string, CityEntry[]>();
    for (const code of COUNTRY_CODES) {
      const en = listCities(code, "en") ?? [];
      const ru = listCities(code, "ru") ?? [];
      const list = en.map((c, i) => ({ id: c.id, countryId: code, en: c.title, ru: ru[i].title }));
      byCountry.set(code, list);
      for (const c of list) byId.set(c.id, c);
    }
    index = { byId, byCountry };
  }
  return index;
}

/** The city of a GeoNames id, or null when it is not one of ours. */
export function cityById(id: number): { id: number; countryId: string } | null {
  const c = cities().byId.get(id);
  return c ? { id: c.id, countryId: c.countryId } : null;
}

/** A city's title in `locale` (the title the picker shows), or null for an unknown id. */
export function cityTitle(id: number, locale: Locale): string | null {
  const c = cities().byId.get(id);
  return c ? c[locale] : null;
}

const lower = (s: string) => s.trim().toLocaleLowerCase("ru");

function candidates(countryId: string | null): CityEntry[] {
  if (countryId) return cities().byCountry.get(countryId) ?? [];
  return [...cities().byCountry.values()].flat();
}

/**
 * The GeoNames id a typed city title names, in either language and any case: within `countryId` the
 * most populous city of that title (the first the picker lists); without a country only a title that
 * names one city in the world. Null when nothing (or, without a country, more than one city) matches.
 */
export function findCity(text: string, countryId: string | null): number | null {
  const needle = lower(text);
  if (!needle) return null;
  const hits = candidates(countryId).filter((c) => lower(c.en) === needle || lower(c.ru) === needle);
  if (hits.length === 0) return null;
  return countryId || hits.length === 1 ? hits[0].id : null;
}

/** Ids of the cities whose title in either language contains `text` (people search), within `countryId` if given. */
export function cityIdsContaining(text: string, countryId: string | null): number[] {
  const needle = lower(text);
  if (!needle) return [];
  return candidates(countryId)
    .filter((c) => lower(c.en).includes(needle) || lower(c.ru).includes(needle))
    .map((c) => c.id);
}

/** Codes of the countries whose title in either language contains `text` (people search). */
export function countryCodesContaining(text: string): string[] {
  const needle = lower(text);
  if (!needle) return [];
  const codes = new Set<string>();
  for (const locale of ["ru", "en"] as const) for (const c of listCountries(locale)) if (lower(c.title).includes(needle)) codes.add(c.id);
  return [...codes].sort();
}

/** The stored place rendered for `locale`: titles from the ids, free text as saved. */
export function placeView(p: StoredPlace, locale: Locale): PlaceView {
  return {
    country: p.countryCode ? countryTitle(p.countryCode, locale) : p.country,
    countryId: p.countryCode,
    city: (p.cityId !== null && cityTitle(p.cityId, locale)) || p.city,
    cityId: p.cityId !== null && cityById(p.cityId) ? p.cityId : null,
  };
}

/** A country as given by a client: a code, or a title in either language; what resolves to nothing stays text. */
export function countryFromText(text: string | null): Pick<StoredPlace, "countryCode" | "country"> {
  if (!text) return { countryCode: null, country: null };
  const code = findCountry(text);
  return code ? { countryCode: code, country: null } : { countryCode: null, country: text };
}

/** A city typed for a country: its GeoNames id when the title names one there, else the text. */
export function cityFromText(text: string | null, countryCode: string | null): Pick<StoredPlace, "cityId" | "city"> {
  if (!text) return { cityId: null, city: null };
  const id = findCity(text, countryCode);
  return id !== null ? { cityId: id, city: null } : { cityId: null, city: text };
}
