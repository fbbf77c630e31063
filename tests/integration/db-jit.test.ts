// db/client.ts opens every connection with JIT compilation off (docs/adr/0159). Postgres decides JIT
// by a statement's estimated cost and compiles again on every execution of a cached plan: the feed's
// timeline statement, estimated above the thresholds while a few thousand posts waited for their fan-out,
// spent ~600 ms of CPU compiling per page to answer in 1 ms.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb, createSql, databaseUrl, getDb, type DbOrTx } from "@/db/client";
import { timelinePlan } from "@/lib/server/services/posts/home-timeline";
import { FEED_WINDOW } from "@/lib/server/services/posts/list-posts";
import { createTestAccount } from "./helpers/factories";

type ExplainJson = { Plan: { "Total Cost": number }; JIT?: { Functions: number } };

async function explainJson(db: DbOrTx, statement: ReturnType<typeof sql>): Promise<ExplainJson> {
  const [row] = await db.execute<{ "QUERY PLAN": ExplainJson[] }>(sql`explain (format json) ${statement}`);
  return row["QUERY PLAN"][0];
}

class Rollback extends Error {}

describe("JIT compilation", () => {
  it("is off on the app's pool and on every client db/client.ts makes", async () => {
    const raw = createSql(databaseUrl(), { max: 1 });
    try {
      for (const db of [getDb(), createDb(raw)]) {
        const [row] = await db.execute<{ jit: string }>(sql`select current_setting('jit') as jit`);
        expect(row.jit).toBe("off");
      }
      // A caller's own startup parameters keep it off too.
      const named = createSql(databaseUrl(), { max: 1, connection: { application_name: "krug-test" } });
      try {
        const [row] = await named`select current_setting('jit') as jit, current_setting('application_name') as app`;
        expect(row).toEqual({ jit: "off", app: "krug-test" });
      } finally {
        await named.end();
      }
    } finally {
      await raw.end();
    }
  });

  it("a feed page with thousands of posts waiting for their fan-out is estimated past the threshold and compiles nothing", async () => {
    const reader = await createTestAccount();
    const [{ threshold }] = await getDb().execute<{ threshold: number }>(sql`select current_setting('jit_above_cost')::float8 as threshold`);
    await expect(
      getDb().transaction(async (tx) => {
        // A burst the job has not caught up with yet (rolled back: no other test sees it).
        await tx.execute(sql`
          insert into home_timeline_pending (post_id, author_id, publish_date)
          select -g, ${reader.id}, now() - (g || ' seconds')::interval from generate_series(1, 20000) g`);
        await tx.execute(sql`analyze home_timeline_pending`);
        const page = timelinePlan(reader.id, 1, 5, FEED_WINDOW);
        for (const statement of [page.ids, page.state]) {
          const off = await explainJson(tx, statement);
          expect(off.Plan["Total Cost"]).toBeGreaterThan(threshold);
          expect(off.JIT).toBeUndefined();
        }
        // The same statement on a connection left at the server's default would compile (where the server can).
        await tx.execute(sql`set local jit = on`);
        const [{ available }] = await tx.execute<{ available: boolean }>(sql`select pg_jit_available() as available`);
        const on = await explainJson(tx, page.ids);
        expect(on.JIT !== undefined).toBe(available);
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
  });
});
