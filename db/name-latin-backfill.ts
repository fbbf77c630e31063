import "server-only";
import type postgres from "postgres";
import { accountNameLatin } from "@/lib/server/search/name-latin";

const BATCH = 1_000;

/**
 * The data step of the migration that added accounts.name_latin (docs/adr/0132): every account saved
 * before it gets the cross-script key of its name, computed by the same npm transliteration as on every
 * name change (SQL could not share it). Keyset batches of 1,000, each its own short transaction, so no
 * row stays locked for longer than one batch; the marker the migration made is dropped after the last
 * batch, and a crash midway resumes where the keys are still missing. Returns the accounts filled.
 */
export async function backfillNameLatin(sql: postgres.Sql): Promise<number> {
  const [marker] = await sql<{ pending: boolean }[]>`select to_regclass('name_latin_backfill_pending') is not null as pending`;
  if (!marker.pending) return 0;
  let filled = 0;
  let last = 0;
  for (;;) {
    const rows = await sql<{ id: string; first_name: string; last_name: string }[]>`
      select id, first_name, last_name from accounts where id > ${last} and name_latin is null order by id limit ${BATCH}`;
    if (rows.length === 0) break;
    last = Number(rows[rows.length - 1].id);
    await sql`
      update accounts a set name_latin = v.key
      from unnest(${sql.array(rows.map((r) => r.id))}::bigint[], ${sql.array(rows.map((r) => accountNameLatin(r.first_name, r.last_name)))}::text[]) as v(id, key)
      where a.id = v.id and a.name_latin is null`;
    filled += rows.length;
  }
  await sql`drop table if exists name_latin_backfill_pending`;
  return filled;
}
