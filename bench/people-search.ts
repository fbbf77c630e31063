// People search at the generated scale (`npm run bench -- --only=search`, issue 28 section 3, docs/adr/0136):
// GET account/search's service verb for one, two and three letters, the "Iva" first name, a whole
// name and a Cyrillic prefix of the Latin bench names, as the median account. Each is called on a pool of
// ONE connection, so the Postgres backend serving it is known: its CPU time is read from
// /proc/<pid>/schedstat (nanoseconds on the CPU) around every round, and reported per call beside the wall
// time — the database's cost per request (ADR 0104's Postgres column) without the other processes a shared
// host runs. Rounds are interleaved across the queries; medians over rounds. `--explain` prints EXPLAIN
// (ANALYZE, BUFFERS) of each query's page and count statements.
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { createDb, createSql } from "@/db/client";
import type { Viewer } from "@/lib/server/auth/viewer";
import { nameSearchStatements, searchAccounts } from "@/lib/server/services/accounts/search-accounts";

export const PEOPLE_SEARCHES: { name: string; input: Record<string, string> }[] = [
  { name: "1 letter (author=I)", input: { author: "I" } },
  { name: "2 letters (author=Iv)", input: { author: "Iv" } },
  { name: "3 letters (author=Iva)", input: { author: "Iva" } },
  { name: "3 letters (firstName=Iva)", input: { firstName: "Iva" } },
  { name: "3 letters, other script (author=Ива)", input: { author: "Ива" } },
  { name: "whole name (author=Ivan Ivanov)", input: { author: "Ivan Ivanov" } },
  { name: "first name (author=Ivan)", input: { author: "Ivan" } },
  { name: "page 20 (author=Iva&page=20)", input: { author: "Iva", page: "20" } },
];

export type SearchTiming = { name: string; wallMs: number; pgCpuMs: number | null; total: number; rounds: number };

/** CPU nanoseconds a process has run (first field of /proc/<pid>/schedstat); null where it cannot be read. */
export function cpuNs(pid: number): number | null {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]);
  } catch {
    return null;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchPeopleSearch(url: string, viewerId: number, opts: { rounds: number; perRound: number; explain: boolean }): Promise<SearchTiming[]> {
  const client = createSql(url, { max: 1 });
  const db = createDb(client);
  try {
    const [{ pid }] = await client<{ pid: number }[]>`select pg_backend_pid() as pid`;
    const viewer: Viewer = { id: viewerId, sessionId: "bench", role: "USER", isDeleted: false, language: "ru" };
    const ctx = { viewer, db, requestId: "bench" };
    const totals = new Map<string, number>();
    for (const s of PEOPLE_SEARCHES) {
      for (let i = 0; i < 10; i++) totals.set(s.name, (await searchAccounts({ ctx, input: s.input })).totalElements);
    }
    const wall = new Map<string, number[]>(PEOPLE_SEARCHES.map((s) => [s.name, []]));
    const cpu = new Map<string, number[]>(PEOPLE_SEARCHES.map((s) => [s.name, []]));
    for (let r = 0; r < opts.rounds; r++) {
      for (const s of PEOPLE_SEARCHES) {
        const c0 = cpuNs(pid);
        const t0 = performance.now();
        for (let i = 0; i < opts.perRound; i++) await searchAccounts({ ctx, input: s.input });
        const t1 = performance.now();
        const c1 = cpuNs(pid);
        wall.get(s.name)!.push((t1 - t0) / opts.perRound);
        if (c0 !== null && c1 !== null) cpu.get(s.name)!.push((c1 - c0) / 1e6 / opts.perRound);
      }
    }
    if (opts.explain) {
      for (const s of PEOPLE_SEARCHES) {
        const statements = nameSearchStatements(viewer, s.input);
        if (!statements) continue;
        for (const [which, statement] of Object.entries(statements)) {
          const plan = await db.execute<{ "QUERY PLAN": string }>(sql`explain (analyze, buffers) ${statement}`);
          console.log(`\n-- ${s.name}: ${which}\n${plan.map((p) => p["QUERY PLAN"]).join("\n")}`);
        }
      }
    }
    const round = (x: number) => Math.round(x * 1000) / 1000;
    return PEOPLE_SEARCHES.map((s) => ({
      name: s.name,
      wallMs: round(median(wall.get(s.name)!)),
      pgCpuMs: cpu.get(s.name)!.length ? round(median(cpu.get(s.name)!)) : null,
      total: totals.get(s.name) ?? 0,
      rounds: opts.rounds,
    }));
  } finally {
    await client.end({ timeout: 5 });
  }
}

export function printPeopleSearch(rows: SearchTiming[]): void {
  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(`\npeople search, the median account, one connection (median of ${rows[0]?.rounds ?? 0} rounds; ms per call):`);
  console.log(`${"query".padEnd(width)}  ${"wall".padStart(7)}  ${"PG CPU".padStart(7)}  ${"total".padStart(7)}`);
  for (const r of rows) {
    console.log(`${r.name.padEnd(width)}  ${r.wallMs.toFixed(2).padStart(7)}  ${(r.pgCpuMs?.toFixed(2) ?? "—").padStart(7)}  ${String(r.total).padStart(7)}`);
  }
}
