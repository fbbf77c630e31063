import { describe, expect, it } from "vitest";
import { GET as citiesRoute } from "@/app/api/v1/geo/country/[id]/city/route";
import { GET as countriesRoute } from "@/app/api/v1/geo/country/route";
import { getSql } from "@/db/client";
import { backfillPlaces } from "@/db/place-backfill";
import { createTestAccount } from "./helpers/factories";
import { call } from "./helpers/http";

const countries = (headers: Record<string, string>) => call(countriesRoute, { headers });
const cities = (id: string, headers: Record<string, string> = {}) => call(citiesRoute, { params: { id }, headers });

describe("GET geo/country", () => {
  it("lists every ISO 3166-1 country, titled in Russian by default and sorted by title", async () => {
    const res = await countries({});
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(249);
    expect(res.body.every((c: any) => /^[A-Z]{2}$/.test(c.id) && typeof c.title === "string")).toBe(true);
    const byId = Object.fromEntries(res.body.map((c: any) => [c.id, c.title]));
    expect(byId).toMatchObject({ RU: "Россия", DE: "Германия", US: "Соединенные Штаты", KZ: "Казахстан" });
    expect(byId.EU).toBeUndefined();
    expect(byId.SU).toBeUndefined();
    const titles = res.body.map((c: any) => c.title);
    expect(titles).toEqual([...titles].sort(new Intl.Collator("ru").compare));
  });

  it("answers in English when the language cookie or the browser says so", async () => {
    const byCookie = await countries({ cookie: "NEXT_LOCALE=en" });
    const byId = Object.fromEntries(byCookie.body.map((c: any) => [c.id, c.title]));
    expect(byId).toMatchObject({ RU: "Russia", DE: "Germany", US: "United States" });
    const byHeader = await countries({ "accept-language": "en-GB,en;q=0.9" });
    expect(byHeader.body).toEqual(byCookie.body);
    // The saved choice wins over the browser's.
    const saved = await countries({ cookie: "NEXT_LOCALE=ru", "accept-language": "en" });
    expect(saved.body.find((c: any) => c.id === "FR").title).toBe("Франция");
    expect(byCookie.headers.get("vary")).toContain("Accept-Language");
  });
});

