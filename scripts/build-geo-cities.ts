/**
 * Builds lib/server/geo/data/cities.json, the cities of GET /api/v1/geo/country/{id}/city.
 *
 * Source: the npm package cities15000-json@1.0.0 (https://www.npmjs.com/package/cities15000-json), a
 * JSON copy of GeoNames' cities15000.txt (https://download.geonames.org/export/dump/: every populated
 * place of over 15 000 people, plus capitals). Data © GeoNames (https://www.geonames.org), licensed
 * CC BY; the attribution travels inside the generated file.
 *
 * Titles are GeoNames' `name` column. Russian titles (docs/adr/0044) are picked from GeoNames' alternate
 * names, which come untagged: among the Cyrillic ones written in the Russian alphabet alone, the one
 * Mari echoes ("Казань ош": Mari names cities by their Russian name), else the one whose BGN/PCGN
 * romanisation is closest to a Latin name of the city, then to its GeoNames name. Only for the cities of
 * Russia and the other CIS countries and the world's 1,000 largest cities; the others keep `name`.
 * Country titles are localised at run time by Intl.DisplayNames.
 *
 * World cities' Russian titles come first from CLDR's exemplar cities (the npm package
 * cldr-dates-full@48.2.0, main/ru/timeZoneNames.json: "Париж", "Лондон", "Москва"), matched by the
 * English exemplar city (or the time zone's own name) against the GeoNames name. Unicode license.
 *
 * Last, lib/server/geo/data/ru-title-overrides.json, a curated list by GeoNames id, replaces the picked
 * Russian title where the alternates give a Ukrainian, Belarusian or misspelled form ("Смоленьск",
 * "Череповетс", "Львив") or none. An override whose id or name no longer matches the source fails the build.
 *
 * Usage: node --import tsx scripts/build-geo-cities.ts [path/to/cities.json [path/to/cldr-dates-full]]
 * Without paths the packages are fetched from the npm registry with `npm pack` into a temporary folder.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const PACKAGE = "cities15000-json@1.0.0";
const CLDR_PACKAGE = "cldr-dates-full@48.2.0";
const OUT = path.join(process.cwd(), "lib/server/geo/data/cities.json");
const OVERRIDES = path.join(process.cwd(), "lib/server/geo/data/ru-title-overrides.json");

// Sections of a city, historical, abandoned or destroyed places are not places to live in.
const EXCLUDED_FEATURES = new Set(["PPLX", "PPLH", "PPLQ", "PPLW", "PPLCH"]);

type SourceCity = {
  id: string;
  name: string;
  asciiname?: string;
  alternativeNames?: string[];
  featureCode: string;
  country: string;
  population: string;
};

/** Russia, the other members of the CIS and its associates: every city gets a Russian title. */
const RUSSIAN_TITLED_COUNTRIES = new Set(["RU", "BY", "KZ", "UA", "AM", "AZ", "KG", "MD", "TJ", "UZ", "TM", "GE"]);
const WORLD_LARGEST = 1_000;

// BGN/PCGN romanisation of Russian (simplified: е is "e" everywhere, which is what GeoNames' Latin names use).
const BGN: Record<string, string> = {
  а: "a", б: "b", в: "v", г: "g", д: "d", е: "e", ё: "e", ж: "zh", з: "z", и: "i", й: "y", к: "k", л: "l", м: "m",
  н: "n", о: "o", п: "p", р: "r", с: "s", т: "t", у: "u", ф: "f", х: "kh", ц: "ts", ч: "ch", ш: "sh", щ: "shch",
  ъ: "", ы: "y", ь: "", э: "e", ю: "yu", я: "ya",
};
const romanise = (ru: string) => [...ru.toLowerCase()].map((c) => BGN[c] ?? (/[a-z0-9]/.test(c) ? c : "")).join("");
const latinKey = (s: string) => s.toLowerCase().normalize("NFD").replace(/[^a-z0-9]/g, "");
const RUSSIAN_ONLY = /^[А-ЯЁа-яё]+([ -][А-ЯЁа-яё]+)*$/;

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

