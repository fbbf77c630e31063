import "server-only";
import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "./schema";

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

export function createSql(url: string, options: postgres.Options<Record<string, never>> = {}) {
  return postgres(url, {
    max: 10,
    idle_timeout: 30,
    connect_timeout: 10,
    onnotice: () => {},
    ...options,
  });
}

export function createDb(sql: postgres.Sql): Db {
  return drizzle({ client: sql, schema, casing: "snake_case" });
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
