import "server-only";
import { sql } from "drizzle-orm";
import { outboxBacklog } from "@/lib/server/metrics/database-gauges";
import { checkReadiness, type Readiness } from "../health";
import { realtimePort } from "../metrics";
import type { ServiceCtx } from "../context";
import { requireStaff } from "./access";

export type HealthOverview = Readiness & {
  /** Age of the oldest committed event not yet sequenced (and so not yet delivered), in seconds. */
  outboxLagSeconds: number | null;
  jobs: { waiting: number; failed: number } | null;
};

/**
 * The admin statistics page's health at a glance (docs/adr/0140): what /api/ready checks (database,
 * the sidecar's listening connection, migrations), the outbox's lag and pg-boss's waiting and failed jobs.
 */
export async function getHealthOverview({ ctx }: { ctx: ServiceCtx }): Promise<HealthOverview> {
  requireStaff(ctx);
  const readiness = await checkReadiness(ctx.db, { realtimePort: realtimePort() });
  if (readiness.database === "down") return { ...readiness, outboxLagSeconds: null, jobs: null };
  const [backlog, jobs] = await Promise.all([
    outboxBacklog(ctx.db, null).catch(() => null),
    ctx.db
      .execute<{ waiting: number; failed: number }>(sql`
        select count(*) filter (where state in ('created', 'retry'))::int as waiting,
               count(*) filter (where state = 'failed')::int as failed
        from pgboss.job`)
      .then(([r]) => ({ waiting: Number(r?.waiting ?? 0), failed: Number(r?.failed ?? 0) }))
      .catch(() => null),
  ]);
  return { ...readiness, outboxLagSeconds: backlog ? Math.round(backlog.oldestAgeSeconds) : null, jobs };
}
