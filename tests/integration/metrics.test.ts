// Issue 30 §2 (docs/adr/0140): /api/metrics is closed without the token, shows every family after some
// traffic with route patterns (never raw ids) as labels, and /api/ready turns 503 when the sidecar's
// database connections are gone, and 200 again when they are back.
import type { Server } from "node:http";
import net from "node:net";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { GET as metricsGET } from "@/app/api/metrics/route";
import { GET as readyGET } from "@/app/api/ready/route";
import { createSql, databaseUrl } from "@/db/client";
import { freePort } from "@/db/embedded";
import { createAppServer } from "@/lib/server/http/app-server";
import { sendMail } from "@/lib/server/mail/send";
import { RouteMatcher, routePatternsFromAppDir } from "@/lib/server/metrics/routes";
import { createRealtimeServer, type RealtimeServer } from "@/realtime/server";
import { signedInAccount } from "./helpers/factories";
import { commitEvent, TestSocket } from "./helpers/ws-client";

const TOKEN = "metrics-token-0123456789abcdef";
const servers: RealtimeServer[] = [];
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  for (const c of closers) await c();
});
afterEach(() => {
  delete process.env.METRICS_TOKEN;
});

function scrape(authorization?: string) {
  const headers = new Headers();
  if (authorization !== undefined) headers.set("authorization", authorization);
  return metricsGET(new NextRequest("http://localhost/api/metrics", { headers }));
}

async function startSidecar(options: Partial<Parameters<typeof createRealtimeServer>[0]> = {}) {
  const server = await createRealtimeServer({ port: 0, ...options });
  servers.push(server);
  process.env.REALTIME_PORT = String(server.port);
  return server;
}

