import http, { type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { ACCESS_COOKIE, REFRESH_COOKIE } from "@/lib/server/auth/tokens";
import { createAppServer } from "@/lib/server/http/app-server";
import { AUTH_COOKIE_NAMES, createPageCache, MARKER_HEADER } from "@/lib/server/http/page-cache";
import { newNonce, pageCsp } from "@/lib/server/http/security-headers";

// The page cache in front of a handler shaped like Next behind proxy.ts: a nonce per render in the CSP
// header and on the scripts (and in the serialized props), the language from the request, a redirect of
// a signed-in visitor away from /login. The real app is covered by tests/e2e/page-cache.spec.ts.

type Seen = { url: string; headers: IncomingMessage["headers"] };
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A server with the cache; `cache.origin` sends its render requests elsewhere (another web worker). */
async function start(cache: { marker?: string; origin?: () => string; build?: string } = {}): Promise<{ base: string; renders: Seen[] }> {
  const renders: Seen[] = [];
  let port = 0;
  const server = createAppServer({
    trustedHops: 0,
    realtimePort: 1,
    pageCache: createPageCache({
      origin: cache.origin ?? (() => `http://127.0.0.1:${port}`),
      host: "krug.example",
      retryAfterMs: 60_000,
      marker: cache.marker,
      buildId: cache.build,
    }),
    handle: (req, res) => {
      renders.push({ url: req.url ?? "", headers: { ...req.headers } });
      const cookie = req.headers.cookie ?? "";
      if (req.url?.startsWith("/login") && cookie.includes(`${ACCESS_COOKIE}=`)) {
        res.writeHead(307, { location: "/" });
        return res.end();
      }
      const nonce = newNonce();
      const lang = cookie.includes("NEXT_LOCALE=en") || req.headers["accept-language"]?.startsWith("en") ? "en" : "ru";
      const headers: http.OutgoingHttpHeaders = { "content-type": "text/html; charset=utf-8", "content-security-policy": pageCsp(nonce) };
      if (req.url === "/forgot") headers["set-cookie"] = "seen=1; Path=/";
      res.writeHead(200, headers);
      res.end(
        `<!DOCTYPE html><html lang="${lang}"><head><script nonce="${nonce}">theme()</script></head>` +
          `<body>${req.url} ${"x".repeat(5000)}<script nonce="${nonce}">self.__next_f.push([1,"{\\"nonce\\":\\"${nonce}\\",\\"b\\":\\"${cache.build ?? ""}\\"}"])</script></body></html>`,
      );
    },
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
  return { base: `http://127.0.0.1:${port}`, renders };
}

type Got = { status: number; headers: IncomingMessage["headers"]; body: string };

function get(url: string, headers: Record<string, string> = {}): Promise<Got> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const raw = Buffer.concat(chunks);
          const body = res.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body.toString("utf8") });
        });
      })
      .on("error", reject);
  });
}

const nonceOf = (r: Got) => /'nonce-([^']+)'/.exec(String(r.headers["content-security-policy"]))![1];
const visitorRenders = (renders: Seen[]) => renders.filter((r) => !r.headers[MARKER_HEADER]);

