import "server-only";
import { sql } from "drizzle-orm";
import { afterCommit, type DbOrTx, type Tx } from "@/db/client";

/**
 * The servers the administrators blocked (issue 43, docs/adr/0174), as a set per database read at most every
 * 30 s per process: every inbox POST asks, so the answer is a lookup in memory. A block or an unblock made
 * in this process is seen at once; another process sees it within 30 s.
 */
const TTL_MS = 30_000;
const cache = new WeakMap<object, { at: number; generation: number; hosts: Set<string> }>();
let generation = 0;

export async function blockedServers(db: DbOrTx): Promise<Set<string>> {
  const key = db as object;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < TTL_MS && hit.generation === generation) return hit.hosts;
  const rows = await db.execute<{ host: string }>(sql`select host from fediverse_blocked_servers`);
  const entry = { at: Date.now(), generation, hosts: new Set(rows.map((r) => r.host)) };
  cache.set(key, entry);
  return entry.hosts;
}

/** Whether `host` (lowercase, with its port when not the default) is blocked. */
export async function isServerBlocked(db: DbOrTx, host: string): Promise<boolean> {
  return (await blockedServers(db)).has(host.toLowerCase());
}

/** After a block or an unblock commits, this process reads the set again. */
export function forgetBlockedServers(tx: Tx): void {
  generation++;
  afterCommit(tx, async () => {
    generation++;
  });
}
