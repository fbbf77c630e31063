import "server-only";
import type { KvKey, KvStoreListEntry } from "@fedify/fedify";
import { PostgresKvStore } from "@fedify/postgres";
import type postgres from "postgres";

const TABLE = "fedify_kv_v2";

/**
 * Fedify's key–value store on Krug's database (@fedify/postgres, its table `fedify_kv_v2`), with the
 * `list` that Fedify 2 requires and the driver's release for Fedify 1.8 does not have yet: the live
 * entries whose key starts with the prefix, read by the primary key's range.
 */
export class KrugKvStore extends PostgresKvStore {
  readonly #sql: postgres.Sql;

  constructor(sql: postgres.Sql) {
    super(sql);
    this.#sql = sql;
  }

  async *list(prefix: KvKey = [] as unknown as KvKey): AsyncIterable<KvStoreListEntry> {
    await this.initialize();
    const keys = [...prefix];
    const rows = await this.#sql<{ key: string[]; value: unknown }[]>`
      select key, value from ${this.#sql(TABLE)}
       where key[1:${keys.length}] = ${keys}::text[] and (ttl is null or created + ttl > current_timestamp)
       order by key`;
    for (const row of rows) yield { key: row.key as unknown as KvKey, value: row.value };
  }
}
