import "server-only";
import type postgres from "postgres";
import { cityFromText, countryFromText } from "@/lib/server/geo/places";

const BATCH = 1_000;

/**
 * The data step of migration 0019 (docs/adr/0044): accounts saved before places were ids hold titles
 * ("Россия", "Russia", "Казань", "Kazan"). Each becomes its ISO code and GeoNames id by the rules of
 * PUT account/me (lib/server/geo/places.ts, which a migration's SQL could not share); text that names
 * nothing stays as it is. Runs once, in one transaction with dropping the marker the migration made,
 * so a crash midway leaves it pending for the next start. Returns the number of accounts changed.
 */
export async function backfillPlaces(sql: postgres.Sql): Promise<number> {
  return sql.begin(async (tx) => {
    const [marker] = await tx<{ pending: boolean }[]>`select to_regclass('place_backfill_pending') is not null as pending`;
    if (!marker.pending) return 0;
    let changed = 0;
    let last = 0;
    for (;;) {
      const rows = await tx<{ id: string; country: string | null; city: string | null }[]>`
        select id, country, city from accounts
        where id > ${last} and country_code is null and city_id is null and (country is not null or city is not null)
        order by id limit ${BATCH}`;
      if (rows.length === 0) break;
      last = Number(rows[rows.length - 1].id);
      const resolved = rows
        .map((r) => {
          const country = countryFromText(r.country?.trim() || null);
          const city = cityFromText(r.city?.trim() || null, country.countryCode);
          return { id: r.id, ...country, ...city, same: country.countryCode === null && city.cityId === null };
        })
        .filter((r) => !r.same);
      if (resolved.length === 0) continue;
      await tx`
        update accounts a set country_code = v.country_code, country = v.country, city_id = v.city_id, city = v.city
        from unnest(
          ${tx.array(resolved.map((r) => r.id))}::bigint[],
          ${tx.array(resolved.map((r) => r.countryCode ?? ""))}::text[],
          ${tx.array(resolved.map((r) => r.country ?? ""))}::text[],
          ${tx.array(resolved.map((r) => r.cityId ?? 0))}::int[],
          ${tx.array(resolved.map((r) => r.city ?? ""))}::text[]
        ) as v0(id, country_code0, country0, city_id0, city0)
        cross join lateral (
          select nullif(v0.country_code0, '') as country_code, nullif(v0.country0, '') as country,
                 nullif(v0.city_id0, 0) as city_id, nullif(v0.city0, '') as city
        ) v
        where a.id = v0.id`;
      changed += resolved.length;
    }
    await tx`drop table place_backfill_pending`;
    return changed;
  });
}
