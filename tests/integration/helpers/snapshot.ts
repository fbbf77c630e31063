// Every table of every schema and every uploaded file, to compare a restored copy with the original (issue 30 §1).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { listFiles } from "@/lib/server/backup/files";

export type Snapshot = { tables: Record<string, string>; files: Record<string, string> };

/** Every table of every schema (row count and a digest of all rows in a fixed order), and every uploaded file's hash. */
export async function snapshot(url: string, dataDir: string): Promise<Snapshot> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const tables: Record<string, string> = {};
    const list = await sql<{ s: string; t: string }[]>`
      select schemaname as s, tablename as t from pg_tables
      where schemaname not in ('pg_catalog', 'information_schema') order by 1, 2`;
    for (const { s, t } of list) {
      const [row] = await sql.unsafe<{ n: number; digest: string }[]>(
        `select count(*)::int as n, md5(coalesce(string_agg(x::text, E'\\n' order by x::text), '')) as digest from "${s}"."${t}" x`,
      );
      tables[`${s}.${t}`] = `${row.n}:${row.digest}`;
    }
    const files: Record<string, string> = {};
    const uploads = path.join(dataDir, "uploads");
    for (const rel of await listFiles(uploads)) files[rel] = createHash("sha256").update(readFileSync(path.join(uploads, rel))).digest("hex");
    return { tables, files };
  } finally {
    await sql.end();
  }
}

