/**
 * The worker's own event handlers beside Serwist's (install, activate, fetch): the place for `push` and
 * `notificationclick` (issue 25 section 2). Each handler is added here and registered by
 * registerEventHandlers, which lib/pwa/worker/sw.ts calls once.
 */
export function registerEventHandlers(scope: ServiceWorkerGlobalScope): void {
  // Nothing yet: the push handlers come with Web Push delivery.
  void scope;
}
