import "server-only";
import { AggregatorRegistry } from "prom-client";
import type { Db } from "@/db/client";
import { NotFoundError, ServiceError, UnauthorizedError } from "@/lib/server/http/errors";
import { webWorkersMetrics, type MetricsJson } from "@/lib/server/metrics/cluster";
import { databaseRegistry } from "@/lib/server/metrics/database-gauges";
import { metricsAccess, metricsToken } from "@/lib/server/metrics/token";

/** The realtime sidecar's loopback port, read at each call like the web server does (scripts/next-server.ts). */
export function realtimePort(): number {
  return Number(process.env.REALTIME_PORT || 3001);
}

const SIDECAR_TIMEOUT_MS = 2_000;

/** The sidecar's registry as JSON (realtime/internal.ts), or null when it does not answer. */
async function sidecarMetrics(token: string): Promise<MetricsJson | null> {
  try {
    const res = await fetch(`http://127.0.0.1:${realtimePort()}/internal/metrics`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(SIDECAR_TIMEOUT_MS),
    });
    return res.ok ? ((await res.json()) as MetricsJson) : null;
  } catch {
    return null;
  }
}

/**
 * GET /api/metrics (docs/adr/0140): every web worker's registry (through the cluster primary), the
 * sidecar's, and the figures read from the database once per scrape, merged into one Prometheus text.
 * Each process's series carry its own `service` and `worker` labels, so nothing is summed across them.
 */
export async function scrapeMetrics(db: Db, authorization: string | null): Promise<{ body: string; contentType: string }> {
  const access = metricsAccess(authorization);
  if (access === "disabled") throw new NotFoundError("Not found");
  if (access === "denied") throw new ServiceError("unauthorized", new UnauthorizedError().message, undefined, { "www-authenticate": "Bearer" });
  const token = metricsToken()!;
  const [workers, sidecar] = await Promise.all([webWorkersMetrics(), sidecarMetrics(token)]);
  // Without the sidecar the outbox's lag is read here (its unsequenced events only).
  const database = await databaseRegistry(db, { outbox: sidecar === null });
  const up = { name: "krug_realtime_up", help: "1 when the realtime sidecar answered this scrape.", type: "gauge", aggregator: "sum", values: [{ value: sidecar ? 1 : 0, labels: {} }] };
  const parts = [...workers, ...(sidecar ? [sidecar] : []), (await database.getMetricsAsJSON()) as MetricsJson, [up] as unknown as MetricsJson];
  const merged = AggregatorRegistry.aggregate(parts);
  return { body: await merged.metrics(), contentType: merged.contentType };
}
