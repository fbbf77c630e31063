// Two Krug instances in one test process (issue 43): each its own database (cloned from the migrated
// template), its own HTTP server on 127.0.0.1 and PUBLIC_URL-like origin, its own Fedify with its queue and
// outbox relay running — so a Follow, a post or an Undo crosses real HTTP with real signatures between them.
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { inject } from "vitest";
import { createDb, createSql, getDb, getSql, type Db } from "@/db/client";
import { listenLocal, prepareJobQueues, startKrugPeer, type Peer } from "../../support/krug-peer";

export type { Peer };

/**
 * An instance. `own` uses the test file's database (getDb(): what the suite's helpers write to);
 * otherwise a fresh database is cloned for it and dropped by stop().
 */
export async function startPeer(own: boolean): Promise<Peer> {
  const { server, origin } = await listenLocal();
  let dropDb: (() => Promise<void>) | undefined;
  let db: Db;
  let pg: postgres.Sql;
  if (own) {
    db = getDb();
    pg = getSql();
  } else {
    const name = `krug_p_${randomBytes(6).toString("hex")}`;
    const admin = new URL(inject("pgServerUrl"));
    admin.pathname = "/postgres";
    const adminSql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
    await adminSql.unsafe(`create database ${name} template ${inject("templateDb")}`);
    const url = new URL(inject("pgServerUrl"));
    url.pathname = `/${name}`;
    await prepareJobQueues(url.toString());
    pg = createSql(url.toString(), { max: 6 });
    db = createDb(pg);
    dropDb = async () => {
      await pg.end({ timeout: 5 });
      await adminSql.unsafe(`drop database if exists ${name} with (force)`);
      await adminSql.end();
    };
  }
  return startKrugPeer({ server, origin, db, sql: pg, onStop: dropDb });
}

/** Polls `probe` until it returns something other than undefined/false/null, or fails after `ms`. */
export async function eventually<T>(probe: () => Promise<T | null | undefined | false>, what: string, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
