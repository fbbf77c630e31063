// The HTTP server `npm start` runs around Next's request handler (scripts/next-server.ts). No
// "server-only": it runs outside the react-server condition, like `next start` itself.
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import { CLIENT_ADDRESS_HEADER, clientAddressOf } from "./client-address";
import { refusalOf, sendRefusal } from "./early-refusal";
import type { PageCache } from "./page-cache";
import { staticSecurityHeaders } from "./security-headers";
import { processMetrics } from "../metrics/registry";
import type { RouteMatcher } from "../metrics/routes";

export const REALTIME_UPGRADE_PATH = "/api/v1/streaming/ws";

export type AppServerOptions = {
  /** Next's request handler (or any handler, in tests). */
  handle: (req: IncomingMessage, res: ServerResponse) => unknown;
  /** Next's own upgrade handler (hot reload in development); other upgrades are refused. */
  upgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => unknown;
  /** Where the realtime sidecar listens; its socket path is proxied there. */
  realtimePort: number;
  trustedHops: number;
  /** Decides HSTS: sent only when the public address is https. */
  publicUrl?: string;
  /** Serves the signed-out pages that are the same for everyone (docs/adr/0093); production only. */
  pageCache?: PageCache;
  /** Counts every answer under its route pattern (docs/adr/0140); absent, nothing is counted. */
  routes?: RouteMatcher;
};

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Counts one request and times it to the end of its answer, labelled by route pattern, method and status. */
function countRequest(req: IncomingMessage, res: ServerResponse, routes: RouteMatcher) {
  const started = process.hrtime.bigint();
  res.once("close", () => {
    const m = processMetrics();
    const labels = {
      route: routes.match((req.url ?? "/").split("?")[0]),
      method: METHODS.has(req.method ?? "") ? req.method! : "OTHER",
      status: String(res.statusCode),
    };
    m.httpRequests.inc(labels);
    m.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
  });
}

/** Overwrites the client-address header with the one we derived: a client can never choose it. */
function stampClientAddress(req: IncomingMessage, trustedHops: number): string {
  const address = clientAddressOf(req.socket.remoteAddress, req.headers["x-forwarded-for"], trustedHops);
  req.headers[CLIENT_ADDRESS_HEADER] = address;
  // Keep the raw list in line too: some readers of the request look at rawHeaders.
  const raw: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i].toLowerCase() !== CLIENT_ADDRESS_HEADER) raw.push(req.rawHeaders[i], req.rawHeaders[i + 1]);
  }
  raw.push(CLIENT_ADDRESS_HEADER, address);
  req.rawHeaders.splice(0, req.rawHeaders.length, ...raw);
  return address;
}

function refuse(socket: Duplex, status: number) {
  if (socket.destroyed) return;
  const reason = STATUS_CODES[status] ?? "Error";
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`);
}

/**
 * Passes a WebSocket upgrade of the socket path to the sidecar byte for byte, with the derived client
 * address (the sidecar caps sockets per address) in place of anything the client sent under that name.
 */
function proxyUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, realtimePort: number) {
  const upstream = net.connect({ host: "127.0.0.1", port: realtimePort });
  const fail = () => {
    upstream.destroy();
    refuse(socket, 502);
  };
  upstream.once("error", fail);
  socket.on("error", () => upstream.destroy());
  upstream.once("connect", () => {
    upstream.off("error", fail);
    upstream.on("error", () => socket.destroy());
    let out = `${req.method} ${req.url} HTTP/1.1\r\n`;
    for (let i = 0; i < req.rawHeaders.length; i += 2) out += `${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`;
    upstream.write(out + "\r\n");
    if (head.length) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
    socket.on("close", () => upstream.destroy());
    upstream.on("close", () => socket.destroy());
  });
}

/**
 * Next flushes a response's headers on its own (`res.flushHeaders()`) and writes the first chunk of the
 * body right after, in the same synchronous step: two writes to the socket, each a system call and a
 * wake-up of the client. Here the headers wait for that first chunk and leave with it, so a whole API
 * answer is one write. Nothing is later: no code path flushes the headers and then waits (docs/adr/0106).
 */
function sendHeadersWithBody(res: ServerResponse) {
  res.flushHeaders = () => {};
}

/**
 * The static security headers join an answer's headers as they leave, each only where the answer set
 * none of that name: a page's CSP (proxy.ts) and an uploaded file's `default-src 'none'; sandbox`
 * (storage/files/{key}) win over the minimal one. Set earlier, they won instead: Next copies a route's
 * header only when the response has none yet (docs/adr/0112). Every way out (write, end, flushHeaders)
 * goes through writeHead.
 */
function addMissingHeaders(res: ServerResponse, headers: [string, string][]) {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const given = args.find((a, i) => i > 0 && typeof a === "object" && a !== null);
    const named = new Set(
      Array.isArray(given)
        ? given.filter((_, i) => i % 2 === 0).map((n) => String(n).toLowerCase())
        : Object.keys(given ?? {}).map((n) => n.toLowerCase()),
    );
    for (const [name, value] of headers) if (!named.has(name) && !this.hasHeader(name)) this.setHeader(name, value);
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse["writeHead"];
}

export function createAppServer(options: AppServerOptions): Server {
  const security = Object.entries(staticSecurityHeaders(options.publicUrl));
  const server = createServer((req, res) => {
    if (options.routes) countRequest(req, res, options.routes);
    stampClientAddress(req, options.trustedHops);
    addMissingHeaders(res, security);
    sendHeadersWithBody(res);
    // A method no route serves or a path Next cannot decode: answered here (docs/adr/0111).
    const refusal = refusalOf(req);
    if (refusal) return sendRefusal(req, res, refusal);
    if (options.pageCache) options.pageCache.handle(req, res, () => void options.handle(req, res));
    else void options.handle(req, res);
  });
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    stampClientAddress(req, options.trustedHops);
    const path = (req.url ?? "/").split("?")[0];
    if (path === REALTIME_UPGRADE_PATH) return proxyUpgrade(req, socket, head, options.realtimePort);
    if (options.upgrade) return void options.upgrade(req, socket, head);
    refuse(socket, 404);
  });
  return server;
}
