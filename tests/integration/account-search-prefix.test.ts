// People search from the name-token index (issue 28 section 3, docs/adr/0136): a word matches the
// beginning of a name's token (first name, last name, their parts, the cross-script key's words) in either
// script; the order is the same script first, then token, then account; the tokens follow every change of
// a name or a flag; hostile text is plain text and never changes the plan; pages stop at the paged depth;
// at 100,000 accounts every statement is a LIMIT-bounded range of account_search_tokens_prefix_idx.
import { writeFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { GET as searchRoute } from "@/app/api/v1/account/search/route";
import { PUT as meRoute } from "@/app/api/v1/account/me/route";
import { getDb, getSql } from "@/db/client";
import { nameSearchStatements, SEARCH_COUNT_CAP, SEARCH_DEPTH_MAX, searchAccounts } from "@/lib/server/services/accounts/search-accounts";
import { prefixEnd } from "@/lib/server/services/accounts/search-by-prefix";
import { createTestAccount, signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";

let viewer: Awaited<ReturnType<typeof signedInAccount>>;
const ids: Record<string, number> = {};

async function find(params: Record<string, string>, token = viewer.accessToken) {
  const res = await call(searchRoute, { token, path: `/api/v1/account/search?${new URLSearchParams({ size: "50", ...params })}` });
  return { status: res.status, body: res.body, ids: res.status === 200 ? (res.body.content as { id: number }[]).map((a) => a.id) : [] };
}

beforeAll(async () => {
  viewer = await signedInAccount({ firstName: "Смотрящий", lastName: "Жщвьюер" });
  // Created in this order: within one token, the older account comes first.
  for (const [key, firstName, lastName] of [
    ["zyuz", "Зюз", "Жщпервый"],
    ["zyuzin", "Борис", "Зюзин"],
    ["zyuzya", "Зюзя", "Жщтретий"],
    ["zyuzinFirst", "Зюзин", "Жщчетвёртый"],
    ["ziuzka", "Ziuzka", "Jshlatin"],
    ["inner", "Оззюзин", "Жщвнутри"],
    ["hyphen", "Анна-Жщмария", "Петрова-Жщводкина"],
    ["gleb", "Gleb", "Jshsmith"],
    ["glebRu", "Глеб", "Жщсмирнов"],
  ]) ids[key] = (await createTestAccount({ firstName, lastName })).id;
});

describe("prefix search on the name tokens", () => {
  it("the end of a prefix range is the least string past all its continuations", () => {
    expect(prefixEnd("ива")).toBe("ивб");
    expect(prefixEnd("a")).toBe("b");
    expect(prefixEnd("я")).toBe("ѐ");
    expect(prefixEnd("\u{10FFFF}")).toBeNull();
    expect(prefixEnd("a\u{10FFFF}")).toBe("b");
    expect(prefixEnd("\uD7FF")).toBe("\uE000");
    expect(prefixEnd("😀")).toBe("😁");
  });

  it("one to three letters match the beginning of a first name, a last name or a part of one, not the middle", async () => {
    expect((await find({ author: "Зюз" })).ids).toEqual([ids.zyuz, ids.zyuzin, ids.zyuzinFirst, ids.zyuzya, ids.ziuzka]);
    // "оззюзин" holds "зюз" only inside: three letters do not find it (four and more do, after the prefixes).
    expect((await find({ author: "Зюз" })).ids).not.toContain(ids.inner);
    expect((await find({ author: "Зюзин" })).ids).toEqual([ids.zyuzin, ids.zyuzinFirst, ids.inner]);
    // Parts of a hyphenated name are tokens of their own.
    expect((await find({ author: "Жщм" })).ids).toEqual([ids.hyphen]);
    expect((await find({ author: "Жщв" })).ids).toEqual(expect.arrayContaining([ids.hyphen, ids.inner]));
    // firstName / lastName: that name only.
    // Four letters: the beginnings first, then the names that hold them inside.
    expect((await find({ firstName: "Зюзи" })).ids).toEqual([ids.zyuzinFirst, ids.inner]);
    expect((await find({ lastName: "Зюз" })).ids).toEqual([ids.zyuzin]);
  });

  it("orders the same script first, then by the matched token, then by account", async () => {
    const res = await find({ author: "зюз" });
    // "зюз" < "зюзин" (Борис, then the later Зюзин by id) < "зюзя"; then Ziuzka, found by its key only.
    expect(res.ids).toEqual([ids.zyuz, ids.zyuzin, ids.zyuzinFirst, ids.zyuzya, ids.ziuzka]);
    expect(res.body.totalElements).toBe(5);
  });

  it("crosses scripts from the first letter: «Гле» finds Gleb, Gle finds «Глеб», the same script first", async () => {
    expect((await find({ author: "Гле" })).ids).toEqual([ids.glebRu, ids.gleb]);
    expect((await find({ author: "Gle" })).ids).toEqual([ids.gleb, ids.glebRu]);
    expect((await find({ author: "Глеб Jshsmith" })).ids).toEqual([ids.gleb]);
    expect((await find({ author: "Gleb Жщсм" })).ids).toEqual([ids.glebRu]);
    // By the keys' order among the other script: ziuz, ziuzia (Зюзя), ziuzin (Борис Зюзин, Зюзин).
    expect((await find({ author: "Ziu" })).ids).toEqual([ids.ziuzka, ids.zyuz, ids.zyuzya, ids.zyuzin, ids.zyuzinFirst]);
  });

  it("pages through the matches without gaps or repeats, exact totals under the cap", async () => {
    const all = (await find({ author: "Зюз" })).ids;
    const paged: number[] = [];
    for (let page = 0; page < 3; page++) {
      const res = await find({ author: "Зюз", size: "2", page: String(page) });
      expect(res.body).toMatchObject({ number: page, size: 2, totalElements: 5, totalPages: 3 });
      paged.push(...res.ids);
    }
    expect(paged).toEqual(all);
    const beyond = await find({ author: "Зюз", size: "2", page: "3" });
    expect(beyond.body).toMatchObject({ content: [], totalElements: 5 });
  });

  it("keeps the tokens in step with a new name, a block, deletion and the searchable flag", async () => {
    const me = await signedInAccount({ firstName: "Жщстарое", lastName: "Жщимя" });
    expect((await find({ author: "Жщстар" })).ids).toEqual([me.id]);
    const put = await call(meRoute, { method: "PUT", token: me.accessToken, path: "/api/v1/account/me", body: { firstName: "Жщновое" } });
    expect(put.status).toBe(200);
    expect((await find({ author: "Жщстар" })).ids).toEqual([]);
    expect((await find({ author: "Жщнов" })).ids).toEqual([me.id]);
    expect((await find({ author: "Zhshnov" })).ids).toEqual([me.id]);
    await getSql()`update accounts set is_blocked = true where id = ${me.id}`;
    expect((await find({ author: "Жщнов" })).ids).toEqual([]);
    await getSql()`update accounts set is_blocked = false, searchable = false where id = ${me.id}`;
    expect((await find({ author: "Жщнов" })).ids).toEqual([]);
    // …but friends still find an account that chose not to be found (docs/adr/0125).
    await getSql()`insert into friendships (account_id, friend_id, status_code) values (${viewer.id}, ${me.id}, 'FRIEND'), (${me.id}, ${viewer.id}, 'FRIEND')`;
    expect((await find({ author: "Жщнов" })).ids).toEqual([me.id]);
    await getSql()`update accounts set is_deleted = true, deletion_timestamp = now() where id = ${me.id}`;
    expect((await find({ author: "Жщнов" })).ids).toEqual([]);
    const rows = await getSql()`select listed from account_search_tokens where account_id = ${me.id}`;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.listed === false)).toBe(true);
    // Presence updates do not touch the tokens (the trigger names its columns).
    const [before] = await getSql()`select xmin::text as x from account_search_tokens where account_id = ${ids.zyuz} limit 1`;
    await getSql()`update accounts set last_online_time = now() where id = ${ids.zyuz}`;
    const [after] = await getSql()`select xmin::text as x from account_search_tokens where account_id = ${ids.zyuz} limit 1`;
    expect(after.x).toBe(before.x);
  });

  it("hostile text is plain text: wildcards, backslashes, long and mixed-script words find nothing extra, never fail", async () => {
    for (const author of ["%", "_", "\\", "%%", "_%_", "з%", "з_", "з\\", "\\\\\\", "' or 1=1 --", "😀", "李", "Зю" + "жы".repeat(49), "ЗюzЮ", "Ⅻ ﷽ ǅ", "a b c d e f g"]) {
      const res = await find({ author });
      expect(res.status, author).toBe(200);
      expect(res.ids, author).not.toContain(ids.zyuz);
      expect(res.ids, author).not.toContain(ids.gleb);
    }
    for (const firstName of ["%", "_", "\\", "Зю%", "Зю_"]) expect((await find({ firstName })).ids, firstName).toEqual([]);
    // As in ADR 132, symbols are no part of the cross-script key: "Зю%" is the key of «Зю», not a pattern.
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    expect(sorted((await find({ author: "Зю%" })).ids)).toEqual(sorted((await find({ author: "Зю" })).ids));
    // Control characters (NUL included, which Postgres text cannot hold) are stripped by the schema.
    for (const author of ["Зю\u0000", "З\u0007ю", "\u0000Зю\u001b"]) expect((await find({ author })).ids, JSON.stringify(author)).toEqual((await find({ author: "Зю" })).ids);
    // Over-long text is refused with the standard envelope, not a 500.
    const long = await find({ author: "з".repeat(101) });
    expect(long.status).toBe(422);
    expect(long.body.error.code).toBe("validation_failed");
  });
});

