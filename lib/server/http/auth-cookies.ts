import "server-only";
import { env } from "@/lib/server/env";
import { ACCESS_COOKIE, ACCESS_TTL_SECONDS, REFRESH_COOKIE, REFRESH_TTL_SECONDS } from "@/lib/server/auth/tokens";

function cookie(name: string, value: string, maxAge: number, path = "/") {
  const secure = env().PUBLIC_URL.startsWith("https://") ? "; Secure" : "";
  return `${name}=${encodeURIComponent(value)}; Path=${path}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

/**
 * Both tokens as httpOnly cookies with Path=/: the page guard (proxy.ts) renews sessions on page
 * requests, so the refresh cookie must reach every path, not only the auth endpoints.
 */
export function setAuthCookies(res: Response, pair: { accessToken: string; refreshToken: string }): Response {
  // The refresh token lives as long as its session; the access cookie outlives its JWT a little so an
  // expired token still reaches the server, which answers 401 and lets the client refresh.
  res.headers.append("set-cookie", cookie(ACCESS_COOKIE, pair.accessToken, REFRESH_TTL_SECONDS));
  res.headers.append("set-cookie", cookie(REFRESH_COOKIE, pair.refreshToken, REFRESH_TTL_SECONDS));
  return res;
}

export function clearAuthCookies(res: Response): Response {
  res.headers.append("set-cookie", cookie(ACCESS_COOKIE, "", 0));
  res.headers.append("set-cookie", cookie(REFRESH_COOKIE, "", 0));
  return res;
}

export { ACCESS_TTL_SECONDS };
