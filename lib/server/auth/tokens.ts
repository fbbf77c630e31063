import "server-only";
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
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

function sealKey(secret: string): Buffer {
  return createHash("sha256").update(`krug:refresh-successor:${secret}`).digest();
}

/**
 * A successor refresh token kept beside its spent predecessor for the grace window (AES-256-GCM under
 * a key derived from AUTH_SECRET), so a repeat of the same refresh can be answered with the same pair.
 */
export function sealToken(token: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealKey(secret), iv);
  const body = Buffer.concat([cipher.update(token, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString("base64url")).join(".");
}

/** The sealed token, or null if it was not sealed with this secret. */
export function unsealToken(sealed: string, secret: string): string | null {
  try {
    const [iv, tag, body] = sealed.split(".").map((p) => Buffer.from(p, "base64url"));
    const decipher = createDecipheriv("aes-256-gcm", sealKey(secret), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
