import "server-only";
import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "./schema";
import { guardDroppedTypeFetch } from "./type-fetch-guard";

export type Db = PostgresJsDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

type Cache = { url: string; sql: postgres.Sql; db: Db };
const globalForDb = globalThis as unknown as { __krugDb?: Cache };

export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set (npm start sets it for the embedded database)");
  return url;
}

/**
 * Seconds before the next reconnect once the database has been away `retries` times in a row. postgres.js
 * waits 3^n/100 s, capped at 20 s (halved at random): after a restart of a few seconds its listening
 * connection could stay down another 20 s, and with it every live frame and /api/ready. Krug caps the wait
 * at 4 s (docs/adr/0184): one process's handful of connections knocking every 2–4 s costs a recovering
 * server nothing.
 */
export const RECONNECT_BACKOFF_CAP_S = 4;
export function reconnectBackoff(retries: number): number {
  return (0.5 + Math.random() / 2) * Math.min(3 ** retries / 100, RECONNECT_BACKOFF_CAP_S);
}

/**
 * Every connection of the app runs with JIT compilation off (docs/adr/0159). Postgres decides JIT by a
 * statement's estimated cost, and a cached plan compiles again on every execution: the feed's timeline
 * statement, estimated above the thresholds once a few thousand posts waited for their fan-out, spent
 * ~600 ms of CPU compiling to answer in 1 ms. Krug's statements are short reads of a few index ranges,
 * which JIT never pays back.
 */
export function createSql(url: string, options: postgres.Options<Record<string, never>> = {}) {
  guardDroppedTypeFetch();
  const target = postgresTarget(url);
  return postgres(target.url, {
    ...target.options,
    max: 10,
    idle_timeout: 30,
    connect_timeout: 10,
    backoff: reconnectBackoff,
    onnotice: () => {},
    ...options,
    connection: { jit: "off", ...options.connection },
  });
}

/**
 * A connection URL as postgres.js takes it. libpq's form for a Unix socket, `?host=<directory>` (what
 * npm start hands Krug's processes for the embedded database, docs/adr/0191, and what node-postgres and
 * the Postgres tools read), is one postgres.js would send to the server as a setting: it becomes the
 * `host` option here (postgres.js connects to <directory>/.s.PGSQL.<port>).
 */
export function postgresTarget(url: string): { url: string; options: { host?: string } } {
  const at = url.indexOf("?");
  if (at < 0) return { url, options: {} };
  const query = new URLSearchParams(url.slice(at + 1));
  const host = query.get("host");
  if (!host || !host.startsWith("/")) return { url, options: {} };
  query.delete("host");
  const rest = query.toString();
  return { url: url.slice(0, at) + (rest ? `?${rest}` : ""), options: { host } };
}

type Unsafe = postgres.Sql["unsafe"];
type Begin = (...args: unknown[]) => unknown;

/**
 * drizzle sends every query it was not given a name for with postgres.js's `prepare: false`: an
 * unnamed statement whose parameter types postgres.js first asks the server for, so two round trips
 * and a fresh parse and plan per query. This client runs every parameterised query as postgres.js's
 * own cached prepared statement instead (one round trip; docs/adr/0090), inside transactions and
 * savepoints too. Queries without parameters (migrations' multi-statement DDL) are left as they are.
 */
export function preparing(sql: postgres.Sql): postgres.Sql {
  const withPrepared = (begin: Begin): Begin => (...args) => {
    const fn = args.pop() as (c: postgres.Sql) => unknown;
    return begin(...args, (c: postgres.Sql) => fn(preparing(c)));
  };
  return new Proxy(sql, {
    get(target, prop, receiver) {
      if (prop === "unsafe") {
        const unsafe: Unsafe = (query, params, options) =>
          target.unsafe(query, params, params && params.length > 0 ? { ...options, prepare: true } : options);
        return unsafe;
      }
      if (prop === "begin" || prop === "savepoint") {
        const original = Reflect.get(target, prop, receiver) as Begin | undefined;
        return original && withPrepared(original.bind(target));
      }
      return Reflect.get(target, prop, receiver);
    },
  });
}

type AfterCommit = (db: Db) => Promise<void>;
const afterCommitHooks = new WeakMap<object, AfterCommit[]>();

/**
 * Runs `fn` once the outermost transaction `tx` has committed (never after a rollback), before its
 * `transaction()` call returns. False when `tx` is not an outermost transaction of this module's Db
 * (a savepoint): the caller then does its work inside the transaction instead.
 */
export function afterCommit(tx: Tx, fn: AfterCommit): boolean {
  const hooks = afterCommitHooks.get(tx);
  if (!hooks) return false;
  hooks.push(fn);
  return true;
}

export function createDb(sql: postgres.Sql): Db {
  const db = drizzle({ client: preparing(sql), schema, casing: "snake_case" });
  const transaction = db.transaction.bind(db);
  db.transaction = (async (fn, config) => {
    const hooks: AfterCommit[] = [];
    const result = await transaction(async (tx) => {
      afterCommitHooks.set(tx, hooks);
      return fn(tx);
    }, config);
    for (const hook of hooks) await hook(db);
    return result;
  }) as Db["transaction"];
  return db;
}

/**
 * One pool per process, kept on globalThis so hot reload in development does not leak connections.
 * Tests point DATABASE_URL at their own database before the first call.
 */
export function getDb(): Db {
  const url = databaseUrl();
  const cached = globalForDb.__krugDb;
  if (cached && cached.url === url) return cached.db;
  const sql = createSql(url);
  const db = createDb(sql);
  globalForDb.__krugDb = { url, sql, db };
  return db;
}

export function getSql(): postgres.Sql {
  getDb();
  return globalForDb.__krugDb!.sql;
}

export async function closeDb(): Promise<void> {
  const cached = globalForDb.__krugDb;
  globalForDb.__krugDb = undefined;
  if (cached) await cached.sql.end({ timeout: 5 });
}
