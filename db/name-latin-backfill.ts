import "server-only";
import type postgres from "postgres";
import { accountNameLatin } from "@/lib/server/search/name-latin";

const BATCH = 1_000;

/**
 * The data step of the migrations that added accounts.name_latin (0035, docs/adr/0132) and changed how it
 * is made (0047, docs/adr/0166): every account gets the cross-script key of its name as the code makes it
 * now (the npm transliteration, which SQL could not share). Keyset batches of 1,000 over every account,
 * each its own short transaction, writing only the keys that differ (a missing one or one made by an
 * earlier fold), so no row stays locked for longer than one batch and an unchanged key fires no token
 * trigger; the marker a migration made is dropped after the last batch, and a crash midway starts over
 * (a batch already done writes nothing). An anonymised account (deleted, its key gone) keeps none.
 * Returns the accounts whose key was written.
 */
export async function backfillNameLatin(sql: postgres.Sql): Promise<number> {
  const [marker] = await sql<{ pending: boolean }[]>`select to_regclass('name_latin_backfill_pending') is not null as pending`;
  if (!marker.pending) return 0;
  let filled = 0;
  let last = 0;
  for (;;) {
    const rows = await sql<{ id: string; first_name: string; last_name: string }[]>`
      select id, first_name, last_name from accounts
      where id > ${last} and (name_latin is not null or not is_deleted) order by id limit ${BATCH}`;
    if (rows.length === 0) break;
    last = Number(rows[rows.length - 1].id);
    const written = await sql`
      update accounts a set name_latin = v.key
      from unnest(${sql.array(rows.map((r) => r.id))}::bigint[], ${sql.array(rows.map((r) => accountNameLatin(r.first_name, r.last_name)))}::text[]) as v(id, key)
      where a.id = v.id and a.name_latin is distinct from v.key`;
    filled += written.count;
  }
  await sql`drop table if exists name_latin_backfill_pending`;
  return filled;
}
