import { sql } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { GET as weatherRoute } from "@/app/api/v1/weather/route";
import { getDb } from "@/db/client";
import { forgetWeatherFailures } from "@/lib/server/services/weather/weather";
import { cityFromText, countryFromText } from "@/lib/server/geo/places";
import { startFakeOpenMeteo } from "@/tests/support/fake-open-meteo";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";

// The provider is a local fake in Open-Meteo's format; env() reads WEATHER_API_URL on first use.
const provider = await startFakeOpenMeteo();
process.env.WEATHER_API_URL = provider.url;
afterAll(() => provider.close());

const MOSCOW = 524901;
const KAZAN = 551487;

/** An account whose profile names a place by titles (either language), stored as PUT account/me stores it. */
async function inCity(countryText: string | null, cityText: string | null) {
  const account = await signedInAccount();
  const country = countryFromText(countryText);
  const city = cityFromText(cityText, country.countryCode);
  await getDb().execute(sql`
    update accounts set country_code = ${country.countryCode}, country = ${country.country}, city_id = ${city.cityId}, city = ${city.city}
    where id = ${account.id}`);
  return account;
}

const weather = (token: string, query = "", lang = "ru") =>
  call(weatherRoute, { token, path: `/api/v1/weather${query}`, headers: { "accept-language": lang } });

beforeEach(async () => {
  provider.setDown(false);
  forgetWeatherFailures();
  await getDb().execute(sql`delete from weather_cache`);
});

