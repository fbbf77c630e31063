import "server-only";
import { desc, sql } from "drizzle-orm";
import { backupRuns } from "@/db/schema";
import { env } from "@/lib/server/env";
import { outboxBacklog } from "@/lib/server/metrics/database-gauges";
import { checkReadiness, type Readiness } from "../health";
import { realtimePort } from "../metrics";
import type { ServiceCtx } from "../context";
import { requireStaff } from "./access";

export type HealthOverview = Readiness & {
  /** Age of the oldest committed event not yet sequenced (and so not yet delivered), in seconds. */
  outboxLagSeconds: number | null;
  jobs: { waiting: number; failed: number } | null;
  /** The latest backup run (docs/adr/0141), and whether the daily one is set up (BACKUP_TARGET). */
  backup: {
    scheduled: boolean;
    last: { result: string; trigger: string; finishedAt: Date; bytes: number | null; destinationBytes: number | null; error: string | null } | null;
  };
};

/**
 * The admin statistics page's health at a glance (docs/adr/0140): what /api/ready checks (database,
 * the sidecar's listening connection, migrations), the outbox's lag and pg-boss's waiting and failed jobs.
 */
export async function getHealthOverview({ ctx }: { ctx: ServiceCtx }): Promise<HealthOverview> {
  requireStaff(ctx);
  const readiness = await checkReadiness(ctx.db, { realtimePort: realtimePort() });
  const scheduled = Boolean(env().BACKUP_TARGET);
  if (readiness.database === "down") return { ...readiness, outboxLagSeconds: null, jobs: null, backup: { scheduled, last: null } };
  const [backlog, jobs, runs] = await Promise.all([
    outboxBacklog(ctx.db, null).catch(() => null),
    ctx.db
      .execute<{ waiting: number; failed: number }>(sql`
        select count(*) filter (where state in ('created', 'retry'))::int as waiting,
               count(*) filter (where state = 'failed')::int as failed
        from pgboss.job`)
      .then(([r]) => ({ waiting: Number(r?.waiting ?? 0), failed: Number(r?.failed ?? 0) }))
      .catch(() => null),
    ctx.db.select().from(backupRuns).orderBy(desc(backupRuns.finishedAt)).limit(1).catch(() => []),
  ]);
  const run = runs[0];
  const last = run
    ? {
        result: run.result,
        trigger: run.trigger,
        finishedAt: run.finishedAt,
        bytes: run.result === "succeeded" ? (run.databaseBytes ?? 0) + (run.uploadsBytes ?? 0) : null,
        destinationBytes: run.destinationBytes,
        error: run.error,
      }
    : null;
  return { ...readiness, outboxLagSeconds: backlog ? Math.round(backlog.oldestAgeSeconds) : null, jobs, backup: { scheduled, last } };
}
