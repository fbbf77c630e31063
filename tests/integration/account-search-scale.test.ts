// People search at 100,000 accounts (issue 7 item 17): early pages come from an index in order, the count
// stops at a cap, and one- or two-letter queries read a prefix range instead of every account.
import { writeFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb, getSql } from "@/db/client";
import { accountSearchParts, SEARCH_COUNT_CAP, searchAccounts, searchStatements } from "@/lib/server/services/accounts/search-accounts";
import { signedInAccount } from "./helpers/factories";

const N = 100_000;
const FIRST = ["Анна", "Иван", "Мария", "Павел", "Ольга", "Сергей", "Елена", "Дмитрий", "Ирина", "Алексей", "Anna", "John", "Maria", "Peter", "Olga", "Yan", "Ян", "Ия"];
const LAST = ["Иванова", "Смирнов", "Кузнецова", "Попов", "Васильева", "Петров", "Соколова", "Smith", "Brown", "Johnson", "Ли", "Wu", "Орлов", "Лебедева"];
const [MOSCOW, KAZAN, PARIS] = [524901, 551487, 2988507];
const arr = (xs: string[]) => `array[${xs.map((x) => `'${x}'`).join(",")}]`;

let me: Awaited<ReturnType<typeof signedInAccount>>;
const plans: string[] = [];

async function explain(input: Record<string, string | undefined>, which: "rows" | "capped") {
  const { where, order, page, size } = accountSearchParts(me.viewer, input);
  const st = searchStatements(getDb(), me.viewer, where, order, page, size);
  const res = await getDb().execute<{ "QUERY PLAN": string }>(sql`explain (analyze, costs off, timing off, summary off) ${st[which]()}`);
  const text = res.map((r) => r["QUERY PLAN"]).join("\n");
  plans.push(`-- ${which}: ${new URLSearchParams(input as Record<string, string>).toString() || "(no filter)"}\n${text}`);
  return text;
}

beforeAll(async () => {
  me = await signedInAccount();
  await getSql().unsafe(`
    insert into accounts (email, password_hash, first_name, last_name, birth_date, is_deleted, is_blocked, country_code, city_id, city)
    select 'scale-' || g || '@example.invalid', '!', (${arr(FIRST)})[1 + g % ${FIRST.length}],
           (${arr(LAST)})[1 + (g / ${FIRST.length}) % ${LAST.length}] || case when g % 3 = 0 then '' else '-' || (g % 997) end,
           date '1960-01-01' + (g % 17000), g % 100 = 0, g % 250 = 0,
           -- Places (issue 7 item 12): half in Russia (Moscow, 1 in 100 Kazan), 1 in 1,000 in Paris, a few free-text cities.
           case when g % 1000 = 7 then 'FR' when g % 2 = 0 then 'RU' end,
           case when g % 1000 = 7 then ${PARIS} when g % 200 = 2 then ${KAZAN} when g % 2 = 0 then ${MOSCOW} end,
           case when g % 5000 = 3 then 'Подводный-' || g end
    from generate_series(1, ${N}) g`);
  await getSql()`analyze accounts`;
}, 180_000);

