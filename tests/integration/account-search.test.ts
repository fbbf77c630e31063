import { beforeAll, describe, expect, it } from "vitest";
import { GET as searchRoute } from "@/app/api/v1/account/search/route";
import { GET as statusRoute } from "@/app/api/v1/account/search/statusCode/route";
import { getSql } from "@/db/client";
import { cityFromText, countryFromText } from "@/lib/server/geo/places";
import { createTestAccount, signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";

type Person = { id: number; firstName: string; lastName: string };
let viewer: Awaited<ReturnType<typeof signedInAccount>>;
const people: Record<string, Person> = {};

function yearsAgo(years: number, plusDays = 0): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCDate(d.getUTCDate() + plusDays);
  return d.toISOString().slice(0, 10);
}

async function person(key: string, firstName: string, lastName: string, extra: Partial<Record<string, string | null>> = {}) {
  const a = await createTestAccount({ firstName, lastName });
  const sql = getSql();
  // Stored as PUT account/me stores them: codes and GeoNames ids (docs/adr/0044).
  const country = countryFromText(extra.country ?? null);
  const city = cityFromText(extra.city ?? null, country.countryCode);
  await sql`update accounts set birth_date = ${extra.birthDate ?? null}, country_code = ${country.countryCode}, country = ${country.country},
    city_id = ${city.cityId}, city = ${city.city} where id = ${a.id}`;
  people[key] = { id: a.id, firstName, lastName };
}

/** Search as the viewer; `params` go into the query string as the client sends them. */
async function search(params: Record<string, string | number | boolean>, token = viewer.accessToken, route = searchRoute, base = "/api/v1/account/search") {
  const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  return call(route, { token, path: `${base}?${qs}` });
}

const ids = (res: { body: any }) => res.body.content.map((a: { id: number }) => a.id).sort((x: number, y: number) => x - y);
const idsOf = (...keys: string[]) => keys.map((k) => people[k].id).sort((x, y) => x - y);

beforeAll(async () => {
  // A tag unique to this run keeps every search scoped to these people only.
  viewer = await signedInAccount({ firstName: "Searcher", lastName: "Qzviewer" });
  await person("ivan", "Иван", "Qzпетров", { birthDate: yearsAgo(30), country: "Россия", city: "Москва" });
  await person("ivanna", "Иванна", "Qzкузнецова", { birthDate: yearsAgo(25, -1), country: "Russia", city: "Санкт-Петербург" });
  await person("john", "John", "Qzsmith", { birthDate: yearsAgo(40), country: "United States", city: "New York" });
  await person("johanna", "Johanna", "Qzjohnson", { birthDate: yearsAgo(18), country: "Germany", city: "Berlin" });
  await person("pyotr", "Пётр", "Qzиванов", { birthDate: yearsAgo(26, 1), country: "RU", city: "Казань" });
  await person("nobirth", "Мария", "Qzбездаты", {});
  await person("deleted", "Иван", "Qzудалённый", { birthDate: yearsAgo(30) });
  await getSql()`update accounts set is_deleted = true, deletion_timestamp = now() where id = ${people.deleted.id}`;
  // The viewer is friends with John and Пётр, and has sent Иванна a request.
  const rel = async (a: number, b: number, ab: string, ba: string) =>
    getSql()`insert into friendships (account_id, friend_id, status_code) values (${a}, ${b}, ${ab}::friend_status), (${b}, ${a}, ${ba}::friend_status)`;
  await rel(viewer.id, people.john.id, "FRIEND", "FRIEND");
  await rel(viewer.id, people.pyotr.id, "FRIEND", "FRIEND");
  await rel(viewer.id, people.ivanna.id, "REQUEST_TO", "REQUEST_FROM");
});

