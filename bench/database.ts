// Where the benchmarks run: BENCH_DATABASE_URL, else DATABASE_URL, else a database krug_bench on the
// machine's Postgres (127.0.0.1:5432, user postgres), created when missing. Migrated before use.
import { createSql } from "@/db/client";
import { runMigrations } from "@/db/migrate";

export const DEFAULT_BENCH_URL = "postgres://postgres@127.0.0.1:5432/krug_bench";

export function benchDatabaseUrl(): string {
  return process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || DEFAULT_BENCH_URL;
}

/** Creates the database if it does not exist yet, then applies every migration. */
export async function prepareBenchDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const dbName = decodeURIComponent(target.pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/.test(dbName)) throw new Error(`unexpected database name "${dbName}"`);
  const adminUrl = new URL(url);
  adminUrl.pathname = "/postgres";
  const admin = createSql(adminUrl.toString(), { max: 1, onnotice: () => {} });
  try {
    const [exists] = await admin`select 1 as one from pg_database where datname = ${dbName}`;
    if (!exists) await admin.unsafe(`create database ${dbName}`);
  } finally {
    await admin.end();
  }
  await runMigrations(url);
}
