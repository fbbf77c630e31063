// The production (and development) web server that `npm start` supervises: Next's request handler
// inside our own node:http server, which hands the client's address on to route handlers and proxies
// the realtime socket to the sidecar (docs/adr/0040). Run outside the react-server condition, as
// `next start` would be.
import { EventEmitter } from "node:events";
import type { Server } from "node:http";
import next from "next";
import { createAppServer } from "@/lib/server/http/app-server";
import { parseTrustProxy } from "@/lib/server/http/client-address";
import { createPageCache } from "@/lib/server/http/page-cache";

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
    publicUrl: process.env.PUBLIC_URL,
    // The signed-out pages that are the same for everyone, rendered once per language and URL in this
    // process (which serves one build) and sent with a fresh nonce each time (docs/adr/0093).
    pageCache: dev ? undefined : createPageCache({ origin: () => `http://127.0.0.1:${port}`, host: publicHost() }),
  });
  // Node closes a kept-alive connection after 5 s idle; a client that reuses it at that moment gets a reset
  // (seen as ECONNRESET from Playwright's request context). Keep idle connections longer than clients and
  // proxies typically do, and the header timeout above it as Node requires.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.listen(port, () => console.log(`[krug] web server on :${port}${dev ? " (development)" : ""}`));
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
