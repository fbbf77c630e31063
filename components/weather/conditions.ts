/**
 * WMO weather codes (as Open-Meteo reports them) → a condition key of messages "weather.conditions"; its
 * icon is inline SVG (weather-icons.tsx), so no image request leaves the browser (docs/adr/0086).
 */
export type Condition =
  | "clear" | "clearNight" | "mostlyClear" | "partlyCloudy" | "overcast" | "fog" | "drizzle" | "rain"
  | "freezingRain" | "snow" | "showers" | "snowShowers" | "thunder" | "unknown";

export function conditionOf(code: number, isDay = true): Condition {
  if (code === 0) return isDay ? "clear" : "clearNight";
  if (code === 1) return "mostlyClear";
  if (code === 2) return "partlyCloudy";
  if (code === 3) return "overcast";
  if (code === 45 || code === 48) return "fog";
  if (code >= 51 && code <= 55) return "drizzle";
  if (code === 56 || code === 57 || code === 66 || code === 67) return "freezingRain";
  if (code >= 61 && code <= 65) return "rain";
  if (code >= 71 && code <= 77) return "snow";
  if (code >= 80 && code <= 82) return "showers";
  if (code === 85 || code === 86) return "snowShowers";
  if (code >= 95 && code <= 99) return "thunder";
  return "unknown";
}
