// Two app instances on one database, for the session cache's tests (docs/adr/0135, 0155): A is this
// process's own (getDb()'s pool and the installed cache, which the routes use), B a second, independent
// one (its own pg pool, its own cache with its own LISTEN connection). Nothing is mocked.
import { afterAll, beforeAll } from "vitest";
import postgres from "postgres";
import { createDb, createSql, databaseUrl, type Db } from "@/db/client";
import { installSessionCache, SessionCache } from "@/lib/server/auth/session-cache";

export type TwoInstances = { cacheA: SessionCache; cacheB: SessionCache; dbB: Db };

/** Starts both before the file's tests and stops them after; the fields are set once beforeAll ran. */
export function twoInstances(name: string): TwoInstances {
  const both = {} as TwoInstances;
  let sqlB: postgres.Sql;
  beforeAll(async () => {
    both.cacheA = new SessionCache({ url: databaseUrl(), name: `krug-test-${name}-a` });
    both.cacheB = new SessionCache({ url: databaseUrl(), name: `krug-test-${name}-b` });
    await Promise.all([both.cacheA.start(), both.cacheB.start()]);
    installSessionCache(both.cacheA);
    sqlB = createSql(databaseUrl(), { max: 2 });
    both.dbB = createDb(sqlB);
  });
  afterAll(async () => {
    installSessionCache(undefined);
    await Promise.all([both.cacheA.stop(), both.cacheB.stop()]);
    await sqlB.end({ timeout: 5 });
  });
  return both;
}
