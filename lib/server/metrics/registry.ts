// The metrics of one process (docs/adr/0140): a prom-client registry with Node's own figures (event-loop
// lag, memory, handles) and Krug's counters. No "server-only": the app server (scripts/next-server.ts)
// runs outside the react-server condition and counts every request here. The registry lives on
// globalThis, so the app server and the route handlers Next loads share one per process.
import client, { Counter, Gauge, Histogram, Registry } from "prom-client";

export type ProcessMetrics = {
  registry: Registry;
  httpRequests: Counter<"route" | "method" | "status">;
  httpDuration: Histogram<"route" | "method" | "status">;
  sockets: Gauge;
  frames: Counter<"direction">;
  /** Socket upgrades the sidecar refused, by status and reason (docs/adr/0145). */
  refusedUpgrades: Counter<"status" | "reason">;
  mail: Counter<"result">;
  push: Counter<"result">;
};

const globalForMetrics = globalThis as unknown as { __krugMetrics?: Map<string, ProcessMetrics> };

/**
 * The registry of a service (`app`: the web server; `realtime`: the sidecar), by default this process's
 * own (KRUG_SERVICE). Its series carry `service` and `worker` (the web worker's number) as labels. The
 * sidecar's code names its service, so a test running both in one process still keeps them apart.
 */
export function processMetrics(service = process.env.KRUG_SERVICE || "app"): ProcessMetrics {
  const all = (globalForMetrics.__krugMetrics ??= new Map());
  const known = all.get(service);
  if (known) return known;
  const registry = new Registry();
  registry.setDefaultLabels({ service, worker: process.env.KRUG_WEB_WORKER ?? "0" });
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  const registers = [registry];
  const m: ProcessMetrics = {
    registry,
    httpRequests: new Counter({ name: "krug_http_requests_total", help: "HTTP requests answered, by route pattern, method and status.", labelNames: ["route", "method", "status"], registers }),
    httpDuration: new Histogram({
      name: "krug_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its answer, by route pattern, method and status.",
      labelNames: ["route", "method", "status"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    sockets: new Gauge({ name: "krug_realtime_sockets", help: "Open realtime sockets (WebSockets) in this process.", registers }),
    frames: new Counter({ name: "krug_realtime_frames_total", help: "Realtime frames received from clients (in) and sent to them (out).", labelNames: ["direction"], registers }),
    refusedUpgrades: new Counter({
      name: "krug_realtime_upgrades_refused_total",
      help: "Socket upgrades the sidecar refused, by HTTP status and reason (account_cap, address_cap, unauthenticated, …).",
      labelNames: ["status", "reason"],
      registers,
    }),
    mail: new Counter({ name: "krug_mail_deliveries_total", help: "Mails handed to the SMTP server or written to the outbox folder (sent), or failed.", labelNames: ["result"], registers }),
    push: new Counter({ name: "krug_push_deliveries_total", help: "Web Push deliveries by outcome (sent, gone, dropped, refused, skipped, failed).", labelNames: ["result"], registers }),
  };
  // Every family is present from the first scrape, even before anything happened.
  m.frames.inc({ direction: "in" }, 0);
  m.frames.inc({ direction: "out" }, 0);
  m.refusedUpgrades.inc({ status: "429", reason: "address_cap" }, 0);
  m.mail.inc({ result: "sent" }, 0);
  m.mail.inc({ result: "failed" }, 0);
  m.push.inc({ result: "sent" }, 0);
  m.push.inc({ result: "failed" }, 0);
  all.set(service, m);
  return m;
}
