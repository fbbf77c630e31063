"use client";

import { useSyncExternalStore } from "react";

// One clock for every relative time on screen (the chat, the notifications), ticking while anything
// shows one.
const TICK_MS = 30_000;
let clockNow = 0;
let clockTimer: number | null = null;
const clockListeners = new Set<() => void>();

function subscribeClock(listener: () => void) {
  clockListeners.add(listener);
  if (clockTimer === null) {
    // React reads the snapshot again right after subscribing, so the first "now" shows at once.
    clockNow = Date.now();
    clockTimer = window.setInterval(() => {
      clockNow = Date.now();
      for (const l of [...clockListeners]) l();
    }, TICK_MS);
  }
  return () => {
    clockListeners.delete(listener);
    if (clockListeners.size === 0 && clockTimer !== null) {
      window.clearInterval(clockTimer);
      clockTimer = null;
    }
  };
}

/**
 * "Now", moving every 30 s. On the server and in hydration it is `renderedAt`: the moment the server
 * rendered the page, handed down as a prop so both sides format the same text (a relative time made
 * from two different "now"s is a hydration error, React #418); 0 when the caller has none (nothing
 * relative renders then). After hydration it is the browser's own clock.
 */
export function useNow(renderedAt = 0): number {
  return useSyncExternalStore(
    subscribeClock,
    // A render after hydration (a list fetched in the browser) starts the clock's value at once.
    () => clockNow || (clockNow = Date.now()),
    () => renderedAt,
  );
}
