/**
 * The signed-in pages kept on this device (docs/adr/0178): a navigation is answered at once from the
 * device when this browser has shown that page before, and refreshed from the network behind it; the page
 * then asks the worker what the refresh found (fresh content, no network, another account) and follows.
 *
 * What is kept belongs to one account: the server names it on every page it renders for a device request
 * (proxy.ts, `x-krug-account`, a keyed hash of the account id after the session was checked against the
 * database). A page of another account, or a page with no account at all (signed out, a revoked session's
 * /login), wipes everything first (wipe.ts). Serwist routes the navigation here (sw.ts); its own
 * StaleWhileRevalidate cannot wipe on the answer's account nor tell the page what the refresh found.
 */
import { DEVICE_CACHE_PREFIX, wipeDeviceData } from "./wipe";

/** Set by the server on pages rendered for a confirmed session: whose page it is. */
export const ACCOUNT_HEADER = "x-krug-account";
/** Set by the worker on its navigation fetches: the server then checks the session against the database. */
export const DEVICE_REQUEST_HEADER = "x-krug-device";
/** A kept page older than this is not shown: the network's answer (or the offline page) is. */
export const DEVICE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** At most this many pages are kept; the oldest stored goes first. */
export const DEVICE_MAX_PAGES = 40;

const STORED_AT_HEADER = "x-krug-stored-at";
const ACCOUNT_KEY = "/__krug-device/account";

/** What the page learns about its own navigation: `network` when it was not answered from the device. */
export type DeviceOutcome = "network" | "fresh" | "offline" | "wiped";

type Answer = { type: ResponseType; status: number; headers: Headers };

/**
 * What a network answer to a navigation means for what the device keeps: a server error says nothing, nor
 * does a redirect of a page that is not kept (its target's answer will); a kept page that now redirects
 * (a revoked session's page goes to /login, and the browser never sees where while the kept page is shown)
 * wipes; an HTML page without an account wipes; one of another account than the kept one wipes and is
 * kept; a page of the kept account is kept.
 */
export function verdictOf(answer: Answer, kept: string | null, pageKept = false): { wipe: boolean; store: boolean } {
  if (answer.type === "opaqueredirect" || (answer.status >= 300 && answer.status < 400)) return { wipe: pageKept, store: false };
  if (answer.status >= 500) return { wipe: false, store: false };
  const account = answer.headers.get(ACCOUNT_HEADER);
  const html = (answer.headers.get("content-type") ?? "").startsWith("text/html");
  if (!account) return { wipe: html, store: false };
  return { wipe: kept !== null && kept !== account, store: answer.status === 200 && html };
}

/** Whether a kept page may still be shown at `now`. */
export function isServable(kept: Response, now: number): boolean {
  const at = Number(kept.headers.get(STORED_AT_HEADER));
  return Number.isFinite(at) && at > 0 && now - at >= 0 && now - at < DEVICE_MAX_AGE_MS;
}