describe(`people search at ${N.toLocaleString("en")} accounts`, () => {
  it("no filter: the first page is the head of accounts_listed_name_idx, the count stops at the cap", async () => {
    const rows = await explain({}, "rows");
    expect(rows).toMatch(/Index Scan using accounts_listed_name_idx/);
    expect(rows).not.toMatch(/Seq Scan on accounts|Sort/);
    const capped = await explain({}, "capped");
    expect(capped).toMatch(/Limit/);
    expect(capped).toContain(`rows=${SEARCH_COUNT_CAP + 1}`);

    const page = await searchAccounts({ ctx: me.ctx, input: { size: "20" } });
    expect(Object.keys(page).sort()).toEqual(["content", "number", "size", "totalElements", "totalPages"]);
    expect(page.content).toHaveLength(20);
    // The estimate is of the right size (about 98,600 listed accounts), the pages follow from it.
    expect(page.totalElements).toBeGreaterThan(50_000);
    expect(page.totalElements).toBeLessThan(200_000);
    expect(page.totalPages).toBe(Math.ceil(page.totalElements / 20));
    const expected = await getSql()`select id from accounts where not is_deleted and not is_blocked and id <> ${me.id}
      order by first_name, last_name, id limit 20`;
    expect(page.content.map((a) => a.id)).toEqual(expected.map((r) => Number(r.id)));
  });

  it("sorted by first or last name either way: an index scan, forward or backward", async () => {
    for (const sort of ["firstName,desc", "lastName,asc", "lastName,desc"]) {
      const rows = await explain({ sort }, "rows");
      expect(rows, sort).toMatch(/Index Scan( Backward)? using accounts_listed_(last_)?name_idx/);
      expect(rows, sort).not.toMatch(/Seq Scan on accounts|Sort/);
    }
    const page = await searchAccounts({ ctx: me.ctx, input: { sort: "lastName,desc", size: "5", page: "2" } });
    const expected = await getSql()`select id from accounts where not is_deleted and not is_blocked and id <> ${me.id}
      order by last_name desc, first_name desc, id desc limit 5 offset 10`;
    expect(page.content.map((a) => a.id)).toEqual(expected.map((r) => Number(r.id)));
  });

  it("one or two letters read a prefix range of a name index, never every account", async () => {
    for (const input of [{ firstName: "Ия" }, { lastName: "Л" }, { author: "я" }, { author: "Ли" }, { author: "а" }]) {
      const rows = await explain(input, "rows");
      expect(rows, JSON.stringify(input)).toMatch(/accounts_(first|last)_name_prefix_idx/);
      expect(rows, JSON.stringify(input)).not.toMatch(/Seq Scan on accounts/);
    }
    const short = await searchAccounts({ ctx: me.ctx, input: { firstName: "Ия", size: "10" } });
    expect(short.content.length).toBe(10);
    for (const a of short.content) expect(a.firstName.toLowerCase().startsWith("ия")).toBe(true);
    const [{ n }] = await getSql()`select count(*)::int as n from accounts where lower(first_name) like 'ия%' and not is_deleted and not is_blocked`;
    // More than the cap match: the total is an estimate of the right size, not an exact count.
    expect(n).toBeGreaterThan(SEARCH_COUNT_CAP);
    expect(short.totalElements).toBeGreaterThan(SEARCH_COUNT_CAP);
    expect(short.totalElements).toBeLessThan(n * 3);
    // "Ли" finds the last name Ли and names that start with it, not names that merely contain it.
    const li = await searchAccounts({ ctx: me.ctx, input: { author: "Ли", size: "50" } });
    for (const a of li.content) expect(/^ли/i.test(a.firstName) || /^ли/i.test(a.lastName)).toBe(true);
  });

  it("three letters and more go through the trigram index and are counted exactly under the cap", async () => {
    const rows = await explain({ author: "Лебедева-99" }, "rows");
    expect(rows).toMatch(/accounts_full_name_trgm_idx/);
    expect(rows).not.toMatch(/Seq Scan on accounts/);
    const found = await searchAccounts({ ctx: me.ctx, input: { author: "Лебедева-99", size: "100" } });
    const [{ n }] = await getSql()`select count(*)::int as n from accounts where lower(first_name || ' ' || last_name) like '%лебедева-99%'
      and not is_deleted and not is_blocked`;
    expect(n).toBeLessThan(SEARCH_COUNT_CAP);
    expect(found.totalElements).toBe(n);
  });

  it("a country or a city goes through the place indexes (issue 7 item 12), free text through trigrams", async () => {
    const count = async (where: string) =>
      Number((await getSql().unsafe(`select count(*)::int as n from accounts where not is_deleted and not is_blocked and ${where}`))[0].n);
    for (const [input, where] of [
      [{ country: "Франция" }, `country_code = 'FR'`],
      [{ countryId: "fr" }, `country_code = 'FR'`],
      [{ country: "Russia", city: "Казань" }, `city_id = ${KAZAN}`],
      [{ cityId: String(PARIS) }, `city_id = ${PARIS}`],
      [{ city: "подводный" }, `city like 'Подводный-%'`],
    ] as const) {
      // The page may walk a name index in order (LIMIT stops it early); the count must not read everyone.
      const rows = await explain(input, "rows");
      expect(rows, JSON.stringify(input)).not.toMatch(/Seq Scan on accounts/);
      const capped = await explain(input, "capped");
      expect(capped, JSON.stringify(input)).toMatch(/accounts_listed_place_idx|accounts_listed_city_idx|accounts_city_trgm_idx/);
      expect(capped, JSON.stringify(input)).not.toMatch(/Seq Scan on accounts/);
      const n = await count(where);
      expect(n).toBeLessThan(SEARCH_COUNT_CAP);
      expect((await searchAccounts({ ctx: me.ctx, input: { ...input, size: "5" } })).totalElements, JSON.stringify(input)).toBe(n);
    }
  });

  it("records the plans for the ADR", async () => {
    expect(plans.length).toBeGreaterThanOrEqual(19);
    if (process.env.KRUG_WRITE_PLANS) await writeFile(process.env.KRUG_WRITE_PLANS, plans.join("\n\n") + "\n");
  });
});
