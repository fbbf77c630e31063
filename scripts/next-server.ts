// The production (and development) web server that `npm start` supervises: Next's request handler
// inside our own node:http server, which hands the client's address on to route handlers and proxies
// the realtime socket to the sidecar (docs/adr/0040). Run outside the react-server condition, as
// `next start` would be.
import cluster, { type Worker } from "node:cluster";
import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { Server } from "node:http";
import type { Duplex } from "node:stream";
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
  const distDir = process.env.NEXT_DIST_DIR || ".next";
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
      : createPageCache({
          origin: () => `http://127.0.0.1:${port}`,
          host: publicHost(),
          marker: process.env.KRUG_PAGE_CACHE_MARKER,
          // During a rolling restart a render request may reach a worker of the other build (docs/adr/0149).
          buildId: readBuildId(distDir),
        }),
  });
  // Node closes a kept-alive connection after 5 s idle; a client that reuses it at that moment gets a reset
  // (seen as ECONNRESET from Playwright's request context). Keep idle connections longer than clients and
  // proxies typically do, and the header timeout above it as Node requires.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const worker = cluster.isWorker ? ` (worker ${process.env.KRUG_WEB_WORKER ?? cluster.worker?.id})` : "";
  server.listen(port, () => console.log(`[krug] web server on :${port}${dev ? " (development)" : worker}${buildOf(distDir)}`));
  // A rolling restart (docs/adr/0149) drains this worker once its replacement serves: see drainWhenAsked.
  if (cluster.isWorker) drainWhenAsked(server);
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

