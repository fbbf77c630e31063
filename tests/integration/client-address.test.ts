import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createAppServer } from "@/lib/server/http/app-server";
import { CLIENT_ADDRESS_HEADER, clientAddressOf, parseTrustProxy } from "@/lib/server/http/client-address";
import { clientIp } from "@/lib/server/http/request";

// The server `npm start` runs (scripts/next-server.ts) is createAppServer around Next's handler; here it
// wraps a handler that answers with what a route handler would read as the client address.
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function start(trustedHops: number, realtimePort = 1, publicUrl?: string): Promise<number> {
  const server = createAppServer({
    trustedHops,
    realtimePort,
    publicUrl,
    handle: (req, res) => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      res.end(clientIp(headers));
    },
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return (server.address() as AddressInfo).port;
}

async function seenAs(port: number, headers: Record<string, string>): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, { headers });
  return res.text();
}

describe("client address through the app server", () => {
  it("TRUST_PROXY off: the TCP peer, whatever X-Forwarded-For or our own header say", async () => {
    const port = await start(0);
    expect(await seenAs(port, {})).toBe("127.0.0.1");
    expect(await seenAs(port, { "x-forwarded-for": "203.0.113.7" })).toBe("127.0.0.1");
    expect(await seenAs(port, { "x-real-ip": "203.0.113.7", [CLIENT_ADDRESS_HEADER]: "198.51.100.1" })).toBe("127.0.0.1");
  });

  it("TRUST_PROXY=1: only the entry the trusted proxy appended counts", async () => {
    const port = await start(1);
    // The proxy appended 198.51.100.9; whatever the client put before it is ignored.
    expect(await seenAs(port, { "x-forwarded-for": "203.0.113.7, 198.51.100.9" })).toBe("198.51.100.9");
    expect(await seenAs(port, { "x-forwarded-for": "1.1.1.1, 2.2.2.2, 198.51.100.9" })).toBe("198.51.100.9");
    expect(await seenAs(port, { "x-forwarded-for": "198.51.100.9", [CLIENT_ADDRESS_HEADER]: "203.0.113.7" })).toBe("198.51.100.9");
    // No header (a request straight to the app): the peer.
    expect(await seenAs(port, {})).toBe("127.0.0.1");
    // Garbage where the proxy's entry should be does not become a key.
    expect(await seenAs(port, { "x-forwarded-for": "203.0.113.7, not-an-ip" })).toBe("127.0.0.1");
  });

  it("TRUST_PROXY=2: two hops from the right", () => {
    expect(clientAddressOf("10.0.0.2", "203.0.113.7, 198.51.100.9, 10.0.0.1", 2)).toBe("198.51.100.9");
    expect(clientAddressOf("::ffff:10.0.0.2", undefined, 0)).toBe("10.0.0.2");
    expect(parseTrustProxy("on")).toBe(1);
    expect(parseTrustProxy(undefined)).toBe(0);
    expect(() => parseTrustProxy("maybe")).toThrow();
  });

  it("the realtime socket path is proxied to the sidecar with the derived address, not the client's", async () => {
    let received = "";
    const upstream = net.createServer((sock) => {
      sock.on("data", (d) => {
        received += d.toString();
        if (received.includes("\r\n\r\n")) sock.end("HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      });
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    try {
      const port = await start(0, (upstream.address() as AddressInfo).port);
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request({
          port,
          host: "127.0.0.1",
          path: "/api/v1/streaming/ws?lastEventId=5",
          headers: { connection: "Upgrade", upgrade: "websocket", [CLIENT_ADDRESS_HEADER]: "203.0.113.7", cookie: "a=b" },
        });
        req.on("response", (res) => resolve(res.statusCode ?? 0));
        req.on("upgrade", () => reject(new Error("unexpected upgrade")));
        req.on("error", reject);
        req.end();
      });
      expect(status).toBe(401);
      expect(received).toMatch(/^GET \/api\/v1\/streaming\/ws\?lastEventId=5 HTTP\/1\.1\r\n/);
      expect(received.toLowerCase()).toContain(`${CLIENT_ADDRESS_HEADER}: 127.0.0.1`);
      expect(received).not.toContain("203.0.113.7");
      expect(received.toLowerCase()).toContain("cookie: a=b");
    } finally {
      await new Promise((r) => upstream.close(r));
    }
  });

  it("sets the static security headers on every response, HSTS only for an https public address", async () => {
    const plain = await fetch(`http://127.0.0.1:${await start(0, 1, "http://krug.example")}/api/health`);
    expect(plain.headers.get("x-content-type-options")).toBe("nosniff");
    expect(plain.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(plain.headers.get("x-frame-options")).toBe("DENY");
    expect(plain.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(plain.headers.get("strict-transport-security")).toBeNull();
    const secure = await fetch(`http://127.0.0.1:${await start(0, 1, "https://krug.example")}/`);
    expect(secure.headers.get("strict-transport-security")).toMatch(/^max-age=31536000/);
  });
});
