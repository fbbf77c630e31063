import "server-only";
import { cookies } from "next/headers";
import { knownTimeZone, TIME_ZONE_COOKIE } from "./time-zone";

/**
 * The reader's time zone for a server component (the admin's tables): the one the browser wrote in the
 * tz cookie (docs/adr/0102), else UTC, which must then be named after the time.
 */
export async function readerTimeZone(): Promise<{ zone: string; named: boolean }> {
  const zone = knownTimeZone((await cookies()).get(TIME_ZONE_COOKIE)?.value);
  return zone ? { zone, named: false } : { zone: "UTC", named: true };
}
