import "server-only";
import { env } from "@/lib/server/env";

/** The paths Fedify answers (docs/adr/0172); the page paths among them only for an ActivityPub reader. */
const FEDERATION_ONLY = /^\/(?:\.well-known\/(?:webfinger|nodeinfo)|nodeinfo\/2\.1|inbox|profile\/[1-9][0-9]{0,15}\/(?:inbox|outbox))$/;
const PAGES = /^\/(?:profile\/[1-9][0-9]{0,15}|post\/[1-9][0-9]{0,15}|@[A-Za-z0-9_]{3,32})$/;
const ACTIVITY_JSON = /application\/(?:activity\+json|ld\+json)/i;

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
export async function federationResponse(request: Request, actorPath?: string): Promise<Response | null> {
  let passed = false;
  const ownPath = FEDERATION_ONLY.test(new URL(request.url).pathname);
  const pass = () => {
    passed = !ownPath;
    return new Response("Not Found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  };
  // Behind a TLS-terminating proxy the request reaches us as http://127.0.0.1:…; signatures cover the
  // public URL, so Fedify is handed the request as the peer sent it: PUBLIC_URL's origin.
  const url = new URL(request.url);
  const target = new Request(new URL(`${actorPath ?? url.pathname}${url.search}`, `${env().PUBLIC_URL}/`), request);
  // Fedify loads on the first request of the fediverse's, not with every page's proxy.
  const { getFederation } = await import("./federation");
  const response = await getFederation().fetch(target, { contextData: undefined, onNotFound: pass, onNotAcceptable: pass });
  return passed ? null : response;
}
