// The cache of signed-out pages that are the same for every visitor (issue 8 item 3, docs/adr/0093).
// No "server-only": it runs in the custom server (scripts/next-server.ts), outside the react-server
// condition, in front of Next's request handler.
import http, { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";
import zlib from "node:zlib";
import { LOCALE_COOKIE, localeOf, type Locale } from "@/lib/i18n/config";
import { newNonce } from "./security-headers";

/**
 * The auth cookies (lib/server/auth/tokens.ts, which is server-only and cannot be imported here; a
 * unit test keeps the names equal). A request carrying either is never served from the cache: the
 * page guard must see it (a signed-in visitor is redirected, a stale cookie is cleared).
 */
export const AUTH_COOKIE_NAMES = ["access_token", "refresh_token"] as const;

/**
 * The pages served from the cache: they read nothing but the language (no viewer, no query, no
 * cookie of their own). /login also reads `?redirect=`: its query is part of the key.
 */
export const CACHED_PAGES: ReadonlySet<string> = new Set([
  "/login",
  "/registration",
  "/forgot",
  "/forgot-success",
  "/change-password-success",
  "/shift-email-success",
]);
const QUERY_ALLOWED: ReadonlySet<string> = new Set(["/login"]);
const MAX_URL_LENGTH = 256;

/** Request headers of Next's client router: such a request wants the RSC payload, not the document. */
const ROUTER_HEADERS = ["rsc", "next-router-prefetch", "next-router-state-tree", "next-router-segment-prefetch", "next-action", "next-url"];

/** Headers of the render that are about that one response, not the page. */
const HOP_HEADERS = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "x-request-id"]);

export type PageCacheOptions = {
  /** This server's own address (http://127.0.0.1:PORT): a miss is rendered by a request to it. */
  origin: () => string;
  /** The Host header of that request: the public host (PUBLIC_URL), never a visitor's. */
  host: string;
  maxEntries?: number;
  /** How long a page that could not be cached (not 200, a Set-Cookie…) goes straight to Next. */
  retryAfterMs?: number;
  /**
   * The secret that marks the cache's own render request. The web workers of one server share it
   * (scripts/next-server.ts): a render request may reach another worker, which must send it to Next
   * rather than render it in turn. Without it, one of this cache's own.
   */
  marker?: string;
  /**
   * This server's build (BUILD_ID). During a rolling restart the render request may reach a worker of the
   * other build (docs/adr/0149): a page whose HTML does not name this build is not kept.
   */
  buildId?: string;
};

/** One cached page: the body cut at its nonce, raw and gzip-compressed piece by piece. */
type Entry = {
  status: number;
  headers: [string, string][];
  /** The nonce of the render; headers still carry it and get the fresh one at every response. */
  nonce: string;
  parts: Buffer[];
  /** Raw-deflate pieces, each ending on a flush, the last one final (deflatePieces). */
  deflated: Buffer[];
  length: number;
};

type Slot = { entry: Entry } | { uncacheable: number };

function cookieNames(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const pair of (header ?? "").split(";")) {
    const eq = pair.indexOf("=");
    if (eq > 0) out.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  return out;
}

/** The cache key of a request (language and URL), or null when the request must go to Next. */
export function cacheKeyOf(req: Pick<IncomingMessage, "method" | "url" | "headers">, marker?: string): { key: string; url: string; locale: Locale } | null {
  if (req.method !== "GET") return null;
  const url = req.url ?? "/";
  if (url.length > MAX_URL_LENGTH) return null;
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  if (!CACHED_PAGES.has(path)) return null;
  if (q >= 0 && !QUERY_ALLOWED.has(path)) return null;
  const h = req.headers;
  if (marker && h[MARKER_HEADER] === marker) return null;
  if (ROUTER_HEADERS.some((name) => h[name] !== undefined)) return null;
  const cookies = cookieNames(h.cookie);
  if (AUTH_COOKIE_NAMES.some((name) => cookies.has(name))) return null;
  const accept = h["accept-language"];
  const locale = localeOf(cookies.get(LOCALE_COOKIE), Array.isArray(accept) ? accept[0] : accept);
  return { key: `${locale} ${url}`, url, locale };
}

export const MARKER_HEADER = "x-krug-page-render";
/** Marks a response served from the cache (for operators and the journeys). */
export const CACHE_HEADER = "x-krug-page-cache";

function split(body: Buffer, nonce: string): Buffer[] {
  const needle = Buffer.from(nonce);
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(needle); at >= 0; at = body.indexOf(needle, from)) {
    parts.push(body.subarray(from, at));
    from = at + needle.length;
  }
  parts.push(body.subarray(from));
  return parts;
}

function toEntry(status: number, raw: IncomingMessage["headers"], body: Buffer): Entry | null {
  if (status !== 200 || raw["set-cookie"] || !String(raw["content-type"] ?? "").startsWith("text/html")) return null;
  const csp = String(raw["content-security-policy"] ?? "");
  const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
  if (!nonce) return null;
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.push([name, v]);
  }
  const parts = split(body, nonce);
  return { status, headers, nonce, parts, deflated: deflatePieces(parts, nonce.length), length: body.length };
}

/**
 * Each piece deflated on its own (ending on a flush, only the last one final), so the nonce between two
 * pieces can be sent per response as a stored block. A piece may still refer back to the 32 KB before
 * it (as whole-page compression would): its dictionary is the page so far with every nonce blanked
 * to NUL bytes. HTML without NUL bytes cannot match across a blank, so no reference reaches into the
 * nonce that the visitor's stream holds there instead; a page with a NUL byte is deflated without one.
 */