describe("GET weather", () => {
  it("fetches the profile city's weather fresh, then answers from the Postgres cache within 30 minutes", async () => {
    const me = await inCity("Россия", "Москва");
    const before = provider.calls();
    const first = await weather(me.accessToken);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: "fresh",
      city: { id: MOSCOW, title: "Москва", countryId: "RU" },
      weather: { current: { temperature: 7.3, code: 2, isDay: true } },
    });
    expect(first.body.weather.daily).toEqual([
      { date: "2026-11-24", code: 3, min: 1.5, max: 6.4 },
      { date: "2026-11-25", code: 61, min: -1.2, max: 4.9 },
      { date: "2026-11-26", code: 71, min: -5.8, max: -0.6 },
    ]);
    const second = await weather(me.accessToken, "", "en");
    expect(second.body).toMatchObject({ status: "fresh", fetchedAt: first.body.fetchedAt, city: { title: "Moscow" } });
    // Another viewer of the same city (English titles in the profile) shares the cached row.
    const other = await inCity("Russia", "Moscow");
    expect((await weather(other.accessToken)).body.fetchedAt).toBe(first.body.fetchedAt);
    expect(provider.calls() - before).toBe(1);
  });

  it("refetches after 30 minutes; with the provider down it answers the last value with its time", async () => {
    const me = await inCity("Россия", "Казань");
    await weather(me.accessToken);
    await getDb().execute(sql`update weather_cache set fetched_at = now() - interval '31 minutes' where city_id = ${KAZAN}`);
    const before = provider.calls();
    const refreshed = await weather(me.accessToken);
    expect(refreshed.body.status).toBe("fresh");
    expect(provider.calls() - before).toBe(1);

    await getDb().execute(sql`update weather_cache set fetched_at = '2026-11-23T10:00:00Z' where city_id = ${KAZAN}`);
    provider.setDown(true);
    const stale = await weather(me.accessToken);
    expect(stale.status).toBe(200);
    expect(stale.body).toMatchObject({ status: "stale", fetchedAt: "2026-11-23T10:00:00.000Z", weather: { current: { temperature: 7.3 } } });
  });

  it("answers a calm 'unavailable' when the provider is down and nothing is cached, and 'noCity' without a known city", async () => {
    provider.setDown(true);
    const me = await inCity("Россия", "Москва");
    const res = await weather(me.accessToken);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "unavailable", weather: null, fetchedAt: null, city: { id: MOSCOW } });
    for (const [country, city] of [[null, null], ["Россия", null], ["Россия", "Атлантида"], ["Нарния", "Москва"]]) {
      const who = await inCity(country, city);
      expect((await weather(who.accessToken)).body).toEqual({ status: "noCity", city: null, fetchedAt: null, weather: null });
    }
  });

  it("asks the provider once for 20 parallel requests of one city (one call in flight per city)", async () => {
    const people = await Promise.all(Array.from({ length: 20 }, () => inCity("Россия", "Москва")));
    const before = provider.calls();
    const answers = await Promise.all(people.map((p) => weather(p.accessToken)));
    expect(provider.calls() - before).toBe(1);
    expect(new Set(answers.map((a) => `${a.status} ${a.body.status} ${a.body.fetchedAt}`))).toEqual(new Set([`200 fresh ${answers[0].body.fetchedAt}`]));
  });

  it("does not ask a failing provider again within the failure pause, for parallel or later requests", async () => {
    provider.setDown(true);
    const people = await Promise.all(Array.from({ length: 10 }, () => inCity("Россия", "Казань")));
    const before = provider.calls();
    const answers = await Promise.all(people.map((p) => weather(p.accessToken)));
    expect(answers.map((a) => a.body.status)).toEqual(Array(10).fill("unavailable"));
    expect(provider.calls() - before).toBe(1);
    // Up again, but within the pause: still no call for Kazan; another city is asked as usual.
    provider.setDown(false);
    expect((await weather(people[0].accessToken)).body.status).toBe("unavailable");
    expect(provider.calls() - before).toBe(1);
    expect((await weather(people[1].accessToken, `?country=RU&city=${MOSCOW}`)).body.status).toBe("fresh");
    expect(provider.calls() - before).toBe(2);
  });

  it("refuses more than RATE_LIMIT_WEATHER requests of one account with 429 and Retry-After", async () => {
    const me = await inCity("Россия", "Москва");
    const other = await inCity("Россия", "Москва");
    const answers = await Promise.all(Array.from({ length: 65 }, () => weather(me.accessToken)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(60); // the default, 60 per 5 minutes
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(refused.body.error).toEqual({ code: "rate_limited", message: "Слишком много попыток. Попробуйте позже." });
    }
    expect((await weather(other.accessToken)).status).toBe(200);
  });

  it("gives an unreachable provider no more than its short timeout", async () => {
    // The provider is gone (its server closed): the fetch fails within the timeout; the answer is never an error.
    const me = await inCity("Россия", "Москва");
    await provider.close();
    const started = Date.now();
    const res = await weather(me.accessToken);
    expect(res.body.status).toBe("unavailable");
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("takes a picked city and refuses a bad one with 4xx in the error envelope", async () => {
    const me = await inCity(null, null);
    const picked = await weather(me.accessToken, `?country=ru&city=${KAZAN}`);
    expect(picked.status).toBe(200);
    expect(picked.body.city).toEqual({ id: KAZAN, title: "Казань", countryId: "RU" });
    for (const query of [`?country=FR&city=${KAZAN}`, "?country=RU&city=999999999", "?country=RU&city=abc", "?country=R1&city=1", `?city=${KAZAN}`, "?country=RU"]) {
      const res = await weather(me.accessToken, query);
      expect([404, 422], query).toContain(res.status);
      expect(res.body.error.code).toBeTruthy();
    }
    expect((await call(weatherRoute, { path: "/api/v1/weather" })).status).toBe(401);
  });

  it("reads the profile's city by its GeoNames id, whichever language named it; a city that is no place asks for one", async () => {
    for (const [country, city] of [["Россия", "казань"], ["Russia", "Kazan"]]) {
      const res = await weather((await inCity(country, city)).accessToken);
      expect(res.body.city, `${country} / ${city}`).toEqual({ id: KAZAN, title: "Казань", countryId: "RU" });
    }
    // "Москва" is not a city of France: it stays free text, and the card offers the picker.
    expect((await weather((await inCity("Франция", "Москва")).accessToken)).body).toMatchObject({ status: "noCity", city: null });
  });
});
