// A tiny HTTP server answering in Open-Meteo's forecast format (issue 13's weather card), for the
// integration tests and the e2e server: no test ever reaches the real provider.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type FakeOpenMeteo = {
  url: string;
  /** Requests answered or refused so far. */
  calls: () => number;
  /** Down: every request gets a 503 (as an unreachable provider, as far as the app can tell). */
  setDown: (down: boolean) => void;
  close: () => Promise<void>;
};

/** The forecast the fake gives for every place: 7.3 °C, partly cloudy; then overcast, rain, snow. */
export function fakeForecast() {
  return {
    latitude: 55.75,
    longitude: 37.625,
    timezone: "Europe/Moscow",
    current_units: { time: "iso8601", interval: "seconds", temperature_2m: "°C", weather_code: "wmo code", is_day: "" },
    current: { time: "2026-11-23T21:00", interval: 900, temperature_2m: 7.3, weather_code: 2, is_day: 1 },
    daily_units: { time: "iso8601", weather_code: "wmo code", temperature_2m_max: "°C", temperature_2m_min: "°C" },
    daily: {
      time: ["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26"],
      weather_code: [2, 3, 61, 71],
      temperature_2m_max: [8.1, 6.4, 4.9, -0.6],
      temperature_2m_min: [2.2, 1.5, -1.2, -5.8],
    },
  };
}

/**
 * Starts the fake on an ephemeral port of 127.0.0.1. `downSouth`: places south of the equator always get a
 * 503 — how the e2e journeys see a provider that is down for one city while up for the others.
 */
export async function startFakeOpenMeteo({ downSouth = false } = {}): Promise<FakeOpenMeteo> {
  let down = false;
  let calls = 0;
  const server: Server = createServer((req, res) => {
    calls++;
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const lat = Number(url.searchParams.get("latitude"));
    if (down || (downSouth && lat < 0) || !url.searchParams.has("longitude")) {
      res.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify({ error: true, reason: "down" }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ...fakeForecast(), latitude: lat }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/forecast`,
    calls: () => calls,
    setDown: (value) => {
      down = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