function readBuildId(distDir: string): string | undefined {
  try {
    return readFileSync(path.join(distDir, "BUILD_ID"), "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

function buildOf(distDir: string): string {
  const id = readBuildId(distDir);
  return id ? `, build ${id} in ${distDir}` : "";
}

/** Requests still being answered, and proxied sockets still open, on this worker's server. */
function countOpen(server: Server) {
  const open = { requests: 0, sockets: 0 };
  // Before the app's own listener: a draining worker's answers must already say "Connection: close".
  server.prependListener("request", (_req, res) => {
    open.requests += 1;
    res.once("close", () => (open.requests -= 1));
  });
  server.on("upgrade", (_req, socket: Duplex) => {
    open.sockets += 1;
    socket.once("close", () => (open.sockets -= 1));
  });
  return open;
}

/** How long a draining worker waits for its requests in flight before it cuts them. */
const DRAIN_REQUESTS_MS = 10_000;
/** How long it keeps its proxied realtime sockets: the sidecar's own restart comes next and ends them. */
const DRAIN_SOCKETS_MS = 60_000;

/**
 * A worker of the old build, once its replacement serves (docs/adr/0149): it stops taking connections
 * (the primary hands new ones to the other workers), answers what it has with "Connection: close", closes
 * idle kept-alive connections, tells the primary it is drained once no request is in flight, and exits
 * when its proxied realtime sockets are gone too — the sidecar's restart that follows ends them, so each
 * client reconnects once, not once per worker. Limits: 10 s for requests, 60 s for sockets.
 */
function drainWhenAsked(server: Server) {
  const open = countOpen(server);
  let draining = false;
  process.on("message", (raw: unknown) => {
    const message = raw as { type?: string } | null;
    if (message?.type !== "krug:drain" || draining) return;
    draining = true;
    const started = Date.now();
    server.prependListener("request", (_req, res) => res.setHeader("connection", "close"));
    server.close();
    server.closeIdleConnections();
    let told = false;
    const timer = setInterval(() => {
      server.closeIdleConnections();
      const late = Date.now() - started;
      if (open.requests > 0 && late > DRAIN_REQUESTS_MS) server.closeAllConnections();
      if (!told && (open.requests === 0 || late > DRAIN_REQUESTS_MS)) {
        told = true;
        process.send?.({ type: "krug:drained", requests: open.requests, sockets: open.sockets });
      }
      if ((open.requests === 0 && open.sockets === 0) || late > DRAIN_SOCKETS_MS) {
        clearInterval(timer);
        process.exit(0);
      }
    }, 100);
  });
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
 * The primary of the web workers: it forks them and holds the listening socket, which Node's cluster
 * hands to them in turn. A worker that dies on its own is replaced alone, under the same number, while
 * the others go on serving (docs/adr/0145): only its own requests in flight are lost. A worker that keeps
 * dying (WORKER_DEATHS_MAX within WORKER_DEATHS_WINDOW_MS) takes the others down and the primary exits 1,
 * so the supervisor of `npm start` restarts the web server as a whole, with its backoff (ADR 0002).
 * SIGTERM/SIGINT reach every worker (the supervisor signals the process group); the primary exits 0 once
 * they have stopped, or after 8 s.
 *
 * A rolling restart (docs/adr/0149): `npm start` sends {type: "krug:roll", distDir} over its IPC channel;
 * each worker in turn gets a replacement on that build, and is drained only once the replacement listens,
 * so the port always has a worker that serves. The answer is {type: "krug:rolled", ok, note}.
 */
/** More worker deaths than this within the window: the web server is restarted whole, by the supervisor. */
const WORKER_DEATHS_MAX = 3;
const WORKER_DEATHS_WINDOW_MS = 60_000;
/** A replacement that does not listen within this is given up, and the roll stops on the old build. */
const WORKER_START_MS = 180_000;

function runPrimary(count: number) {
  let stopping = false;
  let failed = false;
  let rolling = false;
  let distDir = process.env.NEXT_DIST_DIR || ".next";
  // The page cache's render request may reach any worker: they recognise it by one shared secret.
  const marker = randomBytes(16).toString("hex");
  // One scrape of /api/metrics sees every worker: the worker that serves it asks the primary, which
  // gathers all workers' registries (docs/adr/0140).
  serveMetricsToWorkers();
  const numbers = new Map<number, string>(); // worker id → its KRUG_WEB_WORKER
  const retiring = new Set<number>(); // workers of the old build being drained: their exit is no death
  const trying = new Set<number>(); // a roll's new workers until they listen: their exit stops the roll, no replacement
  const fork = (n: string) => {
    const worker = cluster.fork({ KRUG_WEB_WORKER: n, KRUG_PAGE_CACHE_MARKER: marker, NEXT_DIST_DIR: distDir });
    numbers.set(worker.id, n);
    return worker;
  };
  for (let i = 0; i < count; i++) fork(String(i));
  const live = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !w.isDead());
  const deaths: number[] = [];
  const stopWorkers = () => {
    for (const w of live()) w.process.kill("SIGTERM");
    setTimeout(() => process.exit(failed ? 1 : 0), 8_000).unref();
  };
  cluster.on("exit", (worker, code, signal) => {
    const n = numbers.get(worker.id) ?? "0";
    numbers.delete(worker.id);
    if (retiring.delete(worker.id)) {
      console.log(`[krug] web worker ${n} of the previous build (pid ${worker.process.pid}) has stopped`);
    } else if (trying.delete(worker.id)) {
      console.error(`[krug] the new web worker ${n} exited (${signal ?? `code ${code}`}) before it served`);
    } else if (!stopping) {
      const now = Date.now();
      deaths.push(now);
      while (deaths.length && deaths[0] < now - WORKER_DEATHS_WINDOW_MS) deaths.shift();
      if (deaths.length <= WORKER_DEATHS_MAX) {
        console.error(`[krug] web worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); replacing web worker ${n}`);
        fork(n);
        return;
      }
      console.error(`[krug] web worker ${worker.process.pid} exited (${signal ?? `code ${code}`}), ${deaths.length} in a minute; restarting the web server`);
      stopping = true;
      failed = true;
      stopWorkers();
    }
    if (live().length === 0 && stopping) process.exit(failed ? 1 : 0);
  });

  /** Resolves "listening", or "exit"/"timeout" when the new worker never served. */
  const started = (w: Worker) =>
    new Promise<"listening" | "exit" | "timeout">((resolve) => {
      const timer = setTimeout(() => resolve("timeout"), WORKER_START_MS);
      w.once("listening", () => (clearTimeout(timer), resolve("listening")));
      w.once("exit", () => (clearTimeout(timer), resolve("exit")));
    });
  /** Resolves when the old worker has no request in flight (or is gone). */
  const drained = (w: Worker) =>
    new Promise<void>((resolve) => {
      const done = () => (clearTimeout(timer), resolve());
      const timer = setTimeout(done, DRAIN_REQUESTS_MS + 2_000);
      w.on("message", (m: unknown) => (m as { type?: string } | null)?.type === "krug:drained" && done());
      w.once("exit", done);
      w.send({ type: "krug:drain" });
    });

  const roll = async (target: string): Promise<{ ok: boolean; note: string }> => {
    if (stopping) return { ok: false, note: "the web server is stopping" };
    if (rolling) return { ok: false, note: "a rolling restart is already under way" };
    rolling = true;
    const previous = distDir;
    distDir = target;
    try {
      const old = live()
        .filter((w) => !retiring.has(w.id))
        .sort((a, b) => Number(numbers.get(a.id)) - Number(numbers.get(b.id)));
      for (const w of old) {
        if (stopping) return { ok: false, note: "the web server is stopping" };
        if (w.isDead()) continue; // died meanwhile: its replacement was forked on the new build already
        const n = numbers.get(w.id) ?? "0";
        const t0 = Date.now();
        const fresh = fork(n);
        trying.add(fresh.id);
        const how = await started(fresh);
        trying.delete(fresh.id);
        if (how !== "listening") {
          distDir = previous;
          if (!fresh.isDead()) {
            retiring.add(fresh.id);
            fresh.process.kill("SIGKILL");
          }
          return { ok: false, note: `the new web worker ${n} did not start (${how}); the others go on with ${previous}` };
        }
        console.log(`[krug] web worker ${n} on ${target} serves after ${Date.now() - t0} ms; draining the previous one (pid ${w.process.pid})`);
        if (w.isDead()) continue;
        retiring.add(w.id);
        await drained(w);
      }
      return { ok: true, note: `${old.length} web worker(s) on ${target}` };
    } finally {
      rolling = false;
    }
  };
  process.on("message", (raw: unknown) => {
    const message = raw as { type?: string; distDir?: string } | null;
    if (message?.type !== "krug:roll" || !message.distDir) return;
    void roll(message.distDir).then((result) => process.send?.({ type: "krug:rolled", ...result }));
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
// In production the web server always runs as a primary with its workers, even one: a rolling restart
// starts the new worker beside the old one (docs/adr/0149). Development runs one plain process.
if (cluster.isPrimary && !dev) {
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