/** A script of the page's head that the browser runs as soon as it has it, wherever the parser is. */
const HEAD_ASYNC_SCRIPT = /<script\b(?=[^>]*\bsrc=")(?=[^>]*\basync\b)[^>]*><\/script>/g;

/**
 * A kept page as it is stored: the async scripts of its head moved to the end of its body. The server's
 * page names them in its head, so that a page streamed over a slow network fetches them early. A kept page
 * arrives at once, and its scripts from the precache just as fast: in the head, Chrome ran them (0.5 s of
 * compiling at CPU ×4) before parsing the body, and the page painted nothing meanwhile (docs/adr/0185). At
 * the end they run once the body is parsed, so the kept content paints first. An async script is run in no
 * particular order anyway, and the framework's bootstrap reads the page's data from the inline scripts
 * whenever it starts; the preload scanner still fetches them as early as before. A page without a head or a
 * body is kept as it came.
 */
export function scriptsAfterContent(html: string): string {
  const headEnd = html.indexOf("</head>");
  const bodyEnd = html.lastIndexOf("</body>");
  if (headEnd < 0 || bodyEnd < headEnd) return html;
  const moved: string[] = [];
  const head = html.slice(0, headEnd).replace(HEAD_ASYNC_SCRIPT, (tag) => {
    moved.push(tag);
    return "";
  });
  if (moved.length === 0) return html;
  return head + html.slice(headEnd, bodyEnd) + moved.join("") + html.slice(bodyEnd);
}

/** The cache key of a page: its address without the fragment. */
export function pageKey(url: string): string {
  const u = new URL(url);
  u.hash = "";
  return u.href;
}

/** The worker's fetch of a navigation: the same page, marked as the device's, redirects handed to the browser. */
export function deviceRequest(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.set(DEVICE_REQUEST_HEADER, "1");
  return new Request(request.url, { method: "GET", headers, credentials: "same-origin", redirect: "manual", referrer: request.referrer || "about:client" });
}

type Scope = Pick<ServiceWorkerGlobalScope, "caches" | "location" | "addEventListener"> & { indexedDB?: IDBFactory };

export function createDevicePages(scope: Scope, build: string, offlineResponse: (request: Request) => Promise<Response>) {
  const cacheName = `${DEVICE_CACHE_PREFIX}${build}`;
  const accountKey = new URL(ACCOUNT_KEY, scope.location.origin).href;
  // Bumped by every wipe: a refresh that started before one never stores what it fetched.
  let epoch = 0;
  // What each page answered from the device will learn from its refresh, by the page's client id.
  const outcomes = new Map<string, Promise<DeviceOutcome>>();

  /** `all`: the share waiting on the device goes too (a sign-out); otherwise it stays (wipe.ts). */
  async function wipe(all = false): Promise<void> {
    epoch++;
    await wipeDeviceData(scope as Parameters<typeof wipeDeviceData>[0], { keepShare: !all });
  }

  async function store(key: string, response: Response, account: string, since: number): Promise<void> {
    const headers = new Headers(response.headers);
    headers.set(STORED_AT_HEADER, String(Date.now()));
    // Kept pages are matched by address alone.
    headers.delete("vary");
    const body = scriptsAfterContent(await response.text());
    headers.delete("content-length");
    if (epoch !== since) return;
    const cache = await scope.caches.open(cacheName);
    await cache.put(accountKey, new Response(account, { headers: { [STORED_AT_HEADER]: String(Date.now()) } }));
    await cache.put(key, new Response(body, { status: response.status, statusText: response.statusText, headers }));
    const pages = (await cache.keys()).filter((r) => r.url !== accountKey);
    for (const old of pages.slice(0, Math.max(0, pages.length - DEVICE_MAX_PAGES))) await cache.delete(old);
  }

  /** The network's answer to a navigation, and what it did to what is kept. */
  async function refresh(request: Request, pageKept: boolean): Promise<{ response: Response | null; outcome: DeviceOutcome }> {
    let since = epoch;
    let response: Response;
    try {
      response = await fetch(deviceRequest(request));
    } catch {
      return { response: null, outcome: "offline" };
    }
    // Read through CacheStorage: opening the cache would make an empty one again after a wipe.
    const kept = (await (await scope.caches.match(accountKey, { cacheName }))?.text()) ?? null;
    const verdict = verdictOf(response, kept, pageKept);
    if (verdict.wipe) {
      await wipe();
      since = epoch;
    }
    if (verdict.store) await store(pageKey(request.url), response.clone(), response.headers.get(ACCOUNT_HEADER)!, since).catch(() => {});
    const outcome: DeviceOutcome = verdict.wipe ? "wiped" : response.status >= 500 ? "offline" : "fresh";
    return { response, outcome };
  }

  /** Serwist's route handler for navigations: the kept page at once and a refresh behind it, else the network. */
  async function handle({ request, event }: { request: Request; event: ExtendableEvent }): Promise<Response> {
    const key = pageKey(request.url);
    const kept = await scope.caches.match(key, { cacheName, ignoreVary: true });
    if (kept && isServable(kept, Date.now())) {
      const outcome = refresh(request, true).then((r) => r.outcome);
      event.waitUntil(outcome);
      remember((event as FetchEvent).resultingClientId, outcome);
      return kept;
    }
    if (kept) await (await scope.caches.open(cacheName)).delete(key);
    const { response } = await refresh(request, false);
    return response ?? offlineResponse(request);
  }

  function remember(clientId: string | undefined, outcome: Promise<DeviceOutcome>): void {
    if (!clientId) return;
    outcomes.set(clientId, outcome);
    // Only pages that ask are answered; a page that never asks must not keep the entry for ever.
    for (const old of [...outcomes.keys()].slice(0, Math.max(0, outcomes.size - 20))) outcomes.delete(old);
  }

  /** A page asks how its navigation went (`krug-device-status`), or asks for a wipe (`krug-device-wipe`). */
  async function onMessage(event: ExtendableMessageEvent): Promise<void> {
    const data = event.data as { type?: unknown } | null;
    const port = event.ports[0];
    if (data?.type === "krug-device-status") {
      const id = (event.source as Client | null)?.id;
      const outcome = (id && outcomes.get(id)) || Promise.resolve<DeviceOutcome>("network");
      if (id) outcomes.delete(id);
      port?.postMessage({ type: "krug-device-status", outcome: await outcome });
    } else if (data?.type === "krug-device-wipe") {
      await wipe();
      port?.postMessage({ type: "krug-device-wipe", done: true });
    }
  }

  /** A new build's worker drops the pages kept by the previous one: they name scripts that are gone. */
  async function dropOtherBuilds(): Promise<void> {
    for (const name of await scope.caches.keys()) {
      if (name.startsWith(DEVICE_CACHE_PREFIX) && name !== cacheName) await scope.caches.delete(name);
    }
  }

  function register(): void {
    scope.addEventListener("message", (event) => (event as ExtendableMessageEvent).waitUntil(onMessage(event as ExtendableMessageEvent)));
    scope.addEventListener("activate", (event) => (event as ExtendableEvent).waitUntil(dropOtherBuilds()));
  }

  return { cacheName, handle, wipe, register };
}
