import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ACCOUNT_HEADER, createDevicePages, DEVICE_MAX_AGE_MS, DEVICE_MAX_PAGES, DEVICE_REQUEST_HEADER, deviceRequest, isServable, pageKey, scriptsAfterContent, verdictOf, type DeviceOutcome } from "@/lib/pwa/worker/device";
import { wipeDeviceData } from "@/lib/pwa/worker/wipe";

// The pages kept on the device (docs/adr/0178): the worker's navigation handler, its wipe and its answers
// to the page, run in Node against an in-memory Cache Storage and IndexedDB list.

const ORIGIN = "https://krug.test";

/** Cache Storage in memory: responses by URL, in the order they were put (a put again moves to the end). */
class MemoryCache {
  entries = new Map<string, Response>();
  async match(key: RequestInfo | URL) {
    const r = this.entries.get(String(key instanceof Request ? key.url : key));
    return r?.clone();
  }
  async put(key: RequestInfo | URL, response: Response) {
    const url = String(key instanceof Request ? key.url : key);
    this.entries.delete(url);
    this.entries.set(url, response);
  }
  async delete(key: RequestInfo | URL) {
    return this.entries.delete(String(key instanceof Request ? key.url : key));
  }
  async keys() {
    return [...this.entries.keys()].map((u) => new Request(u));
  }
}

class MemoryCaches {
  byName = new Map<string, MemoryCache>();
  async open(name: string) {
    if (!this.byName.has(name)) this.byName.set(name, new MemoryCache());
    return this.byName.get(name)! as unknown as Cache;
  }
  async keys() {
    return [...this.byName.keys()];
  }
  async delete(name: string) {
    return this.byName.delete(name);
  }
  async has(name: string) {
    return this.byName.has(name);
  }
  async match(key: RequestInfo | URL, options: { cacheName?: string } = {}) {
    const names = options.cacheName ? [options.cacheName] : [...this.byName.keys()];
    for (const name of names) {
      const found = await this.byName.get(name)?.match(key);
      if (found) return found;
    }
    return undefined;
  }
}

/** IndexedDB's factory as far as the wipe uses it: a list of names, deleted asynchronously. */
class MemoryDatabases {
  names = new Set<string>();
  async databases() {
    return [...this.names].map((name) => ({ name, version: 1 }));
  }
  deleteDatabase(name: string) {
    const request = {} as IDBOpenDBRequest;
    setTimeout(() => {
      this.names.delete(name);
      request.onsuccess?.call(request, new Event("success"));
    }, 0);
    return request;
  }
}

type Listener = (event: unknown) => void;

function scopeOf() {
  const caches = new MemoryCaches();
  const indexedDB = new MemoryDatabases();
  const listeners = new Map<string, Listener[]>();
  const scope = {
    caches: caches as unknown as CacheStorage,
    indexedDB: indexedDB as unknown as IDBFactory,
    location: new URL(ORIGIN) as unknown as WorkerLocation,
    addEventListener: (type: string, fn: Listener) => listeners.set(type, [...(listeners.get(type) ?? []), fn]),
  };
  return { scope, caches, indexedDB, listeners };
}

const page = (account: string | null, body: string, init: { status?: number; type?: "html" | "json" } = {}) =>
  new Response(body, {
    status: init.status ?? 200,
    headers: {
      "content-type": init.type === "json" ? "application/json" : "text/html; charset=utf-8",
      "content-security-policy": "script-src 'nonce-abc'",
      vary: "rsc",
      ...(account ? { [ACCOUNT_HEADER]: account } : {}),
    },
  });

/** A navigation's fetch event: what it waits on is collected, so a test can wait for the refresh. */
function navigation(path: string, clientId = "client-1") {
  const pending: Promise<unknown>[] = [];
  const request = new Request(`${ORIGIN}${path}`, { headers: { accept: "text/html" } });
  const event = { resultingClientId: clientId, waitUntil: (p: Promise<unknown>) => pending.push(p) } as unknown as ExtendableEvent;
  return { request, event, settled: () => Promise.all(pending) };
}

const offline = async () => new Response("offline page", { status: 503 });
const realFetch = globalThis.fetch;
let network: (request: Request) => Promise<Response>;
let seen: Request[];

