"use client";

import { createContext, useContext, useEffect, useSyncExternalStore, type ReactNode } from "react";
import { TIME_ZONE_COOKIE } from "@/lib/i18n/time-zone";

/** The zone the server rendered the page in (the reader's cookie), or null when it did not know it. */
const ServerTimeZone = createContext<string | null>(null);

let browser: string | null = null;
/** The browser's own zone, looked up once per tab (making a DateTimeFormat is not free). */
function browserZone(): string {
  browser ??= Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  return browser;
}

const noop = () => () => {};

/**
 * Gives the server's zone to the times of the page and keeps the cookie that tells it: written when
 * it is missing or differs from the browser's zone (a first visit, a journey across zones). The next
 * page the server renders is then in the reader's zone, and hydration needs no second pass.
 */
export function TimeZoneProvider({ zone, children }: { zone: string | null; children: ReactNode }) {
  useEffect(() => {
    const own = browserZone();
    if (own === zone) return;
    const secure = window.location.protocol === "https:" ? "; secure" : "";
    document.cookie = `${TIME_ZONE_COOKIE}=${own}; path=/; max-age=31536000; samesite=lax${secure}`;
  }, [zone]);
  return <ServerTimeZone value={zone}>{children}</ServerTimeZone>;
}

/**
 * The zone to show a time in, and whether it must be named. The server render and hydration use the
 * zone the server knew; without one, UTC, named so ("UTC" after the time). Right after hydration the
 * browser's own zone takes over, which re-renders only when it differs from what the server used.
 */
export function useReaderTimeZone(): { zone: string; named: boolean } {
  const server = useContext(ServerTimeZone);
  const zone = useSyncExternalStore(noop, browserZone, () => server ?? "");
  return zone ? { zone, named: false } : { zone: "UTC", named: true };
}