function deflatePieces(parts: Buffer[], nonceLength: number): Buffer[] {
  const blank = Buffer.alloc(nonceLength);
  const withDictionary = !parts.some((p) => p.includes(0));
  let before = Buffer.alloc(0);
  return parts.map((part, i) => {
    const last = i === parts.length - 1;
    const options: zlib.ZlibOptions = { finishFlush: last ? zlib.constants.Z_FINISH : zlib.constants.Z_SYNC_FLUSH };
    if (withDictionary && before.length > 0) options.dictionary = before;
    const out = zlib.deflateRawSync(part, options);
    if (withDictionary) before = Buffer.concat([before, part, last ? Buffer.alloc(0) : blank]).subarray(-32_768);
    return out;
  });
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** A stored (uncompressed, not final) deflate block of a short ASCII string: the nonce. */
function storedBlock(text: Buffer): Buffer {
  const n = text.length;
  return Buffer.concat([Buffer.from([0, n & 0xff, n >> 8, ~n & 0xff, (~n >> 8) & 0xff]), text]);
}

/** The page with a fresh nonce in its body and headers, gzip-compressed when the visitor accepts it. */
function send(entry: Entry, req: IncomingMessage, res: ServerResponse) {
  const nonce = newNonce();
  const fresh = Buffer.from(nonce);
  const gzip = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
  let body: Buffer;
  if (gzip) {
    const pieces: Buffer[] = [GZIP_HEADER];
    let crc = 0;
    entry.parts.forEach((part, i) => {
      if (i > 0) {
        pieces.push(storedBlock(fresh));
        crc = zlib.crc32(fresh, crc);
      }
      pieces.push(entry.deflated[i]);
      crc = zlib.crc32(part, crc);
    });
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc >>> 0, 0);
    trailer.writeUInt32LE(entry.length >>> 0, 4);
    pieces.push(trailer);
    body = Buffer.concat(pieces);
  } else {
    const pieces: Buffer[] = [];
    entry.parts.forEach((part, i) => {
      if (i > 0) pieces.push(fresh);
      pieces.push(part);
    });
    body = Buffer.concat(pieces);
  }
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of entry.headers) {
    const v = value.replaceAll(entry.nonce, nonce);
    const had = headers[name];
    headers[name] = had === undefined ? v : [...(Array.isArray(had) ? had : [String(had)]), v];
  }
  if (gzip) headers["content-encoding"] = "gzip";
  const vary = headers["vary"] ? String(headers["vary"]) : "";
  if (!/accept-encoding/i.test(vary)) headers["vary"] = vary ? `${vary}, Accept-Encoding` : "Accept-Encoding";
  headers["content-length"] = body.length;
  headers[CACHE_HEADER] = "hit";
  res.writeHead(entry.status, headers);
  res.end(body);
}

export type PageCache = {
  /** Serves the request from the cache (rendering it once if needed), or calls `next` (Next's handler). */
  handle(req: IncomingMessage, res: ServerResponse, next: () => void): void;
  readonly size: number;
};

export function createPageCache(options: PageCacheOptions): PageCache {
  const max = options.maxEntries ?? 64;
  const retryAfter = options.retryAfterMs ?? 60_000;
  // A secret of this server's: the cache's own render request is recognised by it (and goes to Next).
  const marker = options.marker || randomBytes(16).toString("hex");
  const slots = new Map<string, Slot>();
  const filling = new Map<string, Promise<Slot>>();

  const remember = (key: string, slot: Slot) => {
    slots.delete(key);
    slots.set(key, slot);
    while (slots.size > max) slots.delete(slots.keys().next().value!);
  };

  /**
   * Renders the page through this very server with nothing of the visitor's: only the URL, the
   * language (as Accept-Language) and the public host; no cookie at all.
   */
  const render = (url: string, locale: Locale): Promise<Slot> =>
    new Promise((resolve) => {
      const failed = (): void => resolve({ uncacheable: Date.now() + retryAfter });
      const req = http.get(
        `${options.origin()}${url}`,
        { headers: { accept: "text/html", "accept-language": locale, host: options.host, [MARKER_HEADER]: marker } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("error", failed);
          res.on("end", () => {
            const body = Buffer.concat(chunks);
            const entry = options.buildId && !body.includes(options.buildId) ? null : toEntry(res.statusCode ?? 0, res.headers, body);
            resolve(entry ? { entry } : { uncacheable: Date.now() + retryAfter });
          });
        },
      );
      req.on("error", failed);
    });

  return {
    get size() {
      return slots.size;
    },
    handle(req, res, next) {
      const found = cacheKeyOf(req, marker);
      if (!found) return next();
      const slot = slots.get(found.key);
      if (slot && "entry" in slot) {
        remember(found.key, slot);
        return send(slot.entry, req, res);
      }
      if (slot && slot.uncacheable > Date.now()) return next();
      let pending = filling.get(found.key);
      if (!pending) {
        pending = render(found.url, found.locale).then((s) => {
          filling.delete(found.key);
          remember(found.key, s);
          return s;
        });
        filling.set(found.key, pending);
      }
      void pending.then((s) => ("entry" in s ? send(s.entry, req, res) : next()));
    },
  };
}
