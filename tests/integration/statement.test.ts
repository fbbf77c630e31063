import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { accounts } from "@/db/schema";
import { selectStatement, statement, statementsBy } from "@/db/statement";
import { accountDtoColumns } from "@/lib/server/services/accounts/account-columns";
import { createTestAccount } from "./helpers/factories";

// db/statement.ts (docs/adr/0153): a statement's text built once, its placeholders filled per call.
describe("statement", () => {
  const echo = statement<{ a: string; b: string; c: number }, { a: string; b: string }>(
    sql`select ${sql.placeholder("a")}::text as a, ${sql.placeholder("b")}::text as b, ${7}::int as c, ${sql.placeholder("a")}::text = ${sql.placeholder("b")}::text as same`,
  );

  it("builds its text once, with a parameter per placeholder and fixed value, and runs with each call's values", async () => {
    // One parameter per placeholder, however often it is named.
    expect(echo.text).toBe("select $1::text as a, $2::text as b, $3::int as c, $1::text = $2::text as same");
    expect(await echo.run(getDb(), { a: "x", b: "y" })).toEqual([{ a: "x", b: "y", c: 7, same: false }]);
    expect(await echo.run(getDb(), { a: "z", b: "z" })).toEqual([{ a: "z", b: "z", c: 7, same: true }]);
  });

  it("renumbers parameters outside quotes and comments only", () => {
    const p = sql.placeholder("p");
    const q = statement(sql`select ${p} as a, '$2 it''s' as s, "$3" as ${sql.raw('"x$1"')}, ${5} as five -- $4 isn't one\n, ${p} as b /* $9 */`);
    expect(q.text).toBe(`select $1 as a, '$2 it''s' as s, "$3" as "x$1", $2 as five -- $4 isn't one\n, $1 as b /* $9 */`);
  });

  it("refuses a call without a placeholder's value rather than send null", async () => {
    expect(() => echo.run(getDb(), { a: "x" } as { a: string; b: string })).toThrow(/no value for placeholder "b"/);
  });

  it("runs inside a transaction on the transaction's connection (it sees what the transaction wrote)", async () => {
    const seen = statement<{ n: number }, { name: string }>(sql`select count(*)::int as n from pg_temp.seen where name = ${sql.placeholder("name")}`);
    await getDb().transaction(async (tx) => {
      await tx.execute(sql`create temp table seen (name text) on commit drop`);
      await tx.execute(sql`insert into seen values ('one')`);
      expect(await seen.run(tx, { name: "one" })).toEqual([{ n: 1 }]);
    });
  });

  it("keeps statements by key, at most the given number", () => {
    let built = 0;
    const byKey = statementsBy<number, { n: number }, Record<string, never>>((n) => (built++, sql`select ${sql.raw(String(n))} as n`), 2);
    expect(byKey(1)).toBe(byKey(1));
    expect(built).toBe(1);
    byKey(2);
    byKey(3); // the map is full: key 1 goes
    byKey(1);
    expect(built).toBe(4);
    expect(byKey(3).text).toBe("select 3 as n");
  });

  it("a select of plain columns gives the rows drizzle gives: dates, timestamps, nulls and enums decoded alike", async () => {
    const { id } = await createTestAccount();
    await getDb().execute(sql`update accounts set birth_date = '1990-02-03', last_online_time = now(), deletion_timestamp = null, about = null where id = ${id}`);
    const own = selectStatement<Record<string, unknown>, { accountId: number }>(
      (db) => db.select(accountDtoColumns).from(accounts).where(eq(accounts.id, sql.placeholder("accountId"))).limit(1),
      accountDtoColumns,
    );
    const want = await getDb().select(accountDtoColumns).from(accounts).where(eq(accounts.id, id)).limit(1);
    const got = await own.run(getDb(), { accountId: id });
    expect(got).toEqual(want);
    expect(Object.keys(got[0])).toEqual(Object.keys(want[0]));
    expect(got[0].lastOnlineTime).toBeInstanceOf(Date);
    expect(await own.run(getDb(), { accountId: -1 })).toEqual([]);
  });
});