describe("page cache of the signed-out pages", () => {
  it("renders once, then gives every visitor the page with a fresh nonce of its own", async () => {
    const { base, renders } = await start();
    const a = await get(`${base}/login`);
    const b = await get(`${base}/login`);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(renders).toHaveLength(1);
    const [na, nb] = [nonceOf(a), nonceOf(b)];
    expect(na).not.toBe(nb);
    // Every occurrence of the render's nonce was replaced: the body carries this response's nonce only.
    for (const [r, n] of [[a, na], [b, nb]] as const) {
      expect(r.body.split(`nonce="${n}"`)).toHaveLength(3);
      expect(r.body).toContain(`\\"nonce\\":\\"${n}\\"`);
    }
    expect(a.body.replaceAll(na, "N")).toBe(b.body.replaceAll(nb, "N"));
    expect(a.headers["x-frame-options"]).toBe("DENY");
    expect(a.headers["content-length"]).toBe(String(Buffer.byteLength(a.body)));
  });

  it("renders with nothing of the visitor's: no cookie, no address, the public host", async () => {
    const { base, renders } = await start();
    await get(`${base}/registration`, { cookie: "NEXT_LOCALE=en; other=secret", "user-agent": "visitor", "x-forwarded-for": "203.0.113.7" });
    expect(renders).toHaveLength(1);
    const seen = renders[0].headers;
    expect(seen.cookie).toBeUndefined();
    expect(seen["user-agent"]).toBeUndefined();
    expect(seen["x-forwarded-for"]).toBeUndefined();
    expect(seen.host).toBe("krug.example");
    expect(seen["accept-language"]).toBe("en");
  });

  it("keeps one page per language, decided as the render decides (cookie, else the browser's)", async () => {
    const { base, renders } = await start();
    const ru = await get(`${base}/login`);
    const en = await get(`${base}/login`, { "accept-language": "en-GB,en;q=0.9" });
    const enByCookie = await get(`${base}/login`, { "accept-language": "ru", cookie: "NEXT_LOCALE=en" });
    const ruByCookie = await get(`${base}/login`, { "accept-language": "en", cookie: "NEXT_LOCALE=ru" });
    expect(ru.body).toContain('lang="ru"');
    expect(en.body).toContain('lang="en"');
    expect(enByCookie.body).toContain('lang="en"');
    expect(ruByCookie.body).toContain('lang="ru"');
    expect(renders).toHaveLength(2);
  });

  it("sends a visitor with an auth cookie to the page guard (a signed-in visitor is redirected)", async () => {
    const { base, renders } = await start();
    await get(`${base}/login`);
    const signedIn = await get(`${base}/login`, { cookie: `${ACCESS_COOKIE}=token` });
    expect(signedIn.status).toBe(307);
    expect(signedIn.headers.location).toBe("/");
    const refreshOnly = await get(`${base}/registration`, { cookie: `${REFRESH_COOKIE}=token` });
    expect(refreshOnly.status).toBe(200);
    expect(visitorRenders(renders).map((r) => r.url)).toEqual(["/login", "/registration"]);
    expect([...AUTH_COOKIE_NAMES]).toEqual([ACCESS_COOKIE, REFRESH_COOKIE]);
  });

  it("compresses with gzip from pieces compressed once, the fresh nonce spliced in", async () => {
    const { base } = await start();
    const plain = await get(`${base}/forgot-success`);
    const gz = await get(`${base}/forgot-success`, { "accept-encoding": "gzip, deflate, br" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers.vary).toContain("Accept-Encoding");
    expect(Number(gz.headers["content-length"])).toBeLessThan(Buffer.byteLength(plain.body));
    expect(gz.body.replaceAll(nonceOf(gz), "N")).toBe(plain.body.replaceAll(nonceOf(plain), "N"));
  });

  it("leaves router requests, other pages, other queries and a page that sets a cookie to the handler", async () => {
    const { base, renders } = await start();
    await get(`${base}/login`, { rsc: "1" });
    await get(`${base}/profile`);
    await get(`${base}/registration?x=1`);
    expect(visitorRenders(renders).map((r) => r.url)).toEqual(["/login", "/profile", "/registration?x=1"]);
    // The login page's own query is part of the key.
    const q = await get(`${base}/login?redirect=News`);
    expect(q.body).toContain("/login?redirect=News");
    expect(renders.filter((r) => r.headers[MARKER_HEADER]).map((r) => r.url)).toEqual(["/login?redirect=News"]);
    // A render with Set-Cookie is not cached: the visitor gets the handler's own answer, now and next time.
    const forgot = await get(`${base}/forgot`);
    expect(forgot.headers["set-cookie"]).toEqual(["seen=1; Path=/"]);
    await get(`${base}/forgot`);
    expect(renders.filter((r) => r.url === "/forgot")).toHaveLength(3);
  });
});

describe("web workers sharing the port (docs/adr/0099)", () => {
  it("a render request that reaches another worker goes to its Next, not to its cache", async () => {
    // Each worker's render request lands on the other, as the cluster's turn-taking may send it.
    let other = { a: "", b: "" };
    const marker = "shared-by-the-workers-of-one-server";
    const a = await start({ marker, origin: () => other.b });
    const b = await start({ marker, origin: () => other.a });
    other = { a: a.base, b: b.base };
    const page = await get(`${a.base}/login`, { "accept-language": "en" });
    expect(page.status).toBe(200);
    expect(page.headers[MARKER_HEADER]).toBeUndefined();
    expect(page.body).toContain('<html lang="en">');
    // Rendered once, by the other worker's handler, on the cache's marked request; nothing else.
    expect(a.renders).toEqual([]);
    expect(b.renders).toHaveLength(1);
    expect(b.renders[0].headers[MARKER_HEADER]).toBe(marker);
    // The other worker, asked by a visitor, fills its own cache the same way.
    expect((await get(`${b.base}/login`, { "accept-language": "en" })).status).toBe(200);
    expect(a.renders).toHaveLength(1);
    expect(visitorRenders([...a.renders, ...b.renders])).toEqual([]);
  });

  it("during a rolling restart, a page rendered by a worker of the other build is not kept (docs/adr/0149)", async () => {
    let other = { a: "", b: "" };
    const marker = "shared-by-the-workers-of-one-server";
    const a = await start({ marker, origin: () => other.b, build: "build-new" });
    const b = await start({ marker, origin: () => other.a, build: "build-old" });
    other = { a: a.base, b: b.base };
    // The new worker's render lands on the old one: the visitor gets the new build's page from its own Next.
    const first = await get(`${a.base}/login`, { "accept-language": "en" });
    expect(first.status).toBe(200);
    expect(first.body).toContain('\\"b\\":\\"build-new\\"');
    expect(b.renders).toHaveLength(1);
    expect(visitorRenders(a.renders)).toHaveLength(1);
    // Not kept: the next visitor is not served the old build's page either.
    const second = await get(`${a.base}/login`, { "accept-language": "en" });
    expect(second.body).toContain('\\"b\\":\\"build-new\\"');
    expect(second.headers["x-krug-page-cache"]).toBeUndefined();
  });
});
