// `node --conditions=react-server --import tsx bench/route-cpu.ts [rounds]`: this process's CPU per call of
// the app's own route handlers for account/me and the news feed's page 0 (docs/adr/0153), called here
// with a NextRequest as Next calls them, 8 at a time, against DATABASE_URL (the bench database, signed in
// as ROUTE_CPU_ACCOUNT, default the median account 18573). What it leaves out is Next's own machinery
// and the socket to the client, the same for every route; what it keeps is ours: the wrapper, the session
// check, postgres.js and drizzle, the DTOs, the JSON and the access log (stdout: send it to /dev/null).
// Rounds alternate the routes, so a busy host slows both alike; medians of CPU µs per call are printed.
import { NextRequest } from "next/server";
import { GET as accountMe } from "@/app/api/v1/account/me/route";
import { GET as health } from "@/app/api/health/route";
import { GET as newsPosts } from "@/app/api/v1/post/newsPosts/route";
import { closeDb, getDb } from "@/db/client";
import { openSession } from "@/lib/server/services/auth/sessions";

const rounds = Number(process.argv[2] ?? 7);
const perRound = Number(process.env.ROUTE_CPU_CALLS ?? 2000);
const concurrency = 8;
const accountId = Number(process.env.ROUTE_CPU_ACCOUNT ?? 18573);

const db = getDb();
const pair = await db.transaction((tx) => openSession(tx, { accountId, userAgent: "route-cpu" }));
const cookie = `access_token=${pair.accessToken}; refresh_token=${pair.refreshToken}`;
const none = { params: Promise.resolve({} as Record<string, never>) };

const allRoutes = [
  // The trivial handler, with the request Next would build for it: what every route costs here anyway.
  { name: "trivial handler", url: "http://127.0.0.1:3000/api/health", call: async (r: NextRequest) => (r.headers.get("cookie"), health()) },
  { name: "account/me", url: "http://127.0.0.1:3000/api/v1/account/me", call: (r: NextRequest) => accountMe(r, none) },
  { name: "news feed page 0", url: "http://127.0.0.1:3000/api/v1/post/newsPosts?withFriends=true", call: (r: NextRequest) => newsPosts(r, none) },
];
/** ROUTE_CPU_ONLY: a regular expression on the route names (one route for a clean profile). */
const routes = allRoutes.filter((r) => new RegExp(process.env.ROUTE_CPU_ONLY ?? ".").test(r.name));

async function drive(route: (typeof routes)[number], n: number): Promise<number> {
  let left = n;
  const worker = async () => {
    while (left-- > 0) {
      const res = await route.call(new NextRequest(route.url, { headers: { cookie, "x-krug-client-address": "127.0.0.1" } }));
      if (res.status !== 200) throw new Error(`${route.name}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
  };
  const t = process.cpuUsage();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const d = process.cpuUsage(t);
  return (d.user + d.system) / n;
}

for (const r of routes) await drive(r, perRound); // warm-up: JIT, prepared statements, caches
const results = new Map<string, number[]>(routes.map((r) => [r.name, []]));
for (let i = 0; i < rounds; i++) for (const r of routes) results.get(r.name)!.push(await drive(r, perRound));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, us] of results) {
  console.error(`${name.padEnd(18)} median ${median(us).toFixed(1)} µs CPU per call (rounds: ${us.map((x) => x.toFixed(0)).join(", ")})`);
}
await closeDb();
process.exit(0);