describe("GET account/search", () => {
  it("answers the paging envelope with account DTOs (no e-mails) and the viewer's status codes", async () => {
    const res = await search({ author: "qz", size: 50 });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["content", "number", "size", "totalElements", "totalPages"]);
    expect(res.body).toMatchObject({ number: 0, size: 50, totalElements: 6, totalPages: 1 });
    expect(ids(res)).toEqual(idsOf("ivan", "ivanna", "john", "johanna", "pyotr", "nobirth"));
    for (const a of res.body.content) expect(a.email).toBeUndefined();
    const byId = Object.fromEntries(res.body.content.map((a: any) => [a.id, a.statusCode]));
    expect(byId[people.john.id]).toBe("FRIEND");
    expect(byId[people.ivanna.id]).toBe("REQUEST_TO");
    expect(byId[people.ivan.id]).toBeNull();
  });

  it("finds partial Russian and English names in any case", async () => {
    expect(ids(await search({ firstName: "иван", author: "qz" }))).toEqual(idsOf("ivan", "ivanna"));
    expect(ids(await search({ firstName: "ИВА", author: "qz" }))).toEqual(idsOf("ivan", "ivanna"));
    expect(ids(await search({ firstName: "ванн" }))).toEqual(idsOf("ivanna"));
    expect(ids(await search({ lastName: "QZПЕТР" }))).toEqual(idsOf("ivan"));
    expect(ids(await search({ firstName: "JOH", author: "qz" }))).toEqual(idsOf("john", "johanna"));
    expect(ids(await search({ lastName: "qzsmi" }))).toEqual(idsOf("john"));
    expect(ids(await search({ firstName: "пётр" }))).toEqual(idsOf("pyotr"));
  });

  it("author matches every word anywhere in the full name, in any order", async () => {
    expect(ids(await search({ author: "qzпетров иван" }))).toEqual(idsOf("ivan"));
    expect(ids(await search({ author: "Иван Qzпетров" }))).toEqual(idsOf("ivan"));
    expect(ids(await search({ author: "  jOhN   qzSMITH " }))).toEqual(idsOf("john"));
    // "иван" is also inside "Qzиванов": the surname matches as well as the first names.
    expect(ids(await search({ author: "иван qz" }))).toEqual(idsOf("ivan", "ivanna", "pyotr"));
  });

  it("filters by age range (whole years, from the birth date)", async () => {
    expect(ids(await search({ author: "qz", ageFrom: 25, ageTo: 30 }))).toEqual(idsOf("ivan", "ivanna", "pyotr"));
    // Пётр turns 26 tomorrow: still 25 today.
    expect(ids(await search({ author: "qz", ageFrom: 26, ageTo: 26 }))).toEqual([]);
    expect(ids(await search({ author: "qz", ageFrom: 25, ageTo: 25 }))).toEqual(idsOf("ivanna", "pyotr"));
    expect(ids(await search({ author: "qz", ageFrom: 35 }))).toEqual(idsOf("john"));
    expect(ids(await search({ author: "qz", ageTo: 18 }))).toEqual(idsOf("johanna"));
  });

  it("filters by country in either language or by code, and by a part of the city", async () => {
    const russians = idsOf("ivan", "ivanna", "pyotr");
    expect(ids(await search({ author: "qz", country: "Россия" }))).toEqual(russians);
    expect(ids(await search({ author: "qz", country: "russia" }))).toEqual(russians);
    expect(ids(await search({ author: "qz", country: "ru" }))).toEqual(russians);
    // A part of a title, in either language, whatever language the profile was saved in.
    expect(ids(await search({ author: "qz", country: "Герман" }))).toEqual(idsOf("johanna"));
    expect(ids(await search({ author: "qz", country: "germ" }))).toEqual(idsOf("johanna"));
    expect(ids(await search({ author: "qz", city: "петербург" }))).toEqual(idsOf("ivanna"));
    expect(ids(await search({ author: "qz", city: "petersburg" }))).toEqual(idsOf("ivanna"));
    expect(ids(await search({ author: "qz", country: "Russia", city: "каз" }))).toEqual(idsOf("pyotr"));
    expect(ids(await search({ author: "qz", country: "Russia", city: "kaz" }))).toEqual(idsOf("pyotr"));
    // "New York" is not GeoNames' title ("New York City"): kept as typed, and found as text.
    expect(ids(await search({ author: "qz", city: "york" }))).toEqual(idsOf("john"));
    // The ids GET geo/… answers, exactly.
    expect(ids(await search({ author: "qz", countryId: "ru" }))).toEqual(russians);
    expect(ids(await search({ author: "qz", cityId: 551487 }))).toEqual(idsOf("pyotr"));
    expect(ids(await search({ author: "qz", countryId: "DE", cityId: 551487 }))).toEqual([]);
    // Another client's text that names no place is matched as text.
    await getSql()`update accounts set country = 'Атлантида', city = 'Подводный' where id = ${people.nobirth.id}`;
    expect(ids(await search({ author: "qz", country: "атлант", city: "водн" }))).toEqual(idsOf("nobirth"));
    expect((await search({ author: "qz", countryId: "XYZ" })).status).toBe(422);
  });

  it("pages with zero-based numbers, default size 5, max 100", async () => {
    const first = await search({ author: "qz" });
    expect(first.body).toMatchObject({ size: 5, number: 0, totalElements: 6, totalPages: 2 });
    expect(first.body.content).toHaveLength(5);
    const second = await search({ author: "qz", page: 1 });
    expect(second.body.content).toHaveLength(1);
    const all = [...first.body.content, ...second.body.content].map((a: any) => a.id).sort((x: number, y: number) => x - y);
    expect(all).toEqual(idsOf("ivan", "ivanna", "john", "johanna", "pyotr", "nobirth"));
    const beyond = await search({ author: "qz", page: 7, size: 2 });
    expect(beyond.body).toMatchObject({ content: [], number: 7, size: 2, totalElements: 6, totalPages: 3 });
    expect((await search({ author: "qz", size: 100 })).status).toBe(200);
  });

  it("sorts by a field when asked", async () => {
    const byName = await search({ author: "qz", sort: "firstName,desc", size: 10 });
    expect(byName.body.content.map((a: any) => a.firstName)).toEqual(["Пётр", "Мария", "Иванна", "Иван", "John", "Johanna"]);
    const oldestFirst = await search({ author: "qz", sort: "age,desc", size: 10 });
    expect(oldestFirst.body.content[0].id).toBe(people.john.id);
    expect(oldestFirst.body.content.at(-1).id).toBe(people.nobirth.id); // no birth date: last
  });

  it("showFriends=true limits to the viewer's friends; the viewer is never in the results", async () => {
    expect(ids(await search({ showFriends: true }))).toEqual(idsOf("john", "pyotr"));
    expect(ids(await search({ showFriends: true, firstName: "joh" }))).toEqual(idsOf("john"));
    expect(ids(await search({ author: "Searcher" }))).toEqual([]);
    expect(ids(await search({ lastName: "qzviewer" }))).toEqual([]);
  });

  it("leaves deleted accounts out; only staff may ask for them", async () => {
    expect(ids(await search({ author: "qzудал" }))).toEqual([]);
    const refused = await search({ author: "qzудал", isDeleted: true });
    expect(refused.status).toBe(403);
    const admin = await signedInAccount();
    await getSql()`update accounts set role = 'ADMIN' where id = ${admin.id}`;
    const staff = await search({ author: "qzудал", isDeleted: true }, admin.accessToken);
    expect(staff.status).toBe(200);
    expect(ids(staff)).toEqual(idsOf("deleted"));
  });

  it("treats LIKE wildcards, HTML and SQL in the text as plain characters", async () => {
    for (const text of ["%", "_", "\\", "%qz%", "' or '1'='1", "<script>", "qz'; drop table accounts; --"]) {
      const res = await search({ author: text });
      expect(res.status, text).toBe(200);
      expect(res.body.totalElements, text).toBe(0);
    }
    expect(Number((await getSql()`select count(*)::int as n from accounts`)[0].n)).toBeGreaterThan(7);
  });

  it("refuses bad parameters with 422 and needs a session", async () => {
    const bad: Record<string, string | number>[] = [
      { page: -1 },
      { page: "x" },
      { size: 0 },
      { size: 101 },
      { size: 2.5 },
      { ageFrom: "old" },
      { ageFrom: 40, ageTo: 20 },
      { ageTo: 200 },
      { isDeleted: "yes" },
      { showFriends: 1 },
      { sort: "password,asc" },
      { sort: "id;drop" },
      { firstName: "x".repeat(101) },
    ];
    for (const params of bad) {
      const res = await search(params);
      expect(res.status, JSON.stringify(params)).toBe(422);
      expect(res.body.error.code).toBe("validation_failed");
    }
    // Empty values count as absent, as forms send every field.
    expect((await search({ firstName: "", ageFrom: "", author: "qzpetr" })).status).toBe(200);
    expect((await call(searchRoute, { path: "/api/v1/account/search" })).status).toBe(401);
  });

  it("uses the trigram indexes for name matching", async () => {
    const sql = getSql();
    const plans = await sql.begin(async (tx) => {
      await tx`set local enable_seqscan = off`;
      const out: string[] = [];
      for (const where of [
        "lower(first_name) like '%ван%'",
        "lower(last_name) like '%smi%'",
        "lower(first_name || ' ' || last_name) like '%ван петр%'",
      ]) {
        const rows = await tx.unsafe(`explain select id from accounts where ${where}`);
        out.push(rows.map((r: any) => r["QUERY PLAN"]).join("\n"));
      }
      return out;
    });
    expect(plans[0]).toContain("accounts_first_name_trgm_idx");
    expect(plans[1]).toContain("accounts_last_name_trgm_idx");
    expect(plans[2]).toContain("accounts_full_name_trgm_idx");
  });
});

