// Figures read from the database at scrape time (docs/adr/0140): the outbox's lag, pg-boss's queues and
// the database connections. One scrape reads them once (not once per process).
import { sql } from "drizzle-orm";
import { Gauge, Registry } from "prom-client";
import type { Db } from "@/db/client";

/**
 * The events not yet fanned out: committed but unsequenced, or sequenced after `cursor` (the sidecar's
 * last delivered position; null counts only the unsequenced). Both reads use an index (events_unsequenced_idx,
 * events_position_key).
 */
export async function outboxBacklog(db: Db, cursor: number | null): Promise<{ events: number; oldestAgeSeconds: number }> {
  const [row] = await db.execute<{ n: number; age: number | null }>(sql`
    select count(*)::int as n, extract(epoch from now() - min(created_at))::float8 as age
    from events where position is null ${cursor === null ? sql`` : sql`or position > ${cursor}`}`);
  return { events: Number(row?.n ?? 0), oldestAgeSeconds: Math.max(0, Number(row?.age ?? 0)) };
}

export function outboxGauges(registers: Registry[]) {
  const existing = registers[0].getSingleMetric("krug_outbox_lag_seconds");
  if (existing) return { lag: existing as Gauge, backlog: registers[0].getSingleMetric("krug_outbox_undelivered_events") as Gauge };
  return {
    lag: new Gauge({ name: "krug_outbox_lag_seconds", help: "Age of the oldest outbox event not yet delivered to the sockets (0: none waits).", registers }),
    backlog: new Gauge({ name: "krug_outbox_undelivered_events", help: "Outbox events not yet delivered to the sockets.", registers }),
  };
}

/** pg-boss's jobs by queue and state, the database's connections by state, and whether it answered at all. */
export async function databaseRegistry(db: Db, options: { outbox: boolean }): Promise<Registry> {
  const registry = new Registry();
  const registers = [registry];
  const up = new Gauge({ name: "krug_database_up", help: "1 when the database answered this scrape's queries.", registers });
  const jobs = new Gauge({ name: "krug_jobs", help: "pg-boss jobs by queue and state (created and retry: waiting; active; failed: given up).", labelNames: ["queue", "state"], registers });
  const connections = new Gauge({ name: "krug_db_connections", help: "Connections to Krug's database by state (pg_stat_activity), from every process.", labelNames: ["state"], registers });
  const outbox = options.outbox ? outboxGauges(registers) : null;
  try {
    const [byState, byJob] = await Promise.all([
      db.execute<{ state: string | null; n: number }>(sql`
        select coalesce(state, 'unknown') as state, count(*)::int as n from pg_stat_activity
        where datname = current_database() and backend_type = 'client backend' group by 1`),
      db.execute<{ name: string; state: string; n: number }>(sql`
        select name, state::text as state, count(*)::int as n from pgboss.job group by 1, 2`).catch(() => []),
    ]);
    for (const s of ["active", "idle", "idle in transaction"]) connections.set({ state: s }, 0);
    for (const r of byState) connections.set({ state: r.state ?? "unknown" }, Number(r.n));
    for (const r of byJob) jobs.set({ queue: r.name, state: r.state }, Number(r.n));
    if (outbox) {
      const b = await outboxBacklog(db, null);
      outbox.lag.set(b.oldestAgeSeconds);
      outbox.backlog.set(b.events);
    }
    up.set(1);
  } catch {
    up.set(0);
  }
  return registry;
}
