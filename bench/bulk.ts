// Bulk loading for the generators: a table's secondary indexes (every index that backs no constraint)
// are dropped before a load and rebuilt after it, inside one transaction. Building a B-tree or GIN index
// once, by sorting, is several times faster than inserting millions of entries one by one in random
// key order; and since DDL is transactional in Postgres, an interrupted load leaves the indexes as they
// were (the rollback restores them with the rows).
import type postgres from "postgres";

/** Runs `load` in a transaction with the secondary indexes of `tables` dropped, and rebuilds them before commit. */
export async function withoutSecondaryIndexes<T>(sql: postgres.Sql, tables: string[], load: (tx: postgres.TransactionSql) => Promise<T>): Promise<T> {
  return (await sql.begin(async (tx) => {
    const indexes = await tx<{ name: string; def: string }[]>`
      select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
      from pg_index i
      where i.indrelid = any(${tables}::regclass[])
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`;
    for (const i of indexes) await tx.unsafe(`drop index ${i.name}`);
    const result = await load(tx);
    for (const i of indexes) await tx.unsafe(i.def);
    return result;
  })) as T;
}

/**
 * VACUUM marks a page all-visible (what lets a count or a feed page be an index-only scan) only once
 * the commits of its rows are on disk, and a commit made with synchronous_commit off may not be yet:
 * right after an asynchronous load, VACUUM left every page of a million notifications not all-visible.
 * A synchronous write flushes the WAL up to it. Call before the generator's VACUUM.
 */
export async function flushAsyncCommits(sql: postgres.Sql): Promise<void> {
  await sql`set synchronous_commit = on`;
  await sql`create table if not exists bench_flush (at timestamptz not null)`;
  await sql`insert into bench_flush (at) values (now())`;
}
