// One scrape sees every web worker (docs/adr/0140). The workers are Node cluster workers (docs/adr/0099):
// the one that serves /api/metrics asks the primary, the primary asks every worker for its registry as
// JSON and hands the parts back; the serving worker merges them (with the sidecar's) into one answer.
// No "server-only": the primary and the workers' app server run outside the react-server condition.
import cluster, { type Worker } from "node:cluster";
import type { MetricObjectWithValues, MetricValue } from "prom-client";
import { processMetrics } from "./registry";

export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

type Message =
  | { type: "krug:metrics-req"; id: number }
  | { type: "krug:metrics-collect"; id: number }
  | { type: "krug:metrics-part"; id: number; json: MetricsJson }
  | { type: "krug:metrics-res"; id: number; parts: MetricsJson[] };

const isMessage = (m: unknown): m is Message => typeof m === "object" && m !== null && String((m as { type?: unknown }).type).startsWith("krug:metrics-");

/** How long the primary waits for the workers, and a worker for the primary. */
const GATHER_MS = 2_000;

/** In the primary: answers a worker's request with every connected worker's registry. */
export function serveMetricsToWorkers(): void {
  let next = 0;
  const gathering = new Map<number, { parts: MetricsJson[]; pending: number; done: () => void }>();
  cluster.on("message", (worker: Worker, msg: unknown) => {
    if (!isMessage(msg)) return;
    if (msg.type === "krug:metrics-part") {
      const g = gathering.get(msg.id);
      if (!g) return;
      g.parts.push(msg.json);
      if (--g.pending === 0) g.done();
      return;
    }
    if (msg.type !== "krug:metrics-req") return;
    const id = next++;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && w.isConnected());
    const g = { parts: [] as MetricsJson[], pending: workers.length, done: () => {} };
    const timer = setTimeout(() => g.done(), GATHER_MS);
    g.done = () => {
      clearTimeout(timer);
      gathering.delete(id);
      if (worker.isConnected()) worker.send({ type: "krug:metrics-res", id: msg.id, parts: g.parts } satisfies Message);
    };
    gathering.set(id, g);
    if (workers.length === 0) return g.done();
    for (const w of workers) w.send({ type: "krug:metrics-collect", id } satisfies Message);
  });
}

/** In a worker: hands its registry to the primary when asked. */
export function answerMetricsRequests(): void {
  process.on("message", (msg: unknown) => {
    if (!isMessage(msg) || msg.type !== "krug:metrics-collect") return;
    void processMetrics()
      .registry.getMetricsAsJSON()
      .then((json) => process.send?.({ type: "krug:metrics-part", id: msg.id, json } satisfies Message));
  });
}

const globalForAsk = globalThis as unknown as { __krugMetricsAsk?: { next: number; waiting: Map<number, (parts: MetricsJson[]) => void> } };

/** Every web worker's registry: through the primary in a cluster worker, else this process's own. */
export async function webWorkersMetrics(): Promise<MetricsJson[]> {
  const own = async () => [(await processMetrics().registry.getMetricsAsJSON()) as MetricsJson];
  if (!cluster.isWorker || !process.send) return own();
  let ask = globalForAsk.__krugMetricsAsk;
  if (!ask) {
    const state = { next: 0, waiting: new Map<number, (parts: MetricsJson[]) => void>() };
    process.on("message", (msg: unknown) => {
      if (isMessage(msg) && msg.type === "krug:metrics-res") state.waiting.get(msg.id)?.(msg.parts);
    });
    ask = globalForAsk.__krugMetricsAsk = state;
  }
  const id = ask.next++;
  const waiting = ask.waiting;
  const parts = await new Promise<MetricsJson[] | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), GATHER_MS + 500);
    waiting.set(id, (p) => {
      clearTimeout(timer);
      resolve(p);
    });
    process.send!({ type: "krug:metrics-req", id } satisfies Message);
  });
  waiting.delete(id);
  return parts && parts.length > 0 ? parts : own();
}