describe("GET geo/country/{id}/city", () => {
  it("lists a country's cities from GeoNames, most populous first", async () => {
    const res = await cities("RU", { cookie: "NEXT_LOCALE=en" });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(500);
    expect(res.body[0]).toEqual({ id: 524901, title: "Moscow", countryId: "RU" });
    expect(res.body.slice(0, 3).map((c: any) => c.title)).toEqual(["Moscow", "Saint Petersburg", "Novosibirsk"]);
    expect(res.body.every((c: any) => Number.isInteger(c.id) && c.countryId === "RU" && c.title)).toBe(true);
    expect(new Set(res.body.map((c: any) => c.id)).size).toBe(res.body.length);
    expect(res.headers.get("vary")).toContain("Accept-Language");
  });

  it("titles cities in Russian for a Russian request (issue 7 item 13): the same ids, Russian names", async () => {
    const en = (await cities("RU", { cookie: "NEXT_LOCALE=en" })).body;
    const ru = (await cities("RU", { "accept-language": "ru-RU,ru;q=0.9" })).body;
    expect(ru.map((c: any) => c.id)).toEqual(en.map((c: any) => c.id));
    expect(ru.slice(0, 3).map((c: any) => c.title)).toEqual(["Москва", "Санкт-Петербург", "Новосибирск"]);
    // What a Russian speaker types finds the city, as the picker filters by title.
    const find = (list: any[], typed: string) => list.filter((c) => c.title.toLowerCase().startsWith(typed.toLowerCase()));
    for (const [typed, id] of [["Москва", 524901], ["Казань", 551487], ["Нижний Новгород", 520555]] as const) {
      expect(find(ru, typed).map((c: any) => c.id), typed).toContain(id);
    }
    // Every city of Russia has a Russian title (Cyrillic), none is left in Latin letters.
    expect(ru.filter((c: any) => /[A-Za-z]/.test(c.title))).toEqual([]);
    // Other CIS countries too; world capitals among the 1,000 largest cities from CLDR.
    const titleOf = async (country: string, id: number) => (await cities(country)).body.find((c: any) => c.id === id)?.title;
    expect(await titleOf("FR", 2988507)).toBe("Париж");
    expect(await titleOf("GB", 2643743)).toBe("Лондон");
    expect(await titleOf("UA", 703448)).toBe("Киев");
    expect(await titleOf("BY", 625144)).toBe("Минск");
    expect(await titleOf("KZ", 1526384)).toBe("Алматы");
    // A small town outside the CIS keeps its GeoNames title in Russian too.
    const de = (await cities("DE")).body;
    expect(de.some((c: any) => /^[A-Za-zÄÖÜäöüß .'-]+$/.test(c.title))).toBe(true);
  });

  it("corrects the wrong Russian titles of the alternates (ru-title-overrides.json): found by their right title", async () => {
    const find = async (country: string, typed: string) =>
      (await cities(country)).body.filter((c: any) => c.title.toLowerCase().startsWith(typed.toLowerCase())).map((c: any) => c.id);
    for (const [country, typed, id] of [
      ["RU", "Смоленск", 491687],
      ["RU", "Череповец", 569223],
      ["RU", "Благовещенск", 2026609],
      ["RU", "Одинцово", 516215],
      ["UA", "Львов", 702550],
      ["UA", "Кривой Рог", 703845],
      ["UA", "Белая Церковь", 712165],
      ["BY", "Гродно", 627904],
      ["BY", "Могилёв", 625665],
      ["KZ", "Талдыкорган", 1518543],
    ] as const) {
      expect(await find(country, typed), typed).toContain(id);
    }
    const all = (await Promise.all(["RU", "UA", "BY", "KZ"].map(async (c) => (await cities(c)).body))).flat();
    const titles = all.map((c: any) => c.title);
    for (const wrong of ["Смоленьск", "Череповетс", "Львив", "Благовешченск", "Одинтсово", "Гродна"]) expect(titles, wrong).not.toContain(wrong);
    // No Ukrainian letters and no "-ськ" ending in the Russian titles of these countries.
    expect(titles.filter((t: string) => /[єіїґ]|ськ$/.test(t))).toEqual([]);
  });

  it("takes the code in any case and answers the same list whatever the case", async () => {
    const lower = await cities("de", { cookie: "NEXT_LOCALE=en" });
    const upper = await cities("DE", { cookie: "NEXT_LOCALE=en" });
    expect(lower.status).toBe(200);
    expect(lower.body).toEqual(upper.body);
    expect(upper.body[0].title).toBe("Berlin");
    expect((await cities("DE")).body[0].title).toBe("Берлин");
  });

  it("answers [] for a country without cities of that size and 404 for anything else", async () => {
    expect((await cities("AQ")).body).toEqual([]);
    for (const id of ["XX", "SU", "EU", "RUS", "1", "", "../RU", "R%55", "<b>"]) {
      const res = await cities(id);
      expect(res.status, id).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    expect((await cities("ZZ", { cookie: "NEXT_LOCALE=en" })).body.error.message).toBe("Country not found");
  });
});

describe("migration 0017: existing places become codes and GeoNames ids (issue 7 item 12)", () => {
  it("resolves titles in either language, keeps text that names nothing, and runs once", async () => {
    const sql = getSql();
    const saved = [
      ["Россия", "Казань", "RU", null, 551487, null],
      ["Russia", "Nizhniy Novgorod", "RU", null, 520555, null],
      ["  germany ", "BERLIN", "DE", null, 2950159, null],
      ["RU", "Смоленск", "RU", null, 491687, null],
      ["Россия", "Урюпинск-на-Луне", "RU", null, null, "Урюпинск-на-Луне"],
      ["Атлантида", "Kazan", null, "Атлантида", null, "Kazan"], // without a country, Kazan (RU or TR?) stays text…
      [null, "Омск", null, null, 1496153, null], // …and a title that names one city in the world resolves
      [null, null, null, null, null, null],
    ] as const;
    const ids: number[] = [];
    for (const [country, city] of saved) {
      const a = await createTestAccount();
      await sql`update accounts set country = ${country}, city = ${city}, country_code = null, city_id = null where id = ${a.id}`;
      ids.push(a.id);
    }
    await sql`create table place_backfill_pending ()`;
    expect(await backfillPlaces(sql)).toBeGreaterThanOrEqual(5);
    const rows = await sql<{ id: string; country_code: string | null; country: string | null; city_id: number | null; city: string | null }[]>`
      select id, country_code, country, city_id, city from accounts where id = any(${ids}) order by id`;
    expect(rows.map((r) => [r.country_code, r.country, r.city_id, r.city])).toEqual(saved.map(([, , ...stored]) => stored));
    expect((await sql`select to_regclass('place_backfill_pending') as t`)[0].t).toBeNull();
    // Done once: nothing pending, nothing changed.
    await sql`update accounts set country = 'Россия' where id = ${ids[7]}`;
    expect(await backfillPlaces(sql)).toBe(0);
    expect((await sql`select country_code from accounts where id = ${ids[7]}`)[0].country_code).toBeNull();
  });
});
