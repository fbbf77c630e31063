import { createServer, STATUS_CODES, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import type postgres from "postgres";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { createDb, getDb, getSql, type Db } from "@/db/client";
import { tokenFromHeaders } from "@/lib/server/auth/tokens";
import { CLIENT_ADDRESS_HEADER } from "@/lib/server/http/client-address";
import { resolveViewer, type Viewer } from "@/lib/server/auth/viewer";
import { env } from "@/lib/server/env";
import { EVENTS_CHANNEL } from "@/lib/server/events/outbox";
import { log as defaultLog } from "@/lib/server/log";
import { PRESENCE_TOUCH_INTERVAL_MS } from "@/lib/server/services/accounts/presence";
import { ALL_FRAMES, CLOSE_GOING_AWAY, CLOSE_SESSION_ENDED, eventIdSchema, FRAMES_PARAM, REALTIME_PATH, resumeMessage, visibilityMessage } from "@/lib/validation/realtime";
import { ChatRelay } from "./chat";
import { CommentRelay } from "./comments";
import { Hub, type Client, type Logger } from "./hub";
import { PresenceTracker } from "./presence";
import { PushRelay } from "./push";
import { liveSessionIds } from "./session-check";
import { internalEndpoints, type InternalEndpoints } from "./internal";
import { processMetrics } from "@/lib/server/metrics/registry";

export type RealtimeServerOptions = {
  port: number;
  host?: string;
  /** How often sockets are pinged; one that did not answer the previous ping is dropped. */
  pingIntervalMs?: number;
  /** At most one last_online_time update per account per interval while it stays connected. */
  presenceIntervalMs?: number;
  /** How often open sockets are checked against revoked sessions and blocked accounts. */
  sessionCheckIntervalMs?: number;
  /** Turns outbox notifications into Web Push jobs (realtime/push.ts); on unless false. */
  pushDispatch?: boolean;
  log?: Logger;
  /** Defaults to the process pool (getDb/getSql); tests pass their own to act as a second instance. */
  db?: Db;
  sql?: postgres.Sql;
  secret?: string;
  publicUrl?: string;
  /** Open sockets one account may hold (tabs, devices); more are refused with 429. */
  maxSocketsPerAccount?: number;
  /** Open sockets from one client address (the app server's x-krug-client-address, else the peer); default REALTIME_MAX_SOCKETS_PER_ADDRESS. */
  maxSocketsPerAddress?: number;
};

export type RealtimeServer = {
  port: number;
  close: () => Promise<void>;
  /** `visibleAccounts`: accounts with at least one visible socket (those the push dispatcher leaves out). */
  stats: () => { sockets: number; accounts: number; visibleAccounts: number; lastDeliveredId: number };
};

const CLOSE_GRACE_MS = 2_000;
// The largest client frame is a chat MESSAGE: 4,000 characters, JSON-escaped in the worst case
// (6 bytes each), plus the envelope; anything larger is not ours.
const MAX_CLIENT_FRAME_BYTES = 32 * 1024;
// A client asking to resume more often than this is looping; it gets closed, not served.
const MAX_RESUMES_PER_MINUTE = 20;
const MAX_SOCKETS_PER_ACCOUNT = 20;

/** Answers a refused upgrade with a plain HTTP status; the WebSocket never opens. */
function refuse(socket: Duplex, status: number): void {
  if (socket.destroyed) return;
  const reason = STATUS_CODES[status] ?? "Error";
  socket.once("finish", () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`,
  );
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v?.split(",")[0]?.trim() || undefined;
}

/**
 * A cookie-authenticated upgrade must come from our own pages (the cookie is ambient): the browser's
 * Origin must be the app's host. Next's rewrite forwards the original Host as X-Forwarded-Host.
 */
function sameOrigin(req: IncomingMessage, publicHost: string): boolean {
  const origin = firstHeader(req.headers.origin);
  if (!origin) return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  return [firstHeader(req.headers["x-forwarded-host"]), firstHeader(req.headers.host), publicHost].includes(host);
}

/**
 * The realtime sidecar: authenticates WebSocket upgrades on REALTIME_PATH, follows the outbox through
 * LISTEN/NOTIFY and delivers each event to the open sockets of its recipients.
 */
export async function createRealtimeServer(options: RealtimeServerOptions): Promise<RealtimeServer> {
  const log = options.log ?? defaultLog;
  const sql = options.sql ?? getSql();
  const db = options.db ?? (options.sql ? createDb(options.sql) : getDb());
  const secret = options.secret ?? env().AUTH_SECRET;
  const publicHost = new URL(options.publicUrl ?? env().PUBLIC_URL).host;
  const pingIntervalMs = options.pingIntervalMs ?? 30_000;
  const presenceIntervalMs = options.presenceIntervalMs ?? PRESENCE_TOUCH_INTERVAL_MS;
  const sessionCheckIntervalMs = options.sessionCheckIntervalMs ?? 60_000;
  const maxPerAccount = options.maxSocketsPerAccount ?? MAX_SOCKETS_PER_ACCOUNT;
  const maxPerAddress = options.maxSocketsPerAddress ?? env().REALTIME_MAX_SOCKETS_PER_ADDRESS;
  // Open and opening sockets per account and per client address (opening ones count too, so a burst of
  // parallel upgrades cannot slip past the cap while they authenticate).
  const perAccount = new Map<number, number>();
  const perAddress = new Map<string, number>();
  function bump<K>(map: Map<K, number>, key: K, by: number): void {
    const n = (map.get(key) ?? 0) + by;
    if (n <= 0) map.delete(key);
    else map.set(key, n);
  }

  // The push dispatcher leaves out the accounts with a visible tab here: it shows the event already. A socket
  // counts as visible until its tab says otherwise (a VISIBILITY frame; docs/adr/0123).
  const pushes: PushRelay | null = options.pushDispatch === false ? null : new PushRelay(db, log, (): number[] => hub.visibleAccountIds);
  const hub: Hub = new Hub(db, log, pushes ? () => pushes.request() : undefined);
  const presence = new PresenceTracker(db, log, presenceIntervalMs);
  const chat = new ChatRelay(db, sql, hub, log);
  const comments = new CommentRelay(db, sql, hub, log);
  const wss = new WebSocketServer({ noServer: true, clientTracking: false, maxPayload: MAX_CLIENT_FRAME_BYTES });
  const pendingUpgrades = new Set<Duplex>();
  let closing = false;

  let internal: InternalEndpoints | undefined;
  const { frames, refusedUpgrades } = processMetrics("realtime");
  const http = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    // Readiness and metrics for the web server (loopback only; realtime/internal.ts).
    if (internal?.handles(path)) return internal.handle(req, res, path);
    const status = path === REALTIME_PATH ? 426 : 404;
    res.writeHead(status, { "content-type": "text/plain; charset=utf-8", connection: "close" });
    res.end(STATUS_CODES[status]);
  });
  http.on("clientError", (_err, socket) => socket.destroy());

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== REALTIME_PATH) return refuse(socket, 404);
    if (closing) return refuse(socket, 503);
    // The sidecar listens on loopback behind the app server, which sets this header from the peer
    // (docs/adr/0040); a direct local connection falls back to its own peer address.
    const address = firstHeader(req.headers[CLIENT_ADDRESS_HEADER]) ?? req.socket.remoteAddress ?? "unknown";
    if ((perAddress.get(address) ?? 0) >= maxPerAddress) return void refused(socket, 429, "address_cap", address);
    bump(perAddress, address, 1);
    let opened = false;
    try {
      opened = await authenticate(req, socket, head, url, address);
    } finally {
      if (!opened) bump(perAddress, address, -1);
    }
  }

  async function authenticate(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL, address: string): Promise<boolean> {
    const rawLastId = url.searchParams.get("lastEventId");
    let lastEventId: number | undefined;
    if (rawLastId !== null && rawLastId !== "") {
      const parsed = eventIdSchema.safeParse(rawLastId);
      if (!parsed.success) return refused(socket, 400, "bad_request");
      lastEventId = parsed.data;
    }
    // `frames=all` (Krug's own client): every frame type; without it, the specification's MESSAGE and
    // NOTIFICATION only (docs/adr/0165). Any other value is a mistake worth saying so.
    const frames = url.searchParams.get(FRAMES_PARAM);
    if (frames !== null && frames !== ALL_FRAMES) return refused(socket, 400, "bad_request");
    const allFrames = frames === ALL_FRAMES;
    const { token, fromCookie } = tokenFromHeaders({
      authorization: firstHeader(req.headers.authorization),
      cookie: req.headers.cookie,
    });
    if (fromCookie && !sameOrigin(req, publicHost)) return refused(socket, 403, "cross_origin");
    const viewer = await resolveViewer(db, token, secret);
    if (!viewer) return refused(socket, 401, "unauthenticated");
    if (closing || socket.destroyed) {
      socket.destroy();
      return false;
    }
    if ((perAccount.get(viewer.id) ?? 0) >= maxPerAccount) return refused(socket, 429, "account_cap", `account ${viewer.id}`);
    bump(perAccount, viewer.id, 1);
    socket.once("close", () => bump(perAccount, viewer.id, -1));
    socket.once("close", () => bump(perAddress, address, -1));
    wss.handleUpgrade(req, socket, head, (ws) => connect(ws, viewer, lastEventId, allFrames));
    return true;
  }

  // A refusal is counted (krug_realtime_upgrades_refused_total); one for a cap is also logged, at most once a
  // minute per address or account: a cap that bites is either abuse or a deployment where many people share
  // one address (a reverse proxy without TRUST_PROXY makes every client 127.0.0.1), and the refused client
  // only sees its socket fail (docs/adr/0145).
  const capWarned = new Map<string, number>();
  function refused(socket: Duplex, status: number, reason: string, who?: string): false {
    refusedUpgrades.inc({ status: String(status), reason });
    if (who !== undefined) {
      const now = Date.now();
      for (const [key, at] of capWarned) if (now - at >= 60_000) capWarned.delete(key);
      if (!capWarned.has(`${reason} ${who}`)) {
        capWarned.set(`${reason} ${who}`, now);
        const cap = reason === "address_cap" ? maxPerAddress : maxPerAccount;
        log.warn(
          { reason, who, cap },
          reason === "address_cap"
            ? `realtime socket refused: ${cap} sockets already open from ${who} (behind a reverse proxy, is TRUST_PROXY set?)`
            : `realtime socket refused: ${cap} sockets already open for ${who}`,
        );
      }
    }
    refuse(socket, status);
    return false;
  }

  http.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // A client that vanishes mid-handshake must never take the process down.
    socket.on("error", () => socket.destroy());
    pendingUpgrades.add(socket);
    upgrade(req, socket, head)
      .catch((err) => {
        log.error({ err }, "realtime upgrade failed");
        refuse(socket, 503);
      })
      .finally(() => pendingUpgrades.delete(socket));
  });

  function connect(ws: WebSocket, viewer: Viewer, lastEventId: number | undefined, allFrames: boolean): void {
    const client: Client = {
      ws,
      accountId: viewer.id,
      sessionId: viewer.sessionId,
      alive: true,
      lastSentId: 0,
      pendingResumes: 0,
      buffer: [],
      queue: Promise.resolve(),
      visible: true,
      allFrames,
    };
    // Registered and switched to buffering in one synchronous step: the resume read that follows
    // overlaps live delivery, never leaves a gap before it.
    const first = hub.add(client);
    void hub.resume(client, lastEventId);
    presence.connected(viewer.id, first);
    if (first) chat.presenceChanged(viewer.id, true);
    log.debug({ accountId: viewer.id, lastEventId }, "realtime socket open");

    const resumes: number[] = [];
    ws.on("pong", () => {
      client.alive = true;
    });
    ws.on("message", (data: RawData, isBinary: boolean) => {
      frames.inc({ direction: "in" });
      if (isBinary) return ws.close(1003, "Text frames only");
      let message: unknown;
      try {
        message = JSON.parse(data.toString());
      } catch {
        return; // not JSON: ignored, as is any message we do not know
      }
      if (chat.handle(client, viewer, message)) return;
      if (comments.handle(client, message)) return;
      const visibility = visibilityMessage.safeParse(message);
      if (visibility.success) return hub.setVisible(client, visibility.data.visible);
      const resume = resumeMessage.safeParse(message);
      if (!resume.success) return;
      // One RESUME at a time: a repeat while one runs is ignored (the running one ends with READY).
      if (client.pendingResumes > 0) return;
      const now = Date.now();
      while (resumes.length > 0 && now - resumes[0] > 60_000) resumes.shift();
      resumes.push(now);
      if (resumes.length > MAX_RESUMES_PER_MINUTE) return ws.close(1008, "Too many resumes");
      void hub.resume(client, resume.data.lastEventId);
    });
    ws.on("error", (err) => log.debug({ err, accountId: viewer.id }, "realtime socket error"));
    ws.on("close", () => {
      comments.forget(client);
      const last = hub.remove(client);
      presence.disconnected(viewer.id, last);
      if (last && !closing) chat.presenceChanged(viewer.id, false);
      log.debug({ accountId: viewer.id }, "realtime socket closed");
    });
  }

  // Ping: a socket that did not answer the previous ping is gone (a laptop lid, a dropped network).
  const pingTimer = setInterval(() => {
    for (const client of hub.clients()) {
      if (!client.alive) {
        client.ws.terminate();
        continue;
      }
      client.alive = false;
      client.ws.ping();
    }
  }, pingIntervalMs);

  // A quarter of the interval keeps each account's staleness under 1.25 intervals.
  const presenceTimer = setInterval(() => presence.tick(hub.accountIds), Math.max(1, presenceIntervalMs / 4));

  let checking = false;
  const sessionTimer = setInterval(() => {
    if (checking) return;
    checking = true;
    const clients = hub.clients();
    liveSessionIds(db, [...new Set(clients.map((c) => c.sessionId))])
      .then((live) => {
        for (const c of clients) if (!live.has(c.sessionId)) c.ws.close(CLOSE_SESSION_ENDED, "Session ended");
      })
      .catch((err) => log.warn({ err }, "realtime session check failed"))
      .finally(() => {
        checking = false;
      });
  }, sessionCheckIntervalMs);
  for (const t of [pingTimer, presenceTimer, sessionTimer]) t.unref();

  let unlisten: (() => Promise<void>) | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      http.once("error", reject);
      http.listen(options.port, options.host ?? "127.0.0.1", () => {
        http.off("error", reject);
        resolve();
      });
    });
    await hub.start();
    // On a fresh database the first run places the push cursor at the newest event now, so the first event
    // after the start is pushed rather than taken for the starting point.
    pushes?.request();
    await chat.start();
    await comments.start();
    // onListen runs on the first LISTEN and after every reconnect: drain then, as NOTIFYs sent while
    // the listening connection was down are gone, while the outbox still holds their events.
    const listener = await sql.listen(EVENTS_CHANNEL, () => hub.requestDrain(), () => hub.requestDrain());
    unlisten = listener.unlisten;
    internal = await internalEndpoints(db, sql, hub);
  } catch (err) {
    for (const t of [pingTimer, presenceTimer, sessionTimer]) clearInterval(t);
    await chat.stop();
    await comments.stop();
    await hub.stop();
    await pushes?.stop();
    if (http.listening) await new Promise((resolve) => http.close(resolve));
    throw err;
  }
  http.on("error", (err) => log.error({ err }, "realtime http server error"));

  const port = (http.address() as AddressInfo).port;
  log.info({ port, lastEventId: hub.lastDeliveredId }, "realtime listening");

  let closed: Promise<void> | undefined;
  async function close(): Promise<void> {
    closing = true;
    for (const t of [pingTimer, presenceTimer, sessionTimer]) clearInterval(t);
    for (const socket of pendingUpgrades) socket.destroy();
    const clients = hub.clients();
    const gone = Promise.all(
      clients.map((c) => new Promise<void>((resolve) => (c.ws.readyState === c.ws.CLOSED ? resolve() : c.ws.once("close", () => resolve())))),
    );
    for (const c of clients) c.ws.close(CLOSE_GOING_AWAY, "Server shutting down");
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([gone, new Promise((resolve) => (grace = setTimeout(resolve, CLOSE_GRACE_MS)))]);
    clearTimeout(grace);
    for (const c of hub.clients()) c.ws.terminate();
    await gone; // every close handler has run, so each account's final presence update has started
    await unlisten?.().catch((err) => log.warn({ err }, "realtime unlisten failed"));
    await internal?.stop();
    await chat.stop();
    await comments.stop();
    await hub.stop();
    await pushes?.stop();
    await presence.settle();
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
    log.info({ port }, "realtime closed");
  }

  return {
    port,
    close: () => (closed ??= close()),
    stats: () => ({ sockets: hub.socketCount, accounts: hub.accountIds.length, visibleAccounts: hub.visibleAccountIds.length, lastDeliveredId: hub.lastDeliveredId }),
  };
}
