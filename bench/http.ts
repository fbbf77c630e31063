// HTTP scenarios (issue 8 item 1): each URL is driven by autocannon at 1 and at 8 connections against
// the running app; req/s, p50 and p99, and the ratio to the trivial handler (GET /api/health) measured
// in the same run. The trivial handler runs first and last; ratios are to the mean of the two, and
// the spread between them says how steady the machine was. Latencies are taken from every 2xx
// response's own timing (autocannon's histogram keeps whole milliseconds only).
import http from "node:http";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import postgres from "postgres";
import { hashPassword } from "@/lib/server/auth/password";
import { ACCESS_COOKIE, REFRESH_COOKIE } from "@/lib/server/auth/tokens";
import type { Graph } from "./generate-graph";

export const BENCH_PASSWORD = "Bench-pass1!";
export const CONNECTIONS = [1, 8] as const;

type Who = "me" | "hub" | null;
export type Scenario = { name: string; path: string; as: Who; page?: boolean };

export type Measurement = {
  connections: number;
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
};

export type ScenarioResult = Scenario & {
  /** Bytes of one response body (uncompressed, and gzip-compressed here at the default level). */
  bytes: number;
  gzipBytes: number;
  runs: Measurement[];
};

export type People = { me: { id: number; email: string }; hub: { id: number; email: string }; friendId: number };

export const TRIVIAL = "trivial handler";

export function scenarios(p: People): Scenario[] {
  return [
    { name: "account/me", path: "/api/v1/account/me", as: "me" },
    { name: "account/{id} (a friend)", path: `/api/v1/account/${p.friendId}`, as: "me" },
    { name: "friends list", path: "/api/v1/friends?statusCode=FRIEND&size=3", as: "me" },
    { name: "friends list (hub)", path: "/api/v1/friends?statusCode=FRIEND&size=20", as: "hub" },
    { name: "incoming requests (hub)", path: "/api/v1/friends?statusCode=REQUEST_FROM&size=20", as: "hub" },
    { name: "people search", path: `/api/v1/account/search?firstName=${encodeURIComponent("Iva")}`, as: "me" },
    { name: "posts feed API", path: "/api/v1/post?withFriends=true", as: "me" },
    { name: "friends page", path: "/friends", as: "me", page: true },
    { name: "/profile", path: "/profile", as: "me", page: true },
    { name: "feed page (/)", path: "/", as: "me", page: true },
    { name: "/login (signed out)", path: "/login", as: null, page: true },
    { name: "/registration (signed out)", path: "/registration", as: null, page: true },
  ];
}

/** The signed-in people of the run: the median account (by friends), the hub, and a friend of the first. */
export async function preparePeople(url: string, graph: Graph): Promise<People> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [me] = await sql<{ id: string; email: string }[]>`
      select a.id, a.email from accounts a
      where a.id = ${graph.typicalId} and not a.is_deleted and not a.is_blocked
      union all
      select a.id, a.email from accounts a
      where not a.is_deleted and not a.is_blocked and a.id <> ${graph.hubId}
        and exists (select 1 from friendships f where f.account_id = a.id and f.status_code = 'FRIEND')
      order by 1 limit 1`;
    const [hub] = await sql<{ id: string; email: string }[]>`select id, email from accounts where id = ${graph.hubId}`;
    const [friend] = await sql<{ id: string }[]>`
      select f.friend_id as id from friendships f join accounts a on a.id = f.friend_id
      where f.account_id = ${me.id} and f.status_code = 'FRIEND' and not a.is_deleted order by f.friend_id limit 1`;
    const hash = await hashPassword(BENCH_PASSWORD);
    await sql`update accounts set password_hash = ${hash} where id in ${sql([me.id, hub.id])}`;
    return { me: { id: Number(me.id), email: me.email }, hub: { id: Number(hub.id), email: hub.email }, friendId: Number(friend.id) };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Signs in through the API, as the browser does: the cookies it would send. */