/** The Russian title of a city among its alternate names, or "" when none fits. */
function russianTitle(c: SourceCity, wholeAlternates: boolean): string {
  const alternates = c.alternativeNames ?? [];
  const cyrillic = alternates.filter((a) => /[\u0400-\u04ff]/.test(a));
  const candidates = cyrillic.filter((a) => RUSSIAN_ONLY.test(a.trim()));
  if (candidates.length === 0) return "";
  const latin = [c.name, c.asciiname ?? "", ...alternates.filter((a) => /^[\p{Script=Latin}\s'’.-]+$/u.test(a))].map(latinKey).filter(Boolean);
  const own = [c.name, c.asciiname ?? ""].map(latinKey).filter(Boolean);
  const near = (roman: string, to: string[]) => Math.min(...to.map((l) => distance(roman, l) / Math.max(l.length, roman.length, 1)));
  // Mari names a city "<Russian name> ош" ("Казань ош", "Париж ош"): the one language that echoes Russian.
  const echoed = (candidate: string) => cyrillic.some((other) => other.trim() === `${candidate.trim()} ош`);
  // Nearest any Latin name of the city (GeoNames lists the Russian romanisation among them), then the
  // GeoNames name itself; then echoed by Mari; then not Ukrainian-looking ("-ськ"), hyphenated ("Ростов-на-Дону"),
  // longer ("Пермь" over "Перм": BGN drops the soft sign).
  const scoreOf = (candidate: string) => {
    const roman = romanise(candidate);
    return [
      near(roman, latin),
      near(roman, own),
      echoed(candidate) ? 0 : 1,
      /[сц]ьк/.test(candidate) ? 1 : 0,
      -(candidate.match(/-/g)?.length ?? 0),
      -candidate.length,
    ];
  };
  const ranked = candidates.map((c) => ({ c, score: scoreOf(c) })).sort((x, y) => {
    for (let i = 0; i < x.score.length; i++) if (x.score[i] !== y.score[i]) return x.score[i] - y.score[i];
    return 0;
  });
  const best = ranked[0].c;
  const echo = candidates.find((c) => echoed(c));
  // Outside the CIS a near spelling is as likely Serbian or Bulgarian: only a Mari-echoed name is taken.
  if (!wholeAlternates) return echo?.trim() ?? "";
// Nothing like any Latin name and repeated nowhere: more likely another city's or language's name.
  return Math.min(ranked[0].score[0], ranked[0].score[1]) <= 0.34 || echo === best ? best.trim() : "";
}

/** Reads `file` of npm package `spec` from `given` (an unpacked copy), else from `npm pack` in a temporary folder. */
function fromPackage<T>(spec: string, file: string, given: string | undefined, direct = false): T {
  if (given) return JSON.parse(readFileSync(direct ? given : path.join(given, file), "utf8"));
  const dir = mkdtempSync(path.join(os.tmpdir(), "krug-geo-"));
  try {
    const tgz = execFileSync("npm", ["pack", spec, "--silent"], { cwd: dir, encoding: "utf8" }).trim().split("\n").pop()!;
    execFileSync("tar", ["xzf", tgz, `package/${file}`], { cwd: dir });
    return JSON.parse(readFileSync(path.join(dir, "package", file), "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const loadSource = () => fromPackage<SourceCity[]>(PACKAGE, "cities.json", process.argv[2], true);

type ZoneTree = { [key: string]: ZoneTree | string | undefined; exemplarCity?: string };
/** English city name (lower case) → CLDR's Russian exemplar city, from every time zone. */
function loadExemplarCities(): Map<string, string> {
  const zones = (lang: string) =>
    fromPackage<{ main: Record<string, { dates: { timeZoneNames: { zone: ZoneTree } } }> }>(
      CLDR_PACKAGE,
      `main/${lang}/timeZoneNames.json`,
      process.argv[3],
    ).main[lang].dates.timeZoneNames.zone;
  const walk = (tree: ZoneTree, prefix: string[], out: Map<string, string>) => {
    for (const [key, value] of Object.entries(tree)) {
      if (typeof value !== "object" || !value) continue;
      if (typeof value.exemplarCity === "string") out.set([...prefix, key].join("/"), value.exemplarCity);
      else walk(value, [...prefix, key], out);
    }
    return out;
  };
  const ru = walk(zones("ru"), [], new Map());
  const en = walk(zones("en"), [], new Map());
  const byEnglish = new Map<string, string>();
  for (const [zone, title] of ru) {
    // English exemplar cities are mostly implied by the zone id ("America/New_York" → "New York").
    const english = en.get(zone) ?? zone.split("/").pop()!.replace(/_/g, " ");
    byEnglish.set(english.toLowerCase(), title);
  }
  return byEnglish;
}

const source = loadSource().filter((c) => /^[A-Z]{2}$/.test(c.country) && !EXCLUDED_FEATURES.has(c.featureCode) && c.name);
const largest = new Set(
  [...source].sort((a, b) => (Number(b.population) || 0) - (Number(a.population) || 0)).slice(0, WORLD_LARGEST).map((c) => c.id),
);
const byCountry: Record<string, [number, string, number, string][]> = {};
let kept = 0;
let russian = 0;
const exemplar = loadExemplarCities();
const overrides = new Map(
  Object.entries((JSON.parse(readFileSync(OVERRIDES, "utf8")) as { titles: Record<string, [string, string, string]> }).titles),
);
const applied = new Set<string>();
for (const c of source) {
  const cis = RUSSIAN_TITLED_COUNTRIES.has(c.country);
  const wanted = cis || largest.has(c.id);
  const override = overrides.get(c.id);
  if (override && (override[0] !== c.country || override[1] !== c.name.trim())) {
    throw new Error(`ru-title-overrides.json: ${c.id} is ${c.country} ${c.name}, not ${override[0]} ${override[1]}`);
  }
  if (override) applied.add(c.id);
  const picked = wanted ? (exemplar.get(c.name.toLowerCase()) ?? exemplar.get((c.asciiname ?? "").toLowerCase()) ?? russianTitle(c, cis)) : "";
  const ru = override ? override[2] : picked;
  if (ru) russian++;
  (byCountry[c.country] ??= []).push([Number(c.id), c.name.trim(), Number(c.population) || 0, ru]);
  kept++;
}
const stale = [...overrides.keys()].filter((id) => !applied.has(id));
if (stale.length > 0) throw new Error(`ru-title-overrides.json: ids not in the source: ${stale.join(", ")}`);
// Most populous first (the likeliest choice at the top of the picker), then by title.
for (const list of Object.values(byCountry)) list.sort((a, b) => b[2] - a[2] || a[1].localeCompare(b[1], "en"));

const out = {
  source: `GeoNames cities15000 via the npm package ${PACKAGE}`,
  attribution: "Data © GeoNames (https://www.geonames.org), licensed under Creative Commons Attribution",
  fields: ["geonameId", "title", "population", "titleRu"],
  countries: Object.fromEntries(Object.entries(byCountry).sort(([a], [b]) => a.localeCompare(b))),
};
writeFileSync(OUT, JSON.stringify(out) + "\n");
console.log(`${kept} cities (${russian} with a Russian title) in ${Object.keys(byCountry).length} countries → ${path.relative(process.cwd(), OUT)}`);
