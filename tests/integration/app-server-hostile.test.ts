import http from "node:http";
import type { AddressInfo } from "node:net";
import { NextRequest } from "next/server";
import { NodeNextResponse } from "next/dist/server/base-http/node";
import { sendResponse } from "next/dist/server/send-response";
import { afterEach, describe, expect, it } from "vitest";
import { GET as fileRoute } from "@/app/api/v1/storage/files/[key]/route";
import { POST as storageRoute } from "@/app/api/v1/storage/route";
import { createAppServer } from "@/lib/server/http/app-server";
import { signedInAccount } from "./helpers/factories";
import { png, upload } from "./helpers/upload";

// What the custom HTTP server (scripts/next-server.ts runs createAppServer around Next) answers itself:
// issue 24 item 9 (TRACE and malformed % escapes answered a plain-text 500 before any route) and item 6
// (the static security headers replaced a route's own CSP). docs/adr/0111, 0112.

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

type Handle = (req: http.IncomingMessage, res: http.ServerResponse) => unknown;

async function start(handle: Handle): Promise<number> {
  const server = createAppServer({ trustedHops: 0, realtimePort: 1, handle });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return (server.address() as AddressInfo).port;
}

/** A raw request (fetch refuses TRACE and re-encodes paths). */
function send(port: number, method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** A route that must never be reached by the requests under test. */
function routeCounter() {
  const seen: string[] = [];
  const handle: Handle = (req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.setHeader("content-type", "application/json");
    res.end("{}");
  };
  return { seen, handle };
}

describe("requests refused before routing", () => {
  it("TRACE (and any method no route serves) answers 405 in the envelope on /api, in the request's language", async () => {
    const { seen, handle } = routeCounter();
    const port = await start(handle);
    for (const path of ["/api/health", "/api/v1/post/newsPosts", "/api"]) {
      const res = await send(port, "TRACE", path);
      expect(res.status, path).toBe(405);
      expect(res.headers["content-type"]).toBe("application/json");
      expect(res.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      const body = JSON.parse(res.body);
      expect(body).toEqual({ error: { code: "method_not_allowed", message: "Этот метод запроса не поддерживается" }, requestId: expect.any(String) });
      expect(res.headers["x-request-id"]).toBe(body.requestId);
    }
    const en = await send(port, "PROPFIND", "/api/health", { "accept-language": "en-GB,en;q=0.8" });
    expect(en.status).toBe(405);
    expect(JSON.parse(en.body).error.message).toBe("This request method is not supported");
    const page = await send(port, "TRACE", "/news", { cookie: "NEXT_LOCALE=en" });
    expect(page.status).toBe(405);
    expect(page.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(page.body).toBe("This request method is not supported");
    expect(seen).toEqual([]);
  });

  it("a malformed % escape in the path answers 400 in the envelope (HEAD: the same status, no body)", async () => {
    const { seen, handle } = routeCounter();
    const port = await start(handle);
    for (const path of ["/api/v1/post/%E0%A4%A", "/api/%ff", "/api/v1/dialogs/recipientId/%zz", "/api/v1/account/search%?firstName=x"]) {
      const res = await send(port, "GET", path);
      expect(res.status, path).toBe(400);
      expect(JSON.parse(res.body)).toEqual({ error: { code: "bad_request", message: "В адресе запроса неверная %-последовательность" }, requestId: expect.any(String) });
      const head = await send(port, "HEAD", path);
      expect(head.status, path).toBe(400);
      expect(head.body).toBe("");
      const post = await send(port, "POST", path, { "content-type": "application/json" });
      expect(post.status, path).toBe(400);
    }
    expect(seen).toEqual([]);
    // A well-formed escape and a malformed one in the query string still reach the route.
    expect((await send(port, "GET", "/api/v1/post/%D0%B0")).status).toBe(200);
    expect((await send(port, "GET", "/api/v1/post?text=%zz")).status).toBe(200);
    expect(seen).toEqual(["GET /api/v1/post/%D0%B0", "GET /api/v1/post?text=%zz"]);
  });
});

describe("static security headers", () => {
  it("an uploaded file keeps its own sandbox CSP; answers without one get the static headers", async () => {
    const user = await signedInAccount();
    const stored = await upload(storageRoute, { token: user.accessToken, bytes: await png(20, 20), filename: "a.png", contentType: "image/png" });
    expect(stored.status).toBe(200);
    // Next's own way of writing a route's Response to the socket (it copies a header only when none is set).
    const port = await start(async (req, res) => {
      const url = new URL(req.url ?? "/", "http://localhost:3000");
      const key = url.pathname.split("/").pop() ?? "";
      const response = url.pathname.startsWith("/api/v1/storage/files/")
        ? await fileRoute(new NextRequest(url), { params: Promise.resolve({ key }) })
        : Response.json({ ok: true });
      await sendResponse(req as never, new NodeNextResponse(res), response);
    });

    const file = await send(port, "GET", stored.body.data);
    expect(file.status).toBe(200);
    expect(file.headers["content-type"]).toBe("image/webp");
    expect(file.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
    expect(file.headers["x-frame-options"]).toBe("DENY");
    expect(file.headers["x-content-type-options"]).toBe("nosniff");

    const other = await send(port, "GET", "/api/health");
    expect(other.headers["content-security-policy"]).toBe("frame-ancestors 'none'; object-src 'none'; base-uri 'self'");
    expect(other.headers["x-frame-options"]).toBe("DENY");
    expect(other.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");

    const missing = await send(port, "GET", "/api/v1/storage/files/0123456789abcdef0123456789abcdef.webp");
    expect(missing.status).toBe(404);
    expect(missing.headers["content-security-policy"]).toBe("frame-ancestors 'none'; object-src 'none'; base-uri 'self'");
  });

  it("a handler that writes its headers in writeHead keeps them too", async () => {
    const port = await start((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain", "content-security-policy": "sandbox" });
      res.end("x");
    });
    const res = await send(port, "GET", "/");
    expect(res.headers["content-security-policy"]).toBe("sandbox");
    expect(res.headers["x-frame-options"]).toBe("DENY");
  });
});
