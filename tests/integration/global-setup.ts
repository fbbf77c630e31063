import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "@/db/embedded";
import { runMigrations } from "@/db/migrate";

declare module "vitest" {
  export interface ProvidedContext {
    pgServerUrl: string;
    templateDb: string;
  }
}

/** The template's name changes whenever a migration does, so a stale template is never cloned. */
function templateName(): string {
  const dir = path.join(process.cwd(), "drizzle");
  const hash = createHash("sha256");
  for (const f of readdirSync(dir).filter((f) => f.endsWith(".sql")).sort()) hash.update(readFileSync(path.join(dir, f)));
  return `krug_tpl_${hash.digest("hex").slice(0, 12)}`;
}

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

let embedded: EmbeddedDatabase | undefined;
const runsDir = path.join(process.cwd(), ".data-test", "runs");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Integration tests run against DATABASE_URL's server when set (CI: the machine's Postgres), else an
 * embedded one under .data-test. A migrated template database is made once; each suite clones it.
 */
export async function setup(project: TestProject) {
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    // Concurrent runs share the test cluster; each registers itself and the last one out stops it.
    mkdirSync(runsDir, { recursive: true });
    writeFileSync(path.join(runsDir, String(process.pid)), "");
    embedded = await startEmbeddedPostgres({ dataDir: path.join(process.cwd(), ".data-test"), shared: true });
    serverUrl = embedded.url;
  }
  const admin = postgres(withDatabase(serverUrl, "postgres"), { max: 1, onnotice: () => {} });
  const name = templateName();
  try {
    const exists = await admin`select 1 from pg_database where datname = ${name}`;
    if (exists.length === 0) {
      const building = `${name}_build_${process.pid}`;
      await admin.unsafe(`drop database if exists ${building}`);
      await admin.unsafe(`create database ${building}`);
      await runMigrations(withDatabase(serverUrl, building));
      try {
        await admin.unsafe(`alter database ${building} rename to ${name}`);
      } catch {
        // A concurrent run made the same template first; theirs is identical.
        await admin.unsafe(`drop database if exists ${building}`);
      }
    }
    // Each run marks the template it uses; another tree's template (other migrations) goes only once no
    // run has used it for two hours, so two working copies can run their suites side by side.
    await admin.unsafe(`comment on database ${name} is '${Date.now()}'`);
    const stale = await admin<{ datname: string; used: string | null }[]>`
      select datname, shobj_description(oid, 'pg_database') as used from pg_database
       where datname like 'krug\\_tpl\\_%' and datname <> ${name} and datname not like '%\\_build\\_%'`;
    for (const { datname, used } of stale) {
      if (Number(used) > Date.now() - 2 * 3600_000) continue;
      await admin.unsafe(`drop database if exists ${datname} with (force)`);
    }
  } finally {
    await admin.end();
  }
  project.provide("pgServerUrl", serverUrl);
  project.provide("templateDb", name);
}

export async function teardown() {
  if (!embedded) return;
  rmSync(path.join(runsDir, String(process.pid)), { force: true });
  const others = readdirSync(runsDir).filter((f) => alive(Number(f)));
  if (others.length === 0) await embedded.stop();
}
