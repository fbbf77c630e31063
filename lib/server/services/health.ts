import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { expectedMigrationCount } from "@/db/migrate";

export type Readiness = {
  ready: boolean;
  database: "up" | "down";
  /** The realtime sidecar's listening connection (LISTEN krug_events): a NOTIFY came back on it (docs/adr/0140). */
  listener: "up" | "down";
  migrations: { applied: number; expected: number };
};

const LISTENER_TIMEOUT_MS = 2_500;

/** Asks the sidecar on its loopback port whether its listening connection hears a NOTIFY (realtime/internal.ts). */
async function listenerUp(realtimePort: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${realtimePort}/internal/ready`, { signal: AbortSignal.timeout(LISTENER_TIMEOUT_MS) });
    return res.ok && ((await res.json()) as { listening?: unknown }).listening === true;
  } catch {
    return false;
  }
}

async function migrationsApplied(db: Db): Promise<number | null> {
  try {
    const [table] = await db.execute<{ name: string | null }>(sql`select to_regclass('drizzle.__drizzle_migrations')::text as name`);
    if (!table?.name) return 0;
    const rows = await db.execute<{ applied: string }>(sql`select count(*) as applied from drizzle.__drizzle_migrations`);
    return Number(rows[0]?.applied ?? 0);
  } catch {
    return null;
  }
}

/**
 * Ready means: the database answers, every migration this build ships has been applied, and the
 * sidecar's listening connection is up (without it no event reaches a socket).
 */
export async function checkReadiness(db: Db, options: { realtimePort: number }): Promise<Readiness> {
  const expected = expectedMigrationCount();
  const [applied, listening] = await Promise.all([migrationsApplied(db), listenerUp(options.realtimePort)]);
  const database = applied === null ? "down" : "up";
  return {
    ready: applied !== null && applied >= expected && listening,
    database,
    listener: listening ? "up" : "down",
    migrations: { applied: applied ?? 0, expected },
  };
}
