// The session check's cost to Postgres, per request, in this process (docs/adr/0135):
//   node --conditions=react-server --import tsx bench/session-check.ts
// Calls the app's own `GET account/me` and `GET friends/count` route handlers as the median account
// (BENCH_DATABASE_URL, else DATABASE_URL) and reads the CPU time of exactly the Postgres backends that
// served them (tagged by application_name, read from /proc), so other work on a shared host does not
// count. Rounds alternate between the session cache off (every check reads the database) and on (warm),
// so a busy machine slows both alike. On a tree without the cache only the first mode runs: that is how
// the "before" figure was taken (a second checkout of the previous commit).
// BENCH_SESSION_CALLS (per round, default 2000), BENCH_SESSION_ROUNDS (default 5).
import { readFileSync } from "node:fs";
import postgres from "postgres";

const url = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL;
if (!url) throw new Error("BENCH_DATABASE_URL or DATABASE_URL");
const tag = `krug-bench-session-${process.pid}`;
// Every pool this process opens (the app's own getDb() included) carries this name; the listener names itself.
process.env.PGAPPNAME = tag;
process.env.DATABASE_URL = url;
process.env.LOG_LEVEL = "silent";
process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret-0123";
const CALLS = Number(process.env.BENCH_SESSION_CALLS ?? 2000);
const ROUNDS = Number(process.env.BENCH_SESSION_ROUNDS ?? 5);

const { NextRequest } = await import("next/server");
const { GET: accountMe } = await import("@/app/api/v1/account/me/route");
const { GET: friendsCount } = await import("@/app/api/v1/friends/count/route");
const { getDb, closeDb } = await import("@/db/client");
const { openSession } = await import("@/lib/server/services/auth/sessions");
type CacheModule = typeof import("@/lib/server/auth/session-cache");
const cacheModule: CacheModule | null = await import("@/lib/server/auth/session-cache").catch(() => null);

const admin = postgres(url, { max: 1, onnotice: () => {}, connection: { application_name: `${tag}-admin` } });

function ticksOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10; // USER_HZ = 100: ms
  } catch {
    return 0;
  }
}

async function backends(name: string): Promise<number[]> {
  const rows = await admin<{ pid: number }[]>`select pid from pg_stat_activity where application_name = ${name}`;
  return rows.map((r) => r.pid);
}

async function cpuMs(name: string): Promise<number> {
  return (await backends(name)).reduce((sum, pid) => sum + ticksOf(pid), 0);
}

const [me] = await admin<{ id: string }[]>`
  select id from accounts where not is_deleted and not is_blocked and id >= ${Number(process.env.BENCH_ACCOUNT_ID ?? 18573)} order by id limit 1`;
const accountId = Number(me.id);
const db = getDb();
const pair = await db.transaction((tx) => openSession(tx, { accountId, userAgent: "bench/session-check" }));
const cookie = `access_token=${pair.accessToken}`;

const routes = [
  { name: "account/me", call: () => accountMe(new NextRequest("http://localhost/api/v1/account/me", { headers: { cookie } }), { params: Promise.resolve({}) }) },
  { name: "friends/count", call: () => friendsCount(new NextRequest("http://localhost/api/v1/friends/count", { headers: { cookie } }), { params: Promise.resolve({}) }) },
];

let cache: Awaited<ReturnType<CacheModule["startSessionCache"]>> | undefined;
if (cacheModule) {
  cache = new cacheModule.SessionCache({ url, name: `${tag}-listener` });
  await cache.start();
}
const modes = cacheModule ? (["database", "cache"] as const) : (["database"] as const);
type Tally = { cpu: number; calls: number; us: number[] };
const tally = new Map<string, Tally>();
const listenerStart = await cpuMs(`${tag}-listener`);
const started = performance.now();

for (let round = 0; round < ROUNDS; round++) {
  for (const route of routes) {
    for (const mode of modes) {
      cacheModule?.installSessionCache(mode === "cache" ? cache : undefined);
      const first = await route.call();
      if (first.status !== 200) throw new Error(`${route.name}: ${first.status}`);
      await first.text();
      const before = await cpuMs(tag);
      const t = performance.now();
      for (let i = 0; i < CALLS; i++) {
        const res = await route.call();
        await res.text();
      }
      const us = ((performance.now() - t) / CALLS) * 1000;
      const after = await cpuMs(tag);
      const key = `${route.name} · ${mode}`;
      const row = tally.get(key) ?? { cpu: 0, calls: 0, us: [] };
      row.cpu += after - before;
      row.calls += CALLS;
      row.us.push(us);
      tally.set(key, row);
    }
  }
}
const seconds = (performance.now() - started) / 1000;
const listenerMs = (await cpuMs(`${tag}-listener`)) - listenerStart;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`account ${accountId}; ${ROUNDS} rounds × ${CALLS} calls per route and mode; Postgres CPU of this process's backends only`);
console.log("| route · session check | Postgres CPU ms/request | µs/request in-process (median of rounds) |");
console.log("|---|---:|---:|");
for (const [key, row] of tally) console.log(`| ${key} | ${(row.cpu / row.calls).toFixed(3)} | ${median(row.us).toFixed(0)} |`);
if (cache) console.log(`listener (LISTEN + ping every 250 ms): ${(listenerMs / seconds).toFixed(2)} ms of Postgres CPU per second over ${seconds.toFixed(0)} s`);

await admin`update sessions set revoked_at = now() where user_agent = 'bench/session-check' and revoked_at is null`;
await cache?.stop();
await closeDb();
await admin.end();
process.exit(0);
