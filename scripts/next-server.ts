// The production (and development) web server that `npm start` supervises: Next's request handler
// inside our own node:http server, which hands the client's address on to route handlers and proxies
// the realtime socket to the sidecar (docs/adr/0040). Run outside the react-server condition, as
// `next start` would be.
import { EventEmitter } from "node:events";
import type { Server } from "node:http";
import next from "next";
import { createAppServer } from "@/lib/server/http/app-server";
import { parseTrustProxy } from "@/lib/server/http/client-address";

const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
const realtimePort = Number(process.env.REALTIME_PORT ?? 3001);

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
  });
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