describe("at 100,000 accounts", () => {
  const N = 100_000;
  const FIRST = ["Иван", "Ivan", "Мария", "Maria", "Глеб", "Gleb", "Ия", "Yan", "Анна-Мария", "Ольга", "Olga", "Сергей"];
  const LAST = ["Иванов", "Ivanov", "Смирнова", "Smirnova", "Ли", "Wu", "Петров-Водкин", "Орлов"];
  const arr = (xs: string[]) => `array[${xs.map((x) => `'${x}'`).join(",")}]`;
  const plans: string[] = [];
  let me: Awaited<ReturnType<typeof signedInAccount>>;

  async function explain(input: Record<string, string>): Promise<Record<string, string>> {
    const statements = nameSearchStatements(me.viewer, input)!;
    const out: Record<string, string> = {};
    for (const [which, statement] of Object.entries(statements)) {
      const res = await getDb().execute<{ "QUERY PLAN": string }>(sql`explain (analyze, costs off, timing off, summary off) ${statement}`);
      out[which] = res.map((r) => r["QUERY PLAN"]).join("\n");
      plans.push(`-- ${which}: ${new URLSearchParams(input).toString()}\n${out[which]}`);
    }
    return out;
  }

  beforeAll(async () => {
    me = await signedInAccount();
    // One statement: the insert trigger writes every account's tokens set-based (with Latin keys for the
    // Latin names as the backfill would give them, and none for the Cyrillic ones: the names as typed).
    await getSql().unsafe(`
      insert into accounts (email, password_hash, first_name, last_name, name_latin, is_deleted, is_blocked, searchable)
      select 'px-' || g || '@example.invalid', '!', f, l, case when f ~ '^[A-Za-z]' then lower(f || ' ' || l) end,
             g % 100 = 0, g % 250 = 0, g % 50 <> 1
      from (select g, (${arr(FIRST)})[1 + g % ${FIRST.length}] as f,
                   (${arr(LAST)})[1 + (g / ${FIRST.length}) % ${LAST.length}] || case when g % 3 = 0 then '' else '-' || (g % 997) end as l
            from generate_series(1, ${N}) g) s`);
    await getSql()`analyze account_search_tokens`;
    await getSql()`analyze accounts`;
  }, 300_000);

  it("one to three letters and whole names read a LIMIT-bounded range of the token index, never every account", async () => {
    const inputs: Record<string, string>[] = [{ author: "И" }, { author: "Ив" }, { author: "Ива" }, { firstName: "Ива" }, { author: "Iva" }, { author: "Иван Иванов" }, { author: "ли" }];
    for (const input of inputs) {
      const { page, count } = await explain(input);
      for (const plan of [page, count]) {
        expect(plan, JSON.stringify(input)).toMatch(/Index Only Scan using account_search_tokens_prefix_idx/);
        expect(plan, JSON.stringify(input)).not.toMatch(/Seq Scan|Bitmap Heap Scan on accounts/);
        expect(plan, JSON.stringify(input)).toMatch(/^\s*->\s+Limit|^Limit/m);
      }
      // The page: the index read in order, so nothing is sorted beyond the page.
      expect(page, JSON.stringify(input)).not.toMatch(/Sort Method: (quicksort|top-N|external)[^\n]*\n[^\n]*rows=[0-9]{3,}/);
    }
  });

  it("hostile patterns plan exactly as a word: the same index range, bounded by LIMIT", async () => {
    for (const author of ["%", "_", "\\", "%и%", "и_а", "и\\", "И" + "%".repeat(99), "Iv%_\\Ив", "и-в-а-н-о-в", "_".repeat(100)]) {
      const { page, count } = await explain({ author });
      for (const plan of [page, count]) {
        expect(plan, author).toMatch(/Index Only Scan using account_search_tokens_prefix_idx/);
        expect(plan, author).not.toMatch(/Seq Scan/);
      }
      const res = await find({ author }, me.accessToken);
      expect(res.status, author).toBe(200);
      expect(res.ids, author).toEqual([]);
    }
  });

  it("ranks the prefix matches in index order, counts to the cap, estimates past it, and pages only to the depth", async () => {
    const page0 = await searchAccounts({ ctx: me.ctx, input: { author: "Ива", size: "20" } });
    const expected = await getSql()`
      select a.id from accounts a where a.email like 'px-%' and not a.is_deleted and not a.is_blocked and a.searchable
        and exists (select 1 from account_search_tokens t where t.account_id = a.id and t.token collate "C" >= 'ива' and t.token collate "C" < 'ивб')
      order by (select min(t.token collate "C") from account_search_tokens t where t.account_id = a.id and t.token collate "C" >= 'ива' and t.token collate "C" < 'ивб'), a.id
      limit 20`;
    expect(page0.content.map((a) => a.id)).toEqual(expected.map((r) => Number(r.id)));
    const [{ n }] = await getSql()`
      select count(*)::int as n from accounts a where a.email like 'px-%' and not a.is_deleted and not a.is_blocked and a.searchable
        and (lower(a.first_name) like 'ива%' or lower(a.last_name) like 'ива%' or a.name_latin ~ '(^| )iva')`;
    expect(n).toBeGreaterThan(SEARCH_COUNT_CAP);
    // An estimate of the right size past the cap.
    expect(page0.totalElements).toBeGreaterThan(SEARCH_COUNT_CAP);
    expect(page0.totalElements).toBeGreaterThan(n / 3);
    expect(page0.totalElements).toBeLessThan(n * 3);
    expect(page0.totalPages).toBe(SEARCH_DEPTH_MAX / 20);
    // Exact under the cap: "Петров-Водкин-12" exists for g % 997 = 12 with that last name.
    const [{ m }] = await getSql()`select count(*)::int as m from accounts where email like 'px-%' and not is_deleted and not is_blocked and searchable
      and lower(last_name) like 'петров-водкин-12%'`;
    const exact = await searchAccounts({ ctx: me.ctx, input: { author: "Петров-Водкин-12" } });
    expect(m).toBeLessThan(SEARCH_COUNT_CAP);
    expect(exact.totalElements).toBe(m);
    // The last page inside the depth is full; the next is empty.
    const last = await searchAccounts({ ctx: me.ctx, input: { author: "Ива", size: "100", page: String(SEARCH_DEPTH_MAX / 100 - 1) } });
    expect(last.content).toHaveLength(100);
    const past = await searchAccounts({ ctx: me.ctx, input: { author: "Ива", size: "100", page: String(SEARCH_DEPTH_MAX / 100) } });
    expect(past.content).toEqual([]);
    expect(past.totalElements).toBeGreaterThan(SEARCH_COUNT_CAP);
  });

  it("records the plans for the ADR", async () => {
    expect(plans.length).toBeGreaterThanOrEqual(20);
    if (process.env.KRUG_WRITE_PLANS) await writeFile(process.env.KRUG_WRITE_PLANS, plans.join("\n\n") + "\n");
  });
});
