// The sidecar's two internal answers on its loopback port (docs/adr/0140), read by the web server:
// GET /internal/ready — whether a NOTIFY sent through the pool comes back on the listening connection
// (both are then up); GET /internal/metrics — this process's registry as JSON, with the open sockets
// and the outbox's lag behind this sidecar's cursor (Bearer METRICS_TOKEN, as /api/metrics).
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { sql } from "drizzle-orm";
import type postgres from "postgres";
import type { Db } from "@/db/client";
import { outboxBacklog, outboxGauges } from "@/lib/server/metrics/database-gauges";
import { processMetrics } from "@/lib/server/metrics/registry";
import { metricsAccess } from "@/lib/server/metrics/token";
import type { Hub } from "./hub";

export const INTERNAL_READY_PATH = "/internal/ready";
export const INTERNAL_METRICS_PATH = "/internal/metrics";
const PROBE_CHANNEL = "krug_ready_probe";
const PROBE_TIMEOUT_MS = 1_500;
/** Load balancers poll: one probe answers every ready check within this long. */
const PROBE_CACHE_MS = 1_000;

export type InternalEndpoints = {
  handles: (path: string) => boolean;
  handle: (req: IncomingMessage, res: ServerResponse, path: string) => void;
  stop: () => Promise<void>;
};

export async function internalEndpoints(db: Db, listenSql: postgres.Sql, hub: Hub): Promise<InternalEndpoints> {
  const waiting = new Map<string, () => void>();
  const { unlisten } = await listenSql.listen(PROBE_CHANNEL, (payload) => waiting.get(payload)?.());
  let last: { at: number; ok: Promise<boolean> } | undefined;

  async function probeOnce(): Promise<boolean> {
    const id = randomBytes(9).toString("base64url");
    const arrived = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
      waiting.set(id, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    try {
      await db.execute(sql`select pg_notify(${PROBE_CHANNEL}, ${id})`);
      return await arrived;
    } catch {
      return false;
    } finally {
      waiting.delete(id);
    }
  }

  function probe(): Promise<boolean> {
    if (!last || Date.now() - last.at > PROBE_CACHE_MS) last = { at: Date.now(), ok: probeOnce() };
    return last.ok;
  }

  const m = processMetrics("realtime");
  const outbox = outboxGauges([m.registry]);
  async function metricsJson(): Promise<unknown> {
    m.sockets.set(hub.socketCount);
    try {
      const b = await outboxBacklog(db, hub.lastDeliveredId);
      outbox.lag.set(b.oldestAgeSeconds);
      outbox.backlog.set(b.events);
    } catch {
      /* the database is away: the last figures stay, /internal/ready says so */
    }
    return m.registry.getMetricsAsJSON();
  }

  function send(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
    res.end(JSON.stringify(body));
  }

  return {
    handles: (path) => path === INTERNAL_READY_PATH || path === INTERNAL_METRICS_PATH,
    handle(req, res, path) {
      if (req.method !== "GET") return send(res, 405, { error: "method_not_allowed" });
      if (path === INTERNAL_READY_PATH) {
        void probe().then((listening) => send(res, listening ? 200 : 503, { listening }));
        return;
      }
      const access = metricsAccess(req.headers.authorization);
      if (access !== "allowed") return send(res, access === "disabled" ? 404 : 401, { error: access === "disabled" ? "not_found" : "unauthorized" });
      metricsJson().then(
        (json) => send(res, 200, json),
        () => send(res, 503, { error: "unavailable" }),
      );
    },
    stop: async () => {
      await unlisten().catch(() => {});
    },
  };
}
