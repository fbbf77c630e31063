import { afterEach, describe, expect, it, vi } from "vitest";
import { cookieHeader } from "./helpers/auth";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";

// Issue 24 item 8: X-Forwarded-Host names our host only when a proxy we trust (TRUST_PROXY) set it.
// Settings are read once per module graph, so each case loads the route afresh with its setting.

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

async function accountMeWith(trustProxy: string) {
  vi.stubEnv("TRUST_PROXY", trustProxy);
  vi.resetModules();
  return (await import("@/app/api/v1/account/me/route")).PUT;
}

const spoofed = { origin: "https://evil.example", "x-forwarded-host": "evil.example", host: "localhost:3000" };

describe("cookie-authenticated mutations and X-Forwarded-Host", () => {
  it("TRUST_PROXY off: a client's own X-Forwarded-Host does not make its Origin ours (403)", async () => {
    const PUT = await accountMeWith("off");
    const me = await signedInAccount();
    const res = await call(PUT, { method: "PUT", cookie: cookieHeader(me), headers: spoofed, body: { about: "csrf" } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("forbidden");
    const own = await call(PUT, { method: "PUT", cookie: cookieHeader(me), headers: { origin: "http://localhost:3000", host: "localhost:3000" }, body: { about: "mine" } });
    expect(own.status).toBe(200);
    expect(own.body.about).toBe("mine");
  });

  it("TRUST_PROXY on: the proxy's X-Forwarded-Host is the host the browser saw", async () => {
    const PUT = await accountMeWith("1");
    const me = await signedInAccount();
    const res = await call(PUT, {
      method: "PUT",
      cookie: cookieHeader(me),
      headers: { origin: "https://krug.example", "x-forwarded-host": "krug.example", host: "127.0.0.1:3000" },
      body: { about: "через прокси" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.about).toBe("через прокси");
    const other = await call(PUT, { method: "PUT", cookie: cookieHeader(me), headers: { origin: "https://evil.example", "x-forwarded-host": "krug.example" }, body: { about: "x" } });
    expect(other.status).toBe(403);
  });
});
