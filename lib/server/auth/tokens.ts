import "server-only";
import { createCipheriv, createDecipheriv, createHash, createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from "node:crypto";
import { SignJWT } from "jose";

export const ACCESS_COOKIE = "access_token";
export const REFRESH_COOKIE = "refresh_token";
export const ACCESS_TTL_SECONDS = 15 * 60;
export const REFRESH_TTL_SECONDS = 30 * 24 * 60 * 60;

export type AccessClaims = { accountId: number; sessionId: string };

const ISSUER = "krug";

function key(secret: string) {
  return new TextEncoder().encode(secret);
}

export async function signAccessToken(claims: AccessClaims, secret: string, ttl = ACCESS_TTL_SECONDS): Promise<string> {
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(claims.accountId))
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttl)
    .setIssuer(ISSUER)
    .sign(key(secret));
}

/** One HMAC key object per secret: made once, not on every request. */
const verifyKeys = new Map<string, KeyObject>();
function verifyKey(secret: string): KeyObject {
  let k = verifyKeys.get(secret);
  if (!k) {
    k = createSecretKey(Buffer.from(secret, "utf8"));
    verifyKeys.set(secret, k);
  }
  return k;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function jsonPart(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Returns the claims of a valid, unexpired access token, or null. Never throws. Checked here with
 * node:crypto rather than jose's WebCrypto path (which imports the key and hops to the thread pool on
 * every call, docs/adr/0091), with the same rules jose applies to our tokens: a compact JWS whose
 * header is exactly HS256 without critical extensions, an HMAC-SHA256 signature compared in constant
 * time, issuer "krug", `exp` in the future (and `nbf`, if present, not), a positive integer subject and
 * a session id.
 */
export async function verifyAccessToken(token: string, secret: string): Promise<AccessClaims | null> {
  const now = Math.floor(Date.now() / 1000);
  const known = verified.get(token);
  if (known && known.secret === secret) {
    if (known.exp > now && (known.nbf === undefined || known.nbf <= now)) return known.claims;
    if (known.exp <= now) verified.delete(token);
    return null;
  }
  const checked = checkAccessToken(token, secret, now);
  if (checked) remember(token, secret, checked);
  return checked?.claims ?? null;
}

/**
 * Tokens this process has verified, by their exact text (issue 28: the HMAC, two base64url decodes and
 * two JSON parses were ~25 µs of a signed-in request's ~1 ms, docs/adr/0146). Only a token whose
 * signature checked is kept, so a client can fill it only with valid tokens of its own; expiry and
 * `nbf` are checked again on every use, and the entry goes at its expiry or when the map is full
 * (oldest first). Revocation is not this cache's business: the session cache and the database decide
 * whether a verified token's session still stands (lib/server/auth/viewer.ts).
 */
type Verified = { claims: AccessClaims; secret: string; exp: number; nbf?: number };
const VERIFIED_MAX = 20_000;
const verified = new Map<string, Verified>();

function remember(token: string, secret: string, v: Omit<Verified, "secret">) {
  if (verified.size >= VERIFIED_MAX) {
    const now = Math.floor(Date.now() / 1000);
    for (const [k, e] of verified) if (e.exp <= now) verified.delete(k);
    // Still full: the oldest tenth goes (Map keeps insertion order).
    if (verified.size >= VERIFIED_MAX) {
      let drop = Math.ceil(VERIFIED_MAX / 10);
      for (const k of verified.keys()) {
        if (drop-- <= 0) break;
        verified.delete(k);
      }
    }
  }
  verified.set(token, { ...v, secret });
}

/** How many verified tokens the process keeps now (tests). */
export function verifiedTokenCount(): number {
  return verified.size;
}

function checkAccessToken(token: string, secret: string, now: number): Omit<Verified, "secret"> | null {
  const parts = token.split(".");
  if (parts.length !== 3 || !parts.every((p) => BASE64URL.test(p))) return null;
  const [head, body, signature] = parts;
  const expected = createHmac("sha256", verifyKey(secret)).update(`${head}.${body}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const header = jsonPart(head);
  if (!header || header.alg !== "HS256" || "crit" in header || "b64" in header) return null;
  const payload = jsonPart(body);
  if (!payload || payload.iss !== ISSUER) return null;
  if (typeof payload.exp !== "number" || payload.exp <= now) return null;
  if (payload.nbf !== undefined && (typeof payload.nbf !== "number" || payload.nbf > now)) return null;
  const accountId = Number(payload.sub);
  if (typeof payload.sub !== "string" || !Number.isSafeInteger(accountId) || accountId <= 0 || typeof payload.sid !== "string") return null;
  return { claims: { accountId, sessionId: payload.sid }, exp: payload.exp, nbf: payload.nbf as number | undefined };
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
