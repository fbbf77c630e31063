import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { createDb, createSql } from "./client";
import { backfillNameLatin } from "./name-latin-backfill";
import { backfillPlaces } from "./place-backfill";

export const migrationsFolder = path.join(process.cwd(), "drizzle");

// Any constant shared by all Krug instances: several starting at once migrate one after another.
const MIGRATION_LOCK = 7_311_001;

/** Applies every pending migration of drizzle/ under an advisory lock. */
export async function runMigrations(url: string): Promise<void> {
  const sql = createSql(url, { max: 1 });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(createDb(sql), { migrationsFolder });
    // Data steps a migration leaves to code (each a no-op once done).
    await backfillPlaces(sql);
    await backfillNameLatin(sql);
    await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Number of migrations this build ships; /api/ready compares it with what the database applied. */
export function expectedMigrationCount(): number {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
    entries: unknown[];
  };
  return journal.entries.length;
}