async function signIn(baseUrl: string, email: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in of ${email} failed: ${res.status} ${await res.text()}`);
  const { accessToken, refreshToken } = (await res.json()) as { accessToken: string; refreshToken: string };
  return `${ACCESS_COOKIE}=${accessToken}; ${REFRESH_COOKIE}=${refreshToken}`;
}

/** One plain request (no compression asked, no redirect followed): status and body size. */
function probe(url: string, headers: Record<string, string>): Promise<{ status: number; body: Buffer; location?: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), location: res.headers.location }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

function cannon(opts: autocannon.Options, onResponse?: (status: number, ms: number) => void): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
    if (onResponse) instance.on("response", (_client, status, _bytes, ms) => onResponse(status, ms));
  });
}

/** Seconds measured, and seconds of unmeasured warm-up before (JIT, caches, lazily loaded route modules). */
export type Timing = { seconds: number; warmup: number };

async function measure(url: string, headers: Record<string, string>, connections: number, t: Timing): Promise<Measurement> {
  if (t.warmup > 0) await cannon({ url, headers, connections, duration: t.warmup });
  const latencies: number[] = [];
  let non2xx = 0;
  const started = performance.now();
  const result = await cannon({ url, headers, connections, duration: t.seconds }, (status, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms);
    else non2xx++;
  });
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    connections,
    requests: latencies.length,
    seconds: round(seconds, 2),
    rps: round(latencies.length / seconds, 1),
    p50: round(percentile(latencies, 0.5), 2),
    p99: round(percentile(latencies, 0.99), 2),
    non2xx,
    errors: result.errors + result.timeouts,
  };
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

export async function runScenario(baseUrl: string, s: Scenario, cookie: string | null, t: Timing): Promise<ScenarioResult> {
  const url = `${baseUrl}${s.path}`;
  const headers: Record<string, string> = cookie ? { cookie } : {};
  if (s.page) headers.accept = "text/html";
  const first = await probe(url, headers);
  if (first.status !== 200) {
    throw new Error(`${s.name}: GET ${s.path} answered ${first.status}${first.location ? ` → ${first.location}` : ""}, not 200`);
  }
  const runs: Measurement[] = [];
  for (const c of CONNECTIONS) runs.push(await measure(url, headers, c, t));
  return { ...s, bytes: first.body.length, gzipBytes: gzipSync(first.body).length, runs };
}

export type HttpReport = {
  trivial: { first: ScenarioResult; last: ScenarioResult; rps: Record<number, number>; p50: Record<number, number> };
  scenarios: ScenarioResult[];
};

/** Every scenario, the trivial handler first and last; the signed-in ones sign in just before they run. */
export async function runHttpScenarios(baseUrl: string, people: People, t: Timing, log: (m: string) => void): Promise<HttpReport> {
  const trivial: Scenario = { name: TRIVIAL, path: "/api/health", as: null };
  const show = (r: ScenarioResult) =>
    log(`  ${r.name.padEnd(28)} ${r.runs.map((m) => `${m.connections}c ${m.rps.toFixed(0).padStart(5)} req/s p50 ${m.p50.toFixed(2)} ms`).join("   ")}`);
  const first = await runScenario(baseUrl, trivial, null, t);
  show(first);
  const results: ScenarioResult[] = [];
  for (const s of scenarios(people)) {
    const cookie = s.as ? await signIn(baseUrl, people[s.as].email) : null;
    const r = await runScenario(baseUrl, s, cookie, t);
    show(r);
    results.push(r);
  }
  const last = await runScenario(baseUrl, trivial, null, t);
  show(last);
  const rps: Record<number, number> = {};
  const p50: Record<number, number> = {};
  for (const c of CONNECTIONS) {
    const a = first.runs.find((m) => m.connections === c)!;
    const b = last.runs.find((m) => m.connections === c)!;
    rps[c] = round((a.rps + b.rps) / 2, 1);
    p50[c] = round((a.p50 + b.p50) / 2, 2);
  }
  return { trivial: { first, last, rps, p50 }, scenarios: results };
}