beforeEach(() => {
  seen = [];
  globalThis.fetch = (async (input: RequestInfo | URL) => {
    const request = input as Request;
    seen.push(request);
    return network(request);
  }) as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** Asks the worker, as the page does, how the navigation of `clientId` went. */
async function askStatus(listeners: Map<string, Listener[]>, clientId: string): Promise<DeviceOutcome> {
  const answers: unknown[] = [];
  const pending: Promise<unknown>[] = [];
  const port = { postMessage: (m: unknown) => answers.push(m) };
  for (const fn of listeners.get("message") ?? []) {
    fn({ data: { type: "krug-device-status" }, ports: [port], source: { id: clientId }, waitUntil: (p: Promise<unknown>) => pending.push(p) });
  }
  await Promise.all(pending);
  return (answers[0] as { outcome: DeviceOutcome }).outcome;
}

describe("what a network answer does to what the device keeps", () => {
  const answer = (status: number, headers: Record<string, string>, type: ResponseType = "basic") => ({ status, type, headers: new Headers(headers) });
  const html = { "content-type": "text/html; charset=utf-8" };

  it("keeps the kept account's pages, wipes on another account or on a page with none", () => {
    expect(verdictOf(answer(200, { ...html, [ACCOUNT_HEADER]: "a" }), null)).toEqual({ wipe: false, store: true });
    expect(verdictOf(answer(200, { ...html, [ACCOUNT_HEADER]: "a" }), "a")).toEqual({ wipe: false, store: true });
    expect(verdictOf(answer(200, { ...html, [ACCOUNT_HEADER]: "b" }), "a")).toEqual({ wipe: true, store: true });
    expect(verdictOf(answer(200, html), "a")).toEqual({ wipe: true, store: false });
    expect(verdictOf(answer(404, html), null)).toEqual({ wipe: true, store: false });
  });

  it("keeps no error page and learns nothing from a redirect, a server error or a file", () => {
    expect(verdictOf(answer(404, { ...html, [ACCOUNT_HEADER]: "a" }), "a")).toEqual({ wipe: false, store: false });
    expect(verdictOf(answer(0, {}, "opaqueredirect"), "a")).toEqual({ wipe: false, store: false });
    // A kept page that now redirects: a revoked session's page sends to /login.
    expect(verdictOf(answer(0, {}, "opaqueredirect"), "a", true)).toEqual({ wipe: true, store: false });
    expect(verdictOf(answer(307, { location: "/login" }), "a")).toEqual({ wipe: false, store: false });
    expect(verdictOf(answer(502, html), "a")).toEqual({ wipe: false, store: false });
    expect(verdictOf(answer(200, { "content-type": "image/png" }), "a")).toEqual({ wipe: false, store: false });
  });

  it("shows a kept page for seven days, not longer", () => {
    const at = (t: number) => new Response("", { headers: { "x-krug-stored-at": String(t) } });
    const now = 1_000_000_000_000;
    expect(isServable(at(now - 1000), now)).toBe(true);
    expect(isServable(at(now - DEVICE_MAX_AGE_MS + 1), now)).toBe(true);
    expect(isServable(at(now - DEVICE_MAX_AGE_MS), now)).toBe(false);
    expect(isServable(at(now + 60_000), now)).toBe(false);
    expect(isServable(new Response(""), now)).toBe(false);
  });

  it("keys a page by its address without the fragment and fetches it marked as the device's", () => {
    expect(pageKey(`${ORIGIN}/im/5?x=1#m9`)).toBe(`${ORIGIN}/im/5?x=1`);
    const r = deviceRequest(new Request(`${ORIGIN}/profile`, { headers: { accept: "text/html" } }));
    expect(r.headers.get(DEVICE_REQUEST_HEADER)).toBe("1");
    expect(r.headers.get("accept")).toBe("text/html");
    expect(r.redirect).toBe("manual");
    expect(r.credentials).toBe("same-origin");
  });
});

describe("the navigation handler", () => {
  it("keeps a page of the account, then answers it from the device and refreshes it behind", async () => {
    const { scope, caches, listeners } = scopeOf();
    const device = createDevicePages(scope, "b1", offline);
    device.register();
    network = async () => page("acct-a", "feed v1");
    const first = navigation("/", "c1");
    expect(await (await device.handle(first)).text()).toBe("feed v1");
    expect(seen[0]!.headers.get(DEVICE_REQUEST_HEADER)).toBe("1");
    // Not answered from the device: the page has nothing to follow.
    expect(await askStatus(listeners, "c1")).toBe("network");

    network = async () => page("acct-a", "feed v2");
    const second = navigation("/", "c2");
    const shown = await device.handle(second);
    expect(await shown.text()).toBe("feed v1");
    // The kept answer carries its own headers (its CSP's nonce is the one in its HTML), without Vary.
    expect(shown.headers.get("content-security-policy")).toBe("script-src 'nonce-abc'");
    expect(shown.headers.get("vary")).toBeNull();
    expect(await askStatus(listeners, "c2")).toBe("fresh");
    await second.settled();
    const cache = caches.byName.get("krug-device-b1")!;
    expect(await (await cache.match(`${ORIGIN}/`))!.text()).toBe("feed v2");
  });

  it("answers the kept page without network and tells the page it is offline; the offline page when nothing is kept", async () => {
    const { scope, listeners } = scopeOf();
    const device = createDevicePages(scope, "b1", offline);
    device.register();
    network = async () => page("acct-a", "dialogs");
    await device.handle(navigation("/im"));
    network = async () => {
      throw new TypeError("Failed to fetch");
    };
    const again = navigation("/im", "c3");
    expect(await (await device.handle(again)).text()).toBe("dialogs");
    expect(await askStatus(listeners, "c3")).toBe("offline");
    const never = await device.handle(navigation("/friends", "c4"));
    expect(never.status).toBe(503);
    expect(await never.text()).toBe("offline page");
  });

  it("wipes every kept page and every krug- database when a page comes without an account", async () => {
    const { scope, caches, indexedDB, listeners } = scopeOf();
    indexedDB.names.add("krug-outbox");
    indexedDB.names.add("other-app");
    await caches.open("serwist-precache-v2");
    const device = createDevicePages(scope, "b1", offline);
    device.register();
    network = async () => page("acct-a", "profile");
    await device.handle(navigation("/profile"));
    // The session was revoked: the server sends the login page (no account) after the redirect.
    network = async () => page(null, "login");
    const revoked = navigation("/profile", "c5");
    expect(await (await device.handle(revoked)).text()).toBe("profile");
    expect(await askStatus(listeners, "c5")).toBe("wiped");
    expect(await caches.keys()).toEqual(["serwist-precache-v2"]);
    expect([...indexedDB.names]).toEqual(["other-app"]);
    // Nothing is answered from the device any more, and asking makes no empty cache again.
    network = async () => {
      throw new TypeError("Failed to fetch");
    };
    expect((await device.handle(navigation("/profile", "c6"))).status).toBe(503);
    expect(await caches.keys()).toEqual(["serwist-precache-v2"]);
  });

  it("keeps only the new account's pages when another person signs in on the same browser", async () => {
    const { scope, caches } = scopeOf();
    const device = createDevicePages(scope, "b1", offline);
    network = async () => page("acct-a", "a's dialogs");
    await device.handle(navigation("/im"));
    network = async () => page("acct-b", "b's feed");
    await device.handle(navigation("/"));
    const cache = caches.byName.get("krug-device-b1")!;
    const kept = [...cache.entries.keys()].filter((u) => !u.includes("__krug-device"));
    expect(kept).toEqual([`${ORIGIN}/`]);
    expect(await (await cache.match(`${ORIGIN}/__krug-device/account`))!.text()).toBe("acct-b");
  });

  it("stores nothing a wipe overtook, shows no page past its age, and keeps at most the newest pages", async () => {
    const { scope, caches } = scopeOf();
    const device = createDevicePages(scope, "b1", offline);
    let release: () => void = () => {};
    network = () => new Promise((resolve) => (release = () => resolve(page("acct-a", "late"))));
    const slow = device.handle(navigation("/im/3"));
    await new Promise((r) => setTimeout(r, 0));
    await device.wipe(); // a sign-out while the page was on its way
    release();
    await slow;
    expect(caches.byName.get("krug-device-b1")?.entries.has(`${ORIGIN}/im/3`) ?? false).toBe(false);

    network = async (r) => page("acct-a", new URL(r.url).pathname);
    for (let i = 0; i <= DEVICE_MAX_PAGES; i++) await device.handle(navigation(`/im/${i}`));
    const cache = caches.byName.get("krug-device-b1")!;
    const kept = [...cache.entries.keys()].filter((u) => !u.includes("__krug-device"));
    expect(kept).toHaveLength(DEVICE_MAX_PAGES);
    expect(kept).not.toContain(`${ORIGIN}/im/0`);

    // A page stored eight days ago is not shown: the network's answer is.
    const old = new Headers({ "content-type": "text/html", "x-krug-stored-at": String(Date.now() - 8 * 24 * 3600 * 1000) });
    await cache.put(`${ORIGIN}/friends`, new Response("old friends", { headers: old }));
    network = async () => page("acct-a", "new friends");
    expect(await (await device.handle(navigation("/friends"))).text()).toBe("new friends");
  });

  it("drops the pages of other builds when it activates, keeping the precache", async () => {
    const { scope, caches, listeners } = scopeOf();
    await caches.open("krug-device-old");
    await caches.open("serwist-precache-v2");
    const device = createDevicePages(scope, "new", offline);
    device.register();
    await caches.open(device.cacheName);
    const pending: Promise<unknown>[] = [];
    for (const fn of listeners.get("activate") ?? []) fn({ waitUntil: (p: Promise<unknown>) => pending.push(p) });
    await Promise.all(pending);
    expect((await caches.keys()).sort()).toEqual(["krug-device-new", "serwist-precache-v2"]);
  });
});

describe("a kept page's scripts run after its content (docs/adr/0185)", () => {
  const head =
    '<!DOCTYPE html><html lang="ru"><head><meta charSet="utf-8"/><link rel="stylesheet" href="/_next/static/chunks/a.css"/>' +
    '<script src="/_next/static/chunks/one.js" async="" nonce="n0"></script>' +
    '<script src="/_next/static/chunks/two.js" async nonce="n0"></script>' +
    '<script src="/_next/static/chunks/legacy.js" noModule="" nonce="n0"></script>' +
    '<script nonce="n0">document.documentElement.dataset.theme="dark"</script></head>';
  const body = '<body><main><p>Привет, Круг</p></main><script nonce="n0">(self.__next_f=self.__next_f||[]).push([0])</script>';

  it("moves the head's async scripts to the end of the body, in order, and leaves every other script where it was", () => {
    const out = scriptsAfterContent(`${head}${body}</body></html>`);
    expect(out).toBe(
      '<!DOCTYPE html><html lang="ru"><head><meta charSet="utf-8"/><link rel="stylesheet" href="/_next/static/chunks/a.css"/>' +
        '<script src="/_next/static/chunks/legacy.js" noModule="" nonce="n0"></script>' +
        '<script nonce="n0">document.documentElement.dataset.theme="dark"</script></head>' +
        body +
        '<script src="/_next/static/chunks/one.js" async="" nonce="n0"></script>' +
        '<script src="/_next/static/chunks/two.js" async nonce="n0"></script></body></html>',
    );
  });

  it("leaves a page alone that has no async script in its head, or no head or body", () => {
    const plain = `<html><head></head>${body}<script src="/x.js" async=""></script></body></html>`;
    expect(scriptsAfterContent(plain)).toBe(plain);
    expect(scriptsAfterContent(`${head}${body}`)).toBe(`${head}${body}`);
    expect(scriptsAfterContent("offline")).toBe("offline");
  });

  it("keeps the page rewritten and shows it so, while the network's own answer goes out as it came", async () => {
    const { scope, caches } = scopeOf();
    const device = createDevicePages(scope, "b1", offline);
    device.register();
    const html = `${head}${body}</body></html>`;
    network = async () => page("acct-a", html);
    const first = navigation("/", "c1");
    expect(await (await device.handle(first)).text()).toBe(html);
    await first.settled();
    const kept = await caches.byName.get("krug-device-b1")!.match(`${ORIGIN}/`);
    expect(await kept!.text()).toBe(scriptsAfterContent(html));
    const second = navigation("/", "c2");
    const shown = await (await device.handle(second)).text();
    expect(shown.indexOf("one.js")).toBeGreaterThan(shown.indexOf("Привет, Круг"));
    await second.settled();
  });
});

describe("wipeDeviceData", () => {
  it("deletes the krug-device- caches and the krug- databases, nothing else", async () => {
    const { scope, caches, indexedDB } = scopeOf();
    for (const name of ["krug-device-b1", "krug-device-b0", "serwist-precache-v2"]) await caches.open(name);
    indexedDB.names = new Set(["krug-outbox", "krug-drafts", "firebase-messaging"]);
    const deleted = await wipeDeviceData(scope);
    expect(deleted.sort()).toEqual(["krug-device-b0", "krug-device-b1", "krug-drafts", "krug-outbox"]);
    expect(await caches.keys()).toEqual(["serwist-precache-v2"]);
    expect([...indexedDB.names]).toEqual(["firebase-messaging"]);
  });

  it("keeps the share waiting on the device through every wipe but a sign-out's", async () => {
    const { scope, indexedDB } = scopeOf();
    indexedDB.names = new Set(["krug-outbox", "krug-share"]);
    expect(await wipeDeviceData(scope, { keepShare: true })).toEqual(["krug-outbox"]);
    expect([...indexedDB.names]).toEqual(["krug-share"]);
    expect(await wipeDeviceData(scope)).toEqual(["krug-share"]);
    expect([...indexedDB.names]).toEqual([]);
  });
});