/** A TCP relay to Postgres that can be cut (every connection through it dies) and mended. */
async function cuttableRelay(): Promise<{ url: string; cut: () => Promise<void>; mend: () => Promise<void> }> {
  const target = new URL(databaseUrl());
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  const open = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on("error", () => {});
          s.on("close", () => sockets.delete(s));
        }
        client.pipe(upstream).pipe(client);
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
      });
      server.listen(port, "127.0.0.1", () => resolve());
    });
  await open();
  const url = new URL(target);
  url.port = String(port);
  return {
    url: url.toString(),
    cut: () =>
      new Promise<void>((resolve) => {
        server!.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
    mend: open,
  };
}

describe("GET /api/metrics is closed", () => {
  it("answers 404 while METRICS_TOKEN is unset, even to a bearer", async () => {
    expect((await scrape()).status).toBe(404);
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("not_found");
  });

  it("answers 401 without the token, with a wrong one and with hostile headers", async () => {
    process.env.METRICS_TOKEN = TOKEN;
    for (const h of [undefined, "", "Bearer", `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, TOKEN, `Bearer ${"a".repeat(100_000)}`, "Bearer \u00ff\u00fe"]) {
      const res = await scrape(h);
      expect(res.status, String(h).slice(0, 40)).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe("Bearer");
      expect((await res.json()).error.code).toBe("unauthorized");
    }
  });
});

describe("GET /api/metrics with the token", () => {
  it("shows every family after some traffic, by route pattern, from the web server and the sidecar", async () => {
    process.env.METRICS_TOKEN = TOKEN;
    const sidecar = await startSidecar();
    // The web server as npm start runs it, around a stand-in for Next's handler.
    const app: Server = createAppServer({
      handle: (req, res) => {
        res.statusCode = req.url?.startsWith("/api/v1/account/") ? 200 : 404;
        res.end("{}");
      },
      realtimePort: sidecar.port,
      trustedHops: 0,
      routes: new RouteMatcher(routePatternsFromAppDir(path.join(process.cwd(), "app"))),
    });
    await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => app.close(resolve)));
    const base = `http://127.0.0.1:${(app.address() as net.AddressInfo).port}`;
    for (const p of ["/api/v1/account/123456789", "/api/v1/account/987654321", "/api/v1/post/424242/comment/171717", "/no/such/page/31337"]) {
      await (await fetch(base + p)).text();
    }
    // A socket that receives an event and sends a frame; a mail through the outbox folder.
    const alice = await signedInAccount();
    const socket = await TestSocket.open(sidecar.port, { token: alice.accessToken });
    const id = await commitEvent([alice.id]);
    expect((await socket.nextEvent()).id).toBe(id);
    socket.send({ type: "VISIBILITY", visible: true });
    await sendMail({ to: "someone@example.test", subject: "s", text: "t", html: "<p>t</p>" });

    let text = "";
    await vi.waitFor(async () => {
      const res = await scrape(`Bearer ${TOKEN}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/plain");
      text = await res.text();
      expect(text).toMatch(/krug_realtime_frames_total\{direction="in",service="realtime"[^}]*\} [1-9]/);
    });
    for (const family of [
      "krug_http_requests_total",
      "krug_http_request_duration_seconds_bucket",
      "krug_realtime_sockets",
      "krug_realtime_frames_total",
      "krug_realtime_up",
      "krug_outbox_lag_seconds",
      "krug_outbox_undelivered_events",
      "krug_jobs",
      "krug_db_connections",
      "krug_database_up",
      "krug_mail_deliveries_total",
      "krug_push_deliveries_total",
      "nodejs_eventloop_lag_seconds",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
    ]) {
      expect(text, family).toContain(`# TYPE ${family.replace(/_bucket$/, "")} `);
    }
    // Route labels are patterns; the raw ids never appear.
    expect(text).toMatch(/krug_http_requests_total\{route="\/api\/v1\/account\/\[id\]",method="GET",status="200"[^}]*\} 2/);
    expect(text).toMatch(/krug_http_requests_total\{route="\/api\/v1\/post\/\[id\]\/comment\/\[commentId\]",method="GET",status="404"/);
    expect(text).toContain('route="/[...unknown]"'); // the app's own not-found catch-all
    for (const raw of ["123456789", "987654321", "424242", "171717", "31337"]) expect(text).not.toContain(raw);
    expect(text).toMatch(/krug_realtime_sockets\{service="realtime"[^}]*\} 1/);
    expect(text).toMatch(/krug_realtime_frames_total\{direction="out",service="realtime"[^}]*\} [1-9]/);
    expect(text).toMatch(/krug_mail_deliveries_total\{result="sent",service="app"[^}]*\} [1-9]/);
    expect(text).toMatch(/krug_realtime_up 1/);
    expect(text).toMatch(/krug_database_up 1/);
    await socket.close();
  });

  it("still answers when the sidecar is away, saying so", async () => {
    process.env.METRICS_TOKEN = TOKEN;
    process.env.REALTIME_PORT = String(await freePort());
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/krug_realtime_up 0/);
    expect(text).toContain("# TYPE krug_outbox_lag_seconds gauge");
  });
});

describe("GET /api/ready", () => {
  it("is 503 while the sidecar's database connections are gone, and 200 once they are back", async () => {
    const relay = await cuttableRelay();
    const sql = createSql(relay.url, { max: 2, connect_timeout: 2 });
    closers.push(() => sql.end({ timeout: 1 }));
    await startSidecar({ sql });
    await vi.waitFor(async () => expect((await readyGET()).status).toBe(200), { timeout: 10_000 });

    await relay.cut();
    await vi.waitFor(
      async () => {
        const res = await readyGET();
        expect(res.status).toBe(503);
        expect(await res.json()).toMatchObject({ ready: false, database: "up", listener: "down" });
      },
      { timeout: 10_000, interval: 300 },
    );

    // The database stays away a while longer, each ready check knocking on it: postgres.js alone would by
    // then wait up to 20 s between reconnects; Krug's cap (RECONNECT_BACKOFF_CAP_S, docs/adr/0184) is 4 s,
    // so the listener is back within the cap, a probe's timeout and its cache.
    for (let i = 0; i < 6; i++) {
      expect((await readyGET()).status).toBe(503);
      await new Promise((r) => setTimeout(r, 300));
    }
    await relay.mend();
    await vi.waitFor(async () => expect((await readyGET()).status).toBe(200), { timeout: 9_000, interval: 300 });
  }, 60_000);

  it("is 503 without a sidecar at all", async () => {
    process.env.REALTIME_PORT = String(await freePort());
    const res = await readyGET();
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ ready: false, database: "up", listener: "down" });
  });
});

describe("route patterns", () => {
  it("prefer fixed segments, then parameters, then catch-alls", () => {
    const m = new RouteMatcher(["/api/v1/post/[id]", "/api/v1/post/newsPosts", "/api/[[...path]]", "/", "/[...rest]", "/profile"]);
    expect(m.match("/api/v1/post/newsPosts")).toBe("/api/v1/post/newsPosts");
    expect(m.match("/api/v1/post/12")).toBe("/api/v1/post/[id]");
    expect(m.match("/api/v1/nothing/here")).toBe("/api/[[...path]]");
    expect(m.match("/api")).toBe("/api/[[...path]]");
    expect(m.match("/")).toBe("/");
    expect(m.match("/profile")).toBe("/profile");
    expect(m.match("/x/y")).toBe("/[...rest]");
    expect(m.match("/_next/static/chunks/a.js")).toBe("/_next/static");
    expect(m.match("/" + "a/".repeat(10_000))).toBe("(other)");
  });
});
