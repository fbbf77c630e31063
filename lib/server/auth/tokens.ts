import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";

export const ACCESS_COOKIE = "access_token";
export const REFRESH_COOKIE = "refresh_token";
export const ACCESS_TTL_SECONDS = 15 * 60;
export const REFRESH_TTL_SECONDS = 30 * 24 * 60 * 60;

export type AccessClaims = { accountId: number; sessionId: string };

function key(secret: string) {
  return new TextEncoder().encode(secret);
}

export async function signAccessToken(claims: AccessClaims, secret: string, ttl = ACCESS_TTL_SECONDS): Promise<string> {
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(claims.accountId))
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttl)
    .setIssuer("krug")
    .sign(key(secret));
}

/** Returns the claims of a valid, unexpired access token, or null. Never throws. */
export async function verifyAccessToken(token: string, secret: string): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key(secret), { issuer: "krug", algorithms: ["HS256"] });
    const accountId = Number(payload.sub);
    if (!Number.isSafeInteger(accountId) || accountId <= 0 || typeof payload.sid !== "string") return null;
    return { accountId, sessionId: payload.sid };
  } catch {
    return null;
  }
}

/** Opaque random secret for refresh tokens, links and captchas. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** Only this hash of a token or secret is ever stored. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Reads one cookie from a raw Cookie header (the sidecar has no framework to do it). */
export function readCookie(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** The token of a request: `Authorization: Bearer …` first, then the access-token cookie. */
export function tokenFromHeaders(headers: { authorization?: string | null; cookie?: string | null }): {
  token?: string;
  fromCookie: boolean;
} {
  const auth = headers.authorization;
  if (auth && /^Bearer\s+/i.test(auth)) return { token: auth.replace(/^Bearer\s+/i, "").trim(), fromCookie: false };
  const token = readCookie(headers.cookie, ACCESS_COOKIE);
  return { token, fromCookie: Boolean(token) };
}
