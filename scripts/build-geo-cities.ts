/**
 * Builds lib/server/geo/data/cities.json, the cities of GET /api/v1/geo/country/{id}/city.
 *
 * Source: the npm package cities15000-json@1.0.0 (https://www.npmjs.com/package/cities15000-json), a
 * JSON copy of GeoNames' cities15000.txt (https://download.geonames.org/export/dump/: every populated
 * place of over 15 000 people, plus capitals). Data © GeoNames (https://www.geonames.org), licensed
 * CC BY; the attribution travels inside the generated file.
 *
 * Titles are GeoNames' `name` column. The package has no language-tagged names (GeoNames' alternate
 * names come untagged in cities15000), so there are no Russian city titles to take: the Russian
 * interface shows the same titles as the English one. Country titles are localised at run time by
 * Intl.DisplayNames instead.
 *
 * Usage: node --import tsx scripts/build-geo-cities.ts [path/to/cities.json]
 * Without a path the package is fetched from the npm registry with `npm pack` into a temporary folder.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const PACKAGE = "cities15000-json@1.0.0";
const OUT = path.join(process.cwd(), "lib/server/geo/data/cities.json");

// Sections of a city, historical, abandoned or destroyed places are not places to live in.
const EXCLUDED_FEATURES = new Set(["PPLX", "PPLH", "PPLQ", "PPLW", "PPLCH"]);

type SourceCity = { id: string; name: string; featureCode: string; country: string; population: string };

function loadSource(): SourceCity[] {
  const given = process.argv[2];
  if (given) return JSON.parse(readFileSync(given, "utf8"));
  const dir = mkdtempSync(path.join(os.tmpdir(), "krug-geo-"));
  try {
    const tgz = execFileSync("npm", ["pack", PACKAGE, "--silent"], { cwd: dir, encoding: "utf8" }).trim().split("\n").pop()!;
    execFileSync("tar", ["xzf", tgz], { cwd: dir });
    return JSON.parse(readFileSync(path.join(dir, "package", "cities.json"), "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const byCountry: Record<string, [number, string, number][]> = {};
let kept = 0;
for (const c of loadSource()) {
  if (!/^[A-Z]{2}$/.test(c.country) || EXCLUDED_FEATURES.has(c.featureCode) || !c.name) continue;
  (byCountry[c.country] ??= []).push([Number(c.id), c.name.trim(), Number(c.population) || 0]);
  kept++;
}
// Most populous first (the likeliest choice at the top of the picker), then by title.
for (const list of Object.values(byCountry)) list.sort((a, b) => b[2] - a[2] || a[1].localeCompare(b[1], "en"));

const out = {
  source: `GeoNames cities15000 via the npm package ${PACKAGE}`,
  attribution: "Data © GeoNames (https://www.geonames.org), licensed under Creative Commons Attribution",
  fields: ["geonameId", "title", "population"],
  countries: Object.fromEntries(Object.entries(byCountry).sort(([a], [b]) => a.localeCompare(b))),
};
writeFileSync(OUT, JSON.stringify(out) + "\n");
console.log(`${kept} cities in ${Object.keys(byCountry).length} countries → ${path.relative(process.cwd(), OUT)}`);
