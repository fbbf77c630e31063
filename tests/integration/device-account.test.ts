import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { ACCESS_COOKIE, REFRESH_COOKIE } from "@/lib/server/auth/tokens";
import { env } from "@/lib/server/env";
import { deviceAccountOf } from "@/lib/server/http/device-account";
import { logout } from "@/lib/server/services/auth/logout";
import { ACCOUNT_HEADER, DEVICE_REQUEST_HEADER } from "@/lib/pwa/worker/device";
import { proxy } from "@/proxy";
import { ctxOf, signedInAccount } from "./helpers/factories";

// The page guard names whose page it renders for the service worker's fetches (docs/adr/0178), only after
// checking the session against the database: the worker keeps a page only with that name and wipes what it
// kept when a page comes without it or with another.

type Tokens = { accessToken: string; refreshToken: string };

function pageRequest(path: string, tokens: Tokens | null, forDevice: boolean) {
  const headers: Record<string, string> = { accept: "text/html" };
  if (tokens) headers.cookie = `${ACCESS_COOKIE}=${tokens.accessToken}; ${REFRESH_COOKIE}=${tokens.refreshToken}`;
  if (forDevice) headers[DEVICE_REQUEST_HEADER] = "1";
  return proxy(new NextRequest(new URL(path, env().PUBLIC_URL), { headers }));
}

describe("the account a page is kept for", () => {
  it("is named to the worker's fetch of a signed-in page, differently for each account, and to nobody else", async () => {
    const a = await signedInAccount();
    const b = await signedInAccount();
    const forA = await pageRequest("/", a, true);
    expect(forA.headers.get(ACCOUNT_HEADER)).toBe(deviceAccountOf(a.id, env().AUTH_SECRET));
    expect(forA.headers.get(ACCOUNT_HEADER)).not.toBe(String(a.id));
    expect((await pageRequest("/im", b, true)).headers.get(ACCOUNT_HEADER)).toBe(deviceAccountOf(b.id, env().AUTH_SECRET));
    expect(deviceAccountOf(a.id, env().AUTH_SECRET)).not.toBe(deviceAccountOf(b.id, env().AUTH_SECRET));
    // The browser's own navigation (no worker) and a signed-out one name no account.
    expect((await pageRequest("/", a, false)).headers.get(ACCOUNT_HEADER)).toBeNull();
    expect((await pageRequest("/login", null, true)).headers.get(ACCOUNT_HEADER)).toBeNull();
  });

  it("is not named once the session was revoked, though its access token has not expired", async () => {
    const a = await signedInAccount();
    await logout({ ctx: ctxOf(a.viewer), refreshToken: a.refreshToken });
    const res = await pageRequest("/profile", a, true);
    expect(res.headers.get(ACCOUNT_HEADER)).toBeNull();
    expect(res.status).toBe(307);
    expect(new URL(res.headers.get("location")!).pathname).toBe("/login");
  });
});
