/// <reference lib="webworker" />
// The service worker (docs/adr/0119, 0178), bundled by lib/pwa/build-service-worker.ts into <distDir>/sw.js and
// served at /sw.js (app/sw.js/route.ts).
import { Serwist, type PrecacheEntry } from "serwist";
import { createDevicePages } from "./device";
import { registerEventHandlers } from "./events";
import { offlinePageHtml, readerLocale } from "./offline-page";

declare const self: ServiceWorkerGlobalScope & { __SW_MANIFEST: (PrecacheEntry | string)[]; __KRUG_BUILD: string };

/** The requests that start or end a session: whatever the device keeps is wiped before they leave. */
const SESSION_PATHS = new Set(["/api/v1/auth/login", "/api/v1/auth/register", "/api/v1/auth/logout"]);

const offlineResponse = async (request: Request) =>
  new Response(offlinePageHtml(await readerLocale(self), request.url), {
    status: 503,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; frame-ancestors 'none'",
    },
  });

// The signed-in person's pages kept on this device, one build's worth (device.ts).
const device = createDevicePages(self, self.__KRUG_BUILD, offlineResponse);

const serwist = new Serwist({
  // The build's static files (/_next/static: scripts, styles, fonts), listed by the build.
  precacheEntries: self.__SW_MANIFEST,
  precacheOptions: { cleanupOutdatedCaches: true },
  // A new worker activates as soon as it is installed but claims no open page and reloads none: a page
  // keeps what it loaded, a form keeps its text, and the next navigation is the new build's.
  skipWaiting: true,
  clientsClaim: false,
  navigationPreload: false,
  runtimeCaching: [
    {
      // A page this browser has shown is answered from the device at once and refreshed behind it; any
      // other goes to the network and is kept when the server says whose it is. Without network and
      // nothing kept, the reader gets the offline page, in their language.
      matcher: ({ request }) => request.mode === "navigate",
      handler: device.handle,
    },
    {
      // Signing in, signing up or out: nothing of the previous account may outlive it.
      matcher: ({ url }) => url.origin === self.location.origin && SESSION_PATHS.has(url.pathname),
      method: "POST",
      handler: async ({ request }) => {
        await device.wipe(new URL(request.url).pathname === "/api/v1/auth/logout");
        return fetch(request);
      },
    },
  ],
  // Everything else (the API, uploads, realtime) has no route here: the browser fetches it as if there
  // were no worker.
});

serwist.addEventListeners();
device.register();
registerEventHandlers(self);
