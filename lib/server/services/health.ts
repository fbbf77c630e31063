import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { expectedMigrationCount } from "@/db/migrate";

export type Readiness = { ready: boolean; database: "up" | "down"; migrations: { applied: number; expected: number } };

/** Ready means: the database answers and every migration this build ships has been applied. */
export async function checkReadiness(db: Db): Promise<Readiness> {
  const expected = expectedMigrationCount();
  try {
    const [table] = await db.execute<{ name: string | null }>(sql`select to_regclass('drizzle.__drizzle_migrations')::text as name`);
    let applied = 0;
    if (table?.name) {
      const rows = await db.execute<{ applied: string }>(sql`select count(*) as applied from drizzle.__drizzle_migrations`);
      applied = Number(rows[0]?.applied ?? 0);
    }
    return { ready: applied >= expected, database: "up", migrations: { applied, expected } };
  } catch {
    return { ready: false, database: "down", migrations: { applied: 0, expected } };
  }
}
