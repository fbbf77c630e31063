import "server-only";
import { env } from "@/lib/server/env";
import { RateLimitedError, ServiceError } from "@/lib/server/http/errors";
import { consumeLimit } from "@/lib/server/http/rate-limit";
import { clientIp, readLimited } from "@/lib/server/http/request";
import type { KrugFederation } from "./federation";

/** The paths Fedify answers (docs/adr/0172); the page paths among them only for an ActivityPub reader. */
const FEDERATION_ONLY = /^\/(?:\.well-known\/(?:webfinger|nodeinfo)|nodeinfo\/2\.1|inbox|profile\/[1-9][0-9]{0,15}\/(?:inbox|outbox|followers|following))$/;
const PAGES = /^\/(?:profile\/[1-9][0-9]{0,15}|post\/[1-9][0-9]{0,15}(?:\/comments\/[1-9][0-9]{0,15})?|@[A-Za-z0-9_]{3,32})$/;
/** A reply's URI (`/post/{id}/comments/{commentId}`): its Note to the fediverse, the comment under its post to a browser. */
export const COMMENT_PATH = /^\/post\/([1-9][0-9]{0,15})\/comments\/([1-9][0-9]{0,15})$/;
const ACTIVITY_JSON = /application\/(?:activity\+json|ld\+json)/i;

/**
 * What an inbox reads of a POST before anything parses it: the usual activities are a few KB, a Note
 * with a long text some tens; past 256 KiB, 413. JSON nested deeper than 64 levels (no activity is) is
 * refused too, before JSON.parse and the JSON-LD expansion could spend a worker's time on it.
 */
export const INBOX_MAX_BYTES = 256 * 1024;
export const INBOX_MAX_DEPTH = 64;

/** How deep a JSON text nests its arrays and objects, stopping as soon as it passes `max` (strings skipped). */
export function jsonDepthOver(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next byte
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

function refusal(status: number, error: string, headers?: Record<string, string>): Response {
  return Response.json({ error }, { status, headers });
}

/**
 * Who posts to an inbox, for its rate limit: the host of the key its signature names (draft-cavage's
 * `Signature: keyId="…"`, the common form, or RFC 9421's `Signature-Input: …;keyid="…"`), so that one
 * server counts as one whatever addresses it sends from; an unsigned request counts by its client address.
 */
export function inboxSenderOf(headers: Headers): string {
  const signed = /keyId="([^"]{1,2048})"/i.exec(headers.get("signature") ?? "") ?? /keyid="([^"]{1,2048})"/i.exec(headers.get("signature-input") ?? "");
  if (signed) {
    try {
      return `host:${new URL(signed[1]!).host.toLowerCase()}`;
    } catch {
      /* not a URL: counted by address below */
    }
  }
  return `ip:${clientIp(headers)}`;
}

/** Whether a request is the fediverse's: a federation path, or a page asked for as ActivityPub JSON. */
export function isFederationRequest(pathname: string, method: string, accept: string | null): boolean {
  if (FEDERATION_ONLY.test(pathname)) return true;
  return (method === "GET" || method === "HEAD") && PAGES.test(pathname) && ACTIVITY_JSON.test(accept ?? "");
}

/**
 * Fedify's answer to a federation request, or null when a page path has none (an unknown actor or object,
 * or a reader who wants HTML): the page then answers as for anyone else. A federation-only path keeps
 * Fedify's answer, a 404 among them. `/@name` is the actor of the short name.
 */
export async function federationResponse(request: Request, actorPath?: string, instance?: KrugFederation): Promise<Response | null> {
  let passed = false;
  const ownPath = FEDERATION_ONLY.test(new URL(request.url).pathname);
  const pass = () => {
    passed = !ownPath;
    return new Response("Not Found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  };
  // Behind a TLS-terminating proxy the request reaches us as http://127.0.0.1:…; signatures cover the
  // public URL, so Fedify is handed the request as the peer sent it: PUBLIC_URL's origin.
  const url = new URL(request.url);
  let body: Uint8Array | undefined;
  if (request.method === "POST") {
    const sender = inboxSenderOf(request.headers);
    try {
      await consumeLimit("federationInbox", sender);
    } catch (err) {
      if (err instanceof RateLimitedError) return refusal(429, "Too many activities from this server, try again later", err.headers);
      throw err;
    }
    // A server the administrators blocked is refused before anything reads its body (docs/adr/0174).
    if (sender.startsWith("host:")) {
      const { isServerBlocked } = await import("./blocked");
      const { getDb } = await import("@/db/client");
      if (await isServerBlocked(instance?.db ?? getDb(), sender.slice(5))) return refusal(403, "This server is blocked here");
    }
    try {
      body = await readLimited(request, INBOX_MAX_BYTES);
    } catch (err) {
      if (err instanceof ServiceError) return refusal(413, `Body larger than ${INBOX_MAX_BYTES} bytes`);
      return refusal(400, "The body could not be read");
    }
    if (jsonDepthOver(body, INBOX_MAX_DEPTH)) return refusal(400, `JSON nested deeper than ${INBOX_MAX_DEPTH} levels`);
  }
  const target = new Request(new URL(`${actorPath ?? url.pathname}${url.search}`, `${instance?.origin ?? env().PUBLIC_URL}/`), {
    method: request.method,
    headers: request.headers,
    body: body as BodyInit | undefined,
  });
  // Fedify loads on the first request of the fediverse's, not with every page's proxy.
  const { getFederation, commentNoteDocument } = await import("./federation");
  const krug = instance ?? getFederation();
  const { federation, db } = krug;
  const comment = request.method !== "POST" ? COMMENT_PATH.exec(url.pathname) : null;
  if (comment) {
    return (await commentNoteDocument(krug, comment[1]!, comment[2]!)) ?? new Response("Not Found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  const response = await federation.fetch(target, { contextData: { db }, onNotFound: pass, onNotAcceptable: pass });
  return passed ? null : response;
}