describe("GET account/search/statusCode", () => {
  const byStatus = (params: Record<string, string | number>, token?: string) =>
    search(params, token, statusRoute, "/api/v1/account/search/statusCode");

  it("lists the viewer's relations of one status, narrowed by a part of the name", async () => {
    const friends = await byStatus({ statusCode: "FRIEND" });
    expect(friends.status).toBe(200);
    expect(ids(friends)).toEqual(idsOf("john", "pyotr"));
    expect(friends.body.content.every((a: any) => a.statusCode === "FRIEND" && a.email === undefined)).toBe(true);
    expect(ids(await byStatus({ statusCode: "FRIEND", firstName: "ПЁТ" }))).toEqual(idsOf("pyotr"));
    expect(ids(await byStatus({ statusCode: "REQUEST_TO" }))).toEqual(idsOf("ivanna"));
    expect(ids(await byStatus({ statusCode: "BLOCKED" }))).toEqual([]);
    const paged = await byStatus({ statusCode: "FRIEND", size: 1, page: 1 });
    expect(paged.body).toMatchObject({ size: 1, number: 1, totalElements: 2, totalPages: 2 });
  });

  it("shows other people's relations only from their side", async () => {
    const other = await signedInAccount();
    expect((await byStatus({ statusCode: "FRIEND" }, other.accessToken)).body.totalElements).toBe(0);
  });

  it("refuses a missing or unknown status (REJECTING is never listed) with 422", async () => {
    const bad: Record<string, string | number>[] = [{}, { statusCode: "ENEMY" }, { statusCode: "REJECTING" }, { statusCode: "FRIEND", size: 500 }];
    for (const params of bad) {
      const res = await byStatus(params);
      expect(res.status, JSON.stringify(params)).toBe(422);
    }
  });
});
