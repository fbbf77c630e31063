"use client";
import { useSyncExternalStore } from "react";

const noop = () => () => {};
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/**
 * The reader's time zone for message times and day separators. The server does not know it, so the
 * server render and hydration use UTC and the browser re-renders in its own zone right after.
 */
export function useTimeZone(): string {
  return useSyncExternalStore(noop, browserZone, () => "UTC");
}
