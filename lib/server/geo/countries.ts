import "server-only";
import type { Locale } from "@/lib/i18n/config";

/**
 * ISO 3166-1 alpha-2: the 249 officially assigned codes (CLDR's extra region codes such as EU, UN,
 * XK or the withdrawn SU, YU are left out). Titles come from Intl.DisplayNames, built into Node.
 */
const ISO_CODES = `
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS
BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE
EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM
HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC
LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA
NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW
SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO
TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW`
  .trim()
  .split(/\s+/);

export const COUNTRY_CODES: ReadonlySet<string> = new Set(ISO_CODES);

export type Country = { id: string; title: string };

const cache = new Map<Locale, Country[]>();

export function countryTitle(code: string, locale: Locale): string {
  return new Intl.DisplayNames([locale], { type: "region", fallback: "code" }).of(code) ?? code;
}

/** Every country, titled in `locale` and sorted by that title the way the language sorts. */
export function listCountries(locale: Locale): Country[] {
  let list = cache.get(locale);
  if (!list) {
    const names = new Intl.DisplayNames([locale], { type: "region", fallback: "code" });
    const collator = new Intl.Collator(locale);
    list = ISO_CODES.map((id) => ({ id, title: names.of(id) ?? id })).sort((a, b) => collator.compare(a.title, b.title));
    cache.set(locale, list);
  }
  return list;
}

export function isCountryCode(code: string): boolean {
  return COUNTRY_CODES.has(code);
}

/**
 * The country a free-text value names, by code or by its title in any of our languages
 * ("ru", "Russia", "россия" → RU), or null. PUT account/me and people search resolve typed countries by it.
 */
export function findCountry(text: string): string | null {
  const needle = text.trim().toLowerCase();
  if (COUNTRY_CODES.has(needle.toUpperCase())) return needle.toUpperCase();
  for (const locale of ["ru", "en"] as const) {
    const hit = listCountries(locale).find((c) => c.title.toLowerCase() === needle);
    if (hit) return hit.id;
  }
  return null;
}
