// The production (and development) web server that `npm start` supervises: Next's request handler
// inside our own node:http server, which hands the client's address on to route handlers and proxies
// the realtime socket to the sidecar (docs/adr/0040). Run outside the react-server condition, as
// `next start` would be.
import next from "next";
import { createAppServer } from "@/lib/server/http/app-server";
import { parseTrustProxy } from "@/lib/server/http/client-address";

const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
const realtimePort = Number(process.env.REALTIME_PORT ?? 3001);

async function main() {
  const trustedHops = parseTrustProxy(process.env.TRUST_PROXY);
  const app = next({ dev, dir: process.cwd(), port, hostname: "localhost" });
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
