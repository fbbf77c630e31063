// Issue 30: while the database is away (restarting, refusing connections, out of connections) a request is
// answered 503 with Retry-After in the standard envelope, never 500. The errors here are real ones, made
// by the drivers against a closed port and a terminated backend.
import { sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import pg from "pg";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { createDb, createSql, getDb } from "@/db/client";
import { DB_UNAVAILABLE_RETRY_AFTER, toErrorBody } from "@/lib/server/http/errors";
import { errorResponse } from "@/lib/server/http/with-auth";

const DEAD = "postgres://postgres@127.0.0.1:1/krug_nowhere";

/** A query on its own connection, ended by pg_terminate_backend from the app's pool (as a restart does). */
async function terminatedQuery(): Promise<unknown> {
  const own = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  try {
    const [{ pid }] = await own<{ pid: number }[]>`select pg_backend_pid() as pid`;
    const pending = own`select pg_sleep(10)`.catch((err: unknown) => err);
    await new Promise((r) => setTimeout(r, 100));
    await getDb().execute(sql`select pg_terminate_backend(${pid})`);
    return await pending;
  } finally {
    await own.end({ timeout: 1 }).catch(() => {});
  }
}

function expectUnavailable(err: unknown) {
  const out = toErrorBody(err, "req-1");
  expect(out.status).toBe(503);
  expect(out.body.error.code).toBe("unavailable");
  expect(out.headers?.["Retry-After"]).toBe(String(DB_UNAVAILABLE_RETRY_AFTER));
  expect(out.unexpected).toBe(false);
}

describe("the database unavailable is 503 with Retry-After, not 500", () => {
  it("a refused connection (postgres.js, through drizzle and bare)", async () => {
    const bare = createSql(DEAD, { max: 1, connect_timeout: 2 });
    const viaDrizzle = await createDb(bare).execute(sql`select 1`).catch((err: unknown) => err);
    expectUnavailable(viaDrizzle);
    const direct = await bare`select 1`.catch((err: unknown) => err);
    expectUnavailable(direct);
    await bare.end({ timeout: 1 });
  });

  it("a backend terminated under a running query (what a restart of Postgres does: 57P01, seen by postgres.js as a closed connection)", async () => {
    const err = await terminatedQuery();
    expect(["57P01", "CONNECTION_CLOSED"]).toContain((err as { code?: string }).code);
    expectUnavailable(err);
  });

  it("node-postgres (the rate limits' driver): refused, and a connection that ends", async () => {
    const refused = new pg.Client({ connectionString: DEAD });
    expectUnavailable(await refused.connect().catch((err: unknown) => err));
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    client.on("error", () => {});
    await client.connect();
    const { rows } = await client.query<{ pid: number }>("select pg_backend_pid() as pid");
    const pending = client.query("select pg_sleep(10)").catch((err: unknown) => err);
    await new Promise((r) => setTimeout(r, 100));
    await getDb().execute(sql`select pg_terminate_backend(${rows[0].pid})`);
    expectUnavailable(await pending);
    await client.end().catch(() => {});
  });

  it("the envelope in the reader's language, with Retry-After", async () => {
    const err = await terminatedQuery();
    for (const [lang, text] of [
      ["en", "Krug is briefly unavailable — please try again in a few seconds."],
      ["ru", "Круг ненадолго недоступен — попробуйте ещё раз через несколько секунд."],
    ]) {
      const res = errorResponse(err, new NextRequest("http://localhost/api/v1/account/me", { headers: { "accept-language": lang } }), "req-2");
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe(String(DB_UNAVAILABLE_RETRY_AFTER));
      expect(await res.json()).toEqual({ error: { code: "unavailable", message: text }, requestId: "req-2" });
    }
  });

  it("other failures keep their answers: a duplicate is 409, a bug is 500", async () => {
    await getDb().execute(sql`create temporary table t_unique (id int primary key)`);
    await getDb().execute(sql`insert into t_unique values (1)`);
    const dup = await getDb().execute(sql`insert into t_unique values (1)`).catch((err: unknown) => err);
    expect(toErrorBody(dup, "r").status).toBe(409);
    expect(toErrorBody(new Error("Connection refused by a bug of ours"), "r").status).toBe(500);
    expect(toErrorBody(new TypeError("x is undefined"), "r").status).toBe(500);
  });
});
