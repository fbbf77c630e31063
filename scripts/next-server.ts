// The production (and development) web server that `npm start` supervises: Next's request handler
// inside our own node:http server, which hands the client's address on to route handlers and proxies
// the realtime socket to the sidecar (docs/adr/0040). Run outside the react-server condition, as
// `next start` would be.
import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import { availableParallelism } from "node:os";
import type { Server } from "node:http";
import path from "node:path";
import next from "next";
import { createAppServer } from "@/lib/server/http/app-server";
import { parseTrustProxy } from "@/lib/server/http/client-address";
import { createPageCache } from "@/lib/server/http/page-cache";
import { RouteMatcher, routePatternsFromAppDir } from "@/lib/server/metrics/routes";
import { serveMetricsToWorkers, answerMetricsRequests } from "@/lib/server/metrics/cluster";

const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
const realtimePort = Number(process.env.REALTIME_PORT ?? 3001);

/** The public host the cache's own render requests name (PUBLIC_URL), never a visitor's Host header. */
function publicHost(): string {
  try {
    return new URL(process.env.PUBLIC_URL ?? "").host || `localhost:${port}`;
  } catch {
    return `localhost:${port}`;
  }
}

async function main() {
  const trustedHops = parseTrustProxy(process.env.TRUST_PROXY);
  // Next hooks its own 'upgrade' listener onto the server of the first request (or `httpServer`), which
  // would answer the realtime socket's upgrade beside our proxy. It gets a detached emitter instead;
  // createAppServer routes every upgrade itself (Next's own handler only for other paths).
  const detached = new EventEmitter() as unknown as Server;
  const app = next({ dev, dir: process.cwd(), port, hostname: "localhost", httpServer: detached });
  const handle = app.getRequestHandler();
  await app.prepare();
  const nextUpgrade = dev ? app.getUpgradeHandler() : undefined;
  const server = createAppServer({
    handle: (req, res) => handle(req, res),
    upgrade: nextUpgrade,
    realtimePort,
    trustedHops,
    // Request metrics by route pattern (docs/adr/0140), the patterns read from the app folder once.
    routes: new RouteMatcher(routePatternsFromAppDir(path.join(process.cwd(), "app"))),
    publicUrl: process.env.PUBLIC_URL,
    // The signed-out pages that are the same for everyone, rendered once per language and URL in this
    // process (which serves one build) and sent with a fresh nonce each time (docs/adr/0093).
    pageCache: dev
      ? undefined
      : createPageCache({ origin: () => `http://127.0.0.1:${port}`, host: publicHost(), marker: process.env.KRUG_PAGE_CACHE_MARKER }),
  });
  // Node closes a kept-alive connection after 5 s idle; a client that reuses it at that moment gets a reset
  // (seen as ECONNRESET from Playwright's request context). Keep idle connections longer than clients and
  // proxies typically do, and the header timeout above it as Node requires.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const worker = cluster.isWorker ? ` (worker ${process.env.KRUG_WEB_WORKER ?? cluster.worker?.id})` : "";
  server.listen(port, () => console.log(`[krug] web server on :${port}${dev ? " (development)" : worker}`));
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

/**
 * How many web workers share the port (docs/adr/0099): WEB_CONCURRENCY, else one per core up to four.
 * A page is rendered on one Node thread; with a single process the machine's other cores only serve
 * Postgres and the sidecar. Development runs one (Next's dev server keeps state of its own).
 */
function webWorkers(): number {
  if (dev) return 1;
  const raw = process.env.WEB_CONCURRENCY?.trim();
  if (!raw) return Math.min(availableParallelism(), 4);
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64) {
    console.error(`[krug] WEB_CONCURRENCY must be a whole number from 1 to 64, not "${raw}"`);
    process.exit(1);
  }
  return n;
}

/**
 * The primary of several workers: it forks them and holds the listening socket, which Node's cluster
 * hands to them in turn. A worker that dies on its own is replaced alone, under the same number, while
 * the others go on serving (docs/adr/0145): only its own requests in flight are lost. A worker that keeps
 * dying (WORKER_DEATHS_MAX within WORKER_DEATHS_WINDOW_MS) takes the others down and the primary exits 1,
 * so the supervisor of `npm start` restarts the web server as a whole, with its backoff (ADR 0002).
 * SIGTERM/SIGINT reach every worker (the supervisor signals the process group); the primary exits 0 once
 * they have stopped, or after 8 s.
 */
/** More worker deaths than this within the window: the web server is restarted whole, by the supervisor. */
const WORKER_DEATHS_MAX = 3;
const WORKER_DEATHS_WINDOW_MS = 60_000;

function runPrimary(count: number) {
  let alive = count;
  let stopping = false;
  let failed = false;
  // The page cache's render request may reach any worker: they recognise it by one shared secret.
  const marker = randomBytes(16).toString("hex");
  // One scrape of /api/metrics sees every worker: the worker that serves it asks the primary, which
  // gathers all workers' registries (docs/adr/0140).
  serveMetricsToWorkers();
  const numbers = new Map<number, string>(); // worker id → its KRUG_WEB_WORKER
  const fork = (n: string) => numbers.set(cluster.fork({ KRUG_WEB_WORKER: n, KRUG_PAGE_CACHE_MARKER: marker }).id, n);
  for (let i = 0; i < count; i++) fork(String(i));
  const deaths: number[] = [];
  const stopWorkers = () => {
    for (const w of Object.values(cluster.workers ?? {})) if (w && !w.isDead()) w.process.kill("SIGTERM");
    setTimeout(() => process.exit(failed ? 1 : 0), 8_000).unref();
  };
  cluster.on("exit", (worker, code, signal) => {
    alive -= 1;
    if (!stopping) {
      const now = Date.now();
      deaths.push(now);
      while (deaths.length && deaths[0] < now - WORKER_DEATHS_WINDOW_MS) deaths.shift();
      if (deaths.length <= WORKER_DEATHS_MAX) {
        const n = numbers.get(worker.id) ?? "0";
        console.error(`[krug] web worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); replacing web worker ${n}`);
        numbers.delete(worker.id);
        alive += 1;
        fork(n);
        return;
      }
      console.error(`[krug] web worker ${worker.process.pid} exited (${signal ?? `code ${code}`}), ${deaths.length} in a minute; restarting the web server`);
      stopping = true;
      failed = true;
      stopWorkers();
    }
    if (alive === 0) process.exit(failed ? 1 : 0);
  });
  const stop = () => {
    if (stopping) return;
    stopping = true;
    stopWorkers();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

const workers = webWorkers();
if (cluster.isPrimary && workers > 1) {
  runPrimary(workers);
} else {
  // A worker whose primary is gone (killed outright) has no listening socket left: it ends too.
  if (cluster.isWorker) process.on("disconnect", () => process.exit(0));
  if (cluster.isWorker) answerMetricsRequests();
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
