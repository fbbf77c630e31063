/// <reference lib="webworker" />
// The service worker (docs/adr/0119), bundled by lib/pwa/build-service-worker.ts into <distDir>/sw.js and
// served at /sw.js (app/sw.js/route.ts).
import { NetworkOnly, Serwist, type PrecacheEntry } from "serwist";
import { registerEventHandlers } from "./events";
import { offlinePageHtml, readerLocale } from "./offline-page";

declare const self: ServiceWorkerGlobalScope & { __SW_MANIFEST: (PrecacheEntry | string)[] };

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
      // A navigation always goes to the network and nothing of it is stored: pages are the account's.
      // Only when the network fails does the reader get the offline page, in their language.
      matcher: ({ request }) => request.mode === "navigate",
      handler: new NetworkOnly({
        plugins: [
          {
            handlerDidError: async ({ request }) =>
              new Response(offlinePageHtml(await readerLocale(self), request.url), {
                status: 503,
                headers: {
                  "content-type": "text/html; charset=utf-8",
                  "cache-control": "no-store",
                  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; frame-ancestors 'none'",
                },
              }),
          },
        ],
      }),
    },
  ],
  // Everything else (the API, uploads, realtime) has no route here: the browser fetches it as if there
  // were no worker.
});

serwist.addEventListeners();
registerEventHandlers(self);
