// The reader's time zone, told to the server by a cookie the browser writes (components/layout/time-zone.tsx),
// so that a page shows its times in that zone from the first paint on (docs/adr/0102).

export const TIME_ZONE_COOKIE = "tz";

const ZONE_NAME = /^[A-Za-z0-9_+\-/]{1,64}$/;
const known = new Set<string>();

/** `value` when it names a time zone this runtime knows ("Europe/Moscow"), else null: the cookie is client input. */
export function knownTimeZone(value: string | null | undefined): string | null {
  if (!value || !ZONE_NAME.test(value)) return null;
  if (known.has(value)) return value;
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
  } catch {
    return null;
  }
  // Bounded: only names the runtime accepts get here, a few hundred at most.
  known.add(value);
  return value;
}
