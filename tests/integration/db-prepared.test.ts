// db/client.ts runs drizzle's parameterised queries as postgres.js's cached prepared statements
// (docs/adr/0090): in the pool, in transactions and in savepoints; queries without parameters
// (multi-statement SQL) stay unprepared, and a rolled-back transaction still rolls back.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb, createSql, databaseUrl } from "@/db/client";
import { accounts } from "@/db/schema";
import { createTestAccount } from "./helpers/factories";

/** A one-connection pool, so pg_prepared_statements is the same session's list every time. */
function single() {
  const raw = createSql(databaseUrl(), { max: 1 });
  return { raw, db: createDb(raw) };
}

async function prepared(db: ReturnType<typeof createDb>): Promise<string[]> {
  const rows = await db.execute<{ statement: string }>(sql`select statement from pg_prepared_statements where ${1} = ${1}`);
  return rows.map((r) => r.statement);
}

describe("prepared statements through drizzle", () => {
  it("prepares a parameterised query once per connection and reuses it", async () => {
    const { raw, db } = single();
    try {
      const account = await createTestAccount();
      for (let i = 0; i < 3; i++) {
        const [row] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, account.id));
        expect(row.id).toBe(account.id);
      }
      const statements = (await prepared(db)).filter((s) => s.includes('from "accounts"') && s.includes("$1"));
      expect(statements).toHaveLength(1);
    } finally {
      await raw.end();
    }
  });

  it("prepares inside transactions and savepoints, and a rollback still undoes the writes", async () => {
    const { raw, db } = single();
    try {
      const account = await createTestAccount();
      await expect(
        db.transaction(async (tx) => {
          await tx.update(accounts).set({ about: "inside" }).where(eq(accounts.id, account.id));
          await tx.transaction(async (sp) => {
            await sp.update(accounts).set({ city: "Savepoint" }).where(eq(accounts.id, account.id));
            const inside = await sp.execute<{ statement: string }>(sql`select statement from pg_prepared_statements where ${1} = ${1}`);
            expect(inside.some((r) => r.statement.startsWith('update "accounts" set "city"'))).toBe(true);
          });
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      const [row] = await db.select({ about: accounts.about, city: accounts.city }).from(accounts).where(eq(accounts.id, account.id));
      expect(row.about).not.toBe("inside");
      expect(row.city).not.toBe("Savepoint");
    } finally {
      await raw.end();
    }
  });

  it("leaves SQL without parameters unprepared, so several statements in one string still run", async () => {
    const { raw, db } = single();
    try {
      await db.execute(sql.raw("create temp table prep_probe (n int); insert into prep_probe values (7)"));
      const [row] = await db.execute<{ n: number }>(sql`select n from prep_probe where n = ${7}`);
      expect(row.n).toBe(7);
      expect((await prepared(db)).some((s) => s.includes("prep_probe;"))).toBe(false);
    } finally {
      await raw.end();
    }
  });
});
