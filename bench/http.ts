// HTTP scenarios (issue 8 item 1): each URL is driven by autocannon at 1 and at 8 connections against
// the running app; req/s, p50, p95 and p99, and the ratio to the trivial handler (GET /api/health) measured
// in the same run. The trivial handler runs first and last; ratios are to the mean of the two, and
// the spread between them says how steady the machine was. Latencies are taken from every 2xx
// response's own timing (autocannon's histogram keeps whole milliseconds only).
import { randomUUID } from "node:crypto";
import http from "node:http";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { createSql } from "@/db/client";
import { hashPassword } from "@/lib/server/auth/password";
import { ACCESS_COOKIE, REFRESH_COOKIE } from "@/lib/server/auth/tokens";
import { REACTION_TYPES } from "@/lib/validation/reactions";
import { perRequest, type CpuSample } from "./cpu";
import type { Graph } from "./generate-graph";

export const BENCH_PASSWORD = "Bench-pass1!";
export const CONNECTIONS = [1, 8] as const;

type Who = "me" | "hub" | null;
/**
 * One measured request. `write` makes it a POST whose path and JSON body come from `write(n)` for the
 * n-th request, so a write scenario spreads over many rows instead of hammering one.
 */
export type Scenario = { name: string; path: string; as: Who; page?: boolean; write?: (n: number) => { path: string; body: string } };

export type Measurement = {
  connections: number;
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU milliseconds per measured request: the app, Postgres and the load generator (bench/cpu.ts), when sampled. */
  cpu?: CpuSample;
};

export type ScenarioResult = Scenario & {
  /** Bytes of one response body (uncompressed, and gzip-compressed here at the default level). */
  bytes: number;
  gzipBytes: number;
  runs: Measurement[];
};

export type People = {
  me: { id: number; email: string };
  hub: { id: number; email: string };
  friendId: number;
  /** Published posts the median account may react to (its friends' posts). */
  reactablePostIds: number[];
  /** The median account's dialog with that friend (made through the API when the run starts). */
  dialogId?: number;
};

export const TRIVIAL = "trivial handler";

export function scenarios(p: People): Scenario[] {
  return [
    { name: "account/me", path: "/api/v1/account/me", as: "me" },
    { name: "account/{id} (a friend)", path: `/api/v1/account/${p.friendId}`, as: "me" },
    { name: "friends list", path: "/api/v1/friends?statusCode=FRIEND&size=3", as: "me" },
    { name: "friends list (hub)", path: "/api/v1/friends?statusCode=FRIEND&size=20", as: "hub" },
    { name: "incoming requests (hub)", path: "/api/v1/friends?statusCode=REQUEST_FROM&size=20", as: "hub" },
    { name: "people search", path: `/api/v1/account/search?firstName=${encodeURIComponent("Iva")}`, as: "me" },
    // Issue 28 section 3 (docs/adr/0136): the header's suggestions and /search send the typed text as author.
    { name: "people search, 1 letter", path: "/api/v1/account/search?author=I&size=5", as: "me" },
    { name: "people search, 2 letters", path: "/api/v1/account/search?author=Iv&size=5", as: "me" },
    { name: "people search, 3 letters", path: "/api/v1/account/search?author=Iva&size=5", as: "me" },
    { name: "people search, whole name", path: `/api/v1/account/search?author=${encodeURIComponent("Ivan Ivanov")}&size=5`, as: "me" },
    { name: "posts feed API", path: "/api/v1/post?withFriends=true", as: "me" },
    // Issue 9: the news verbs at the generated scale (the median account, ~150 friends).
    { name: "news feed page 0", path: "/api/v1/post/newsPosts?withFriends=true", as: "me" },
    { name: "news feed page 10", path: "/api/v1/post/newsPosts?withFriends=true&page=10", as: "me" },
    { name: "a friend's wall", path: `/api/v1/post?accountIds=${p.friendId}`, as: "me" },
    { name: "news search by word", path: `/api/v1/post/newsPosts?text=${encodeURIComponent("кошками")}`, as: "me" },
    { name: "tag prefix", path: `/api/v1/tag?name=tag1`, as: "me" },
    {
      name: "reaction write",
      path: `/api/v1/post/${p.reactablePostIds[0]}/like`,
      as: "me",
      write: (n) => ({
        path: `/api/v1/post/${p.reactablePostIds[n % p.reactablePostIds.length]}/like`,
        body: JSON.stringify({ type: "POST", reactionType: REACTION_TYPES[n % REACTION_TYPES.length] }),
      }),
    },
    // Issue 28's scale-out arithmetic (docs/adr/0146): a chat message sent over REST (one per request, a
    // fresh clientId each) and a sign-in (argon2 in the app; Postgres reads the account and writes a session).
    ...(p.dialogId
      ? [
          {
            name: "message send",
            path: `/api/v1/dialogs/${p.dialogId}/messages`,
            as: "me" as const,
            write: (n: number) => ({
              path: `/api/v1/dialogs/${p.dialogId}/messages`,
              body: JSON.stringify({ messageText: `Сообщение ${n} из замера`, clientId: randomUUID() }),
            }),
          },
        ]
      : []),
    {
      name: "sign-in",
      path: "/api/v1/auth/login",
      as: null,
      write: () => ({ path: "/api/v1/auth/login", body: JSON.stringify({ email: p.me.email, password: BENCH_PASSWORD }) }),
    },
    // The signed-in shell with next to no content (the layout, the viewer, the menu): the floor of every signed-in page.
    { name: "signed-in shell (/calculator)", path: "/calculator", as: "me", page: true },
    { name: "friends page", path: "/friends", as: "me", page: true },
    { name: "/profile", path: "/profile", as: "me", page: true },
    { name: "feed page (/)", path: "/", as: "me", page: true },
    { name: "/login (signed out)", path: "/login", as: null, page: true },
    { name: "/registration (signed out)", path: "/registration", as: null, page: true },
  ];
}

/** The signed-in people of the run: the median account (by friends), the hub, and a friend of the first. */
export async function preparePeople(url: string, graph: Graph): Promise<People> {
  const sql = createSql(url, { max: 1, onnotice: () => {} });
  try {
    // The median account when it can sign in, else the first with a friend (the union's order, not the ids').
    const [me] = await sql<{ id: string; email: string }[]>`
      select id, email from (
        select a.id, a.email, 0 as pref from accounts a
        where a.id = ${graph.typicalId} and not a.is_deleted and not a.is_blocked
        union all
        (select a.id, a.email, 1 from accounts a
         where not a.is_deleted and not a.is_blocked and a.id <> ${graph.hubId}
           and exists (select 1 from friendships f where f.account_id = a.id and f.status_code = 'FRIEND')
         order by a.id limit 1)
      ) c order by pref limit 1`;
    const [hub] = await sql<{ id: string; email: string }[]>`select id, email from accounts where id = ${graph.hubId}`;
    const [friend] = await sql<{ id: string }[]>`
      select f.friend_id as id from friendships f join accounts a on a.id = f.friend_id
      where f.account_id = ${me.id} and f.status_code = 'FRIEND' and not a.is_deleted order by f.friend_id limit 1`;
    const posts = await sql<{ id: string }[]>`
      select p.id from posts p
      join friendships f on f.friend_id = p.author_id
      join accounts a on a.id = p.author_id
      where f.account_id = ${me.id} and f.status_code = 'FRIEND' and not a.is_deleted and not a.is_blocked
        and not p.is_deleted and p.publish_date <= now()
      order by p.publish_date desc limit 500`;
    if (posts.length === 0) throw new Error(`account ${me.id}: no friend has a published post to react to`);
    const hash = await hashPassword(BENCH_PASSWORD);
    await sql`update accounts set password_hash = ${hash} where id in ${sql([me.id, hub.id])}`;
    return {
      me: { id: Number(me.id), email: me.email },
      hub: { id: Number(hub.id), email: hub.email },
      friendId: Number(friend.id),
      reactablePostIds: posts.map((r) => Number(r.id)),
    };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Signs in through the API, as the browser does: the cookies it would send. */
export async function signIn(baseUrl: string, email: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in of ${email} failed: ${res.status} ${await res.text()}`);
  const { accessToken, refreshToken } = (await res.json()) as { accessToken: string; refreshToken: string };
  return `${ACCESS_COOKIE}=${accessToken}; ${REFRESH_COOKIE}=${refreshToken}`;
}

/** The dialog of the signed-in person with another, as the page opens it (POST dialogs {recipientId}). */
async function openDialog(baseUrl: string, cookie: string, recipientId: number): Promise<number> {
  const res = await fetch(`${baseUrl}/api/v1/dialogs`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ recipientId }),
  });
  if (!res.ok) throw new Error(`opening the dialog with ${recipientId} failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { data?: { id?: number }; id?: number };
  const id = body.data?.id ?? body.id;
  if (!id) throw new Error(`opening the dialog with ${recipientId}: no id in ${JSON.stringify(body).slice(0, 200)}`);
  return id;
}

/** One plain request (no compression asked, no redirect followed): status and body size. */
function probe(url: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: Buffer; location?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { headers, method: body === undefined ? "GET" : "POST" }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), location: res.headers.location }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
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

/** autocannon options for a scenario: a plain GET, or POSTs whose path and body change per request. */
function load(url: string, headers: Record<string, string>, s: Scenario): Omit<autocannon.Options, "connections" | "duration"> {
  const write = s.write;
  if (!write) return { url, headers };
  let n = 0;
  const setupRequest = (req: autocannon.Request): autocannon.Request => ({ ...req, method: "POST", ...write(++n) });
  return { url, headers: { ...headers, "content-type": "application/json" }, requests: [{ setupRequest }] };
}

/** Reads the CPU time spent so far (bench/cpu.ts); null where it cannot be read. */
export type Sampler = (() => CpuSample) | null;

async function measure(base: Omit<autocannon.Options, "connections" | "duration">, connections: number, t: Timing, sampler: Sampler): Promise<Measurement> {
  if (t.warmup > 0) await cannon({ ...base, connections, duration: t.warmup });
  const latencies: number[] = [];
  let non2xx = 0;
  const cpuBefore = sampler?.();
  const started = performance.now();
  const result = await cannon({ ...base, connections, duration: t.seconds }, (status, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms);
    else non2xx++;
  });
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = sampler?.();
  latencies.sort((a, b) => a - b);
  return {
    connections,
    requests: latencies.length,
    seconds: round(seconds, 2),
    rps: round(latencies.length / seconds, 1),
    p50: round(percentile(latencies, 0.5), 2),
    p95: round(percentile(latencies, 0.95), 2),
    p99: round(percentile(latencies, 0.99), 2),
    non2xx,
    errors: result.errors + result.timeouts,
    ...(cpuBefore && cpuAfter ? { cpu: perRequest(cpuBefore, cpuAfter, latencies.length + non2xx) } : {}),
  };
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

export async function runScenario(baseUrl: string, s: Scenario, cookie: string | null, t: Timing, sampler: Sampler = null): Promise<ScenarioResult> {
  const url = `${baseUrl}${s.path}`;
  const headers: Record<string, string> = cookie ? { cookie } : {};
  if (s.page) headers.accept = "text/html";
  const sample = s.write?.(0);
  const first = sample
    ? await probe(`${baseUrl}${sample.path}`, { ...headers, "content-type": "application/json" }, sample.body)
    : await probe(url, headers);
  // A write may answer 201 (a message sent); a read must answer 200.
  if (first.status !== 200 && !(sample && first.status === 201)) {
    const verb = sample ? "POST" : "GET";
    throw new Error(`${s.name}: ${verb} ${sample?.path ?? s.path} answered ${first.status}${first.location ? ` → ${first.location}` : ""}, not 200`);
  }
  const runs: Measurement[] = [];
  for (const c of CONNECTIONS) {
    const m = await measure(load(url, headers, s), c, t, sampler);
    // A refused run (a limit, a lost session) would be reported as a fast scenario: it is a broken one.
    if (m.non2xx > m.requests / 100) throw new Error(`${s.name}: ${m.non2xx} of ${m.non2xx + m.requests} answers at ${c} connections were not 2xx`);
    runs.push(m);
  }
  return { ...s, bytes: first.body.length, gzipBytes: gzipSync(first.body).length, runs };
}

export type HttpReport = {
  trivial: { first: ScenarioResult; last: ScenarioResult; rps: Record<number, number>; p50: Record<number, number> };
  scenarios: ScenarioResult[];
};

/** Every scenario, the trivial handler first and last; the signed-in ones sign in just before they run. */
export async function runHttpScenarios(baseUrl: string, people: People, t: Timing, log: (m: string) => void, sampler: Sampler = null): Promise<HttpReport> {
  const trivial: Scenario = { name: TRIVIAL, path: "/api/health", as: null };
  const show = (r: ScenarioResult) =>
    log(`  ${r.name.padEnd(28)} ${r.runs.map((m) => `${m.connections}c ${m.rps.toFixed(0).padStart(5)} req/s p50/p95/p99 ${m.p50.toFixed(2)}/${m.p95.toFixed(2)}/${m.p99.toFixed(2)} ms`).join("   ")}`);
  const first = await runScenario(baseUrl, trivial, null, t, sampler);
  show(first);
  people.dialogId ??= await openDialog(baseUrl, await signIn(baseUrl, people.me.email), people.friendId);
  const results: ScenarioResult[] = [];
  // BENCH_HTTP_MATCH (a regular expression on the scenario name) measures a subset, e.g. "news feed page 0".
  const match = process.env.BENCH_HTTP_MATCH ? new RegExp(process.env.BENCH_HTTP_MATCH) : null;
  for (const s of scenarios(people).filter((x) => !match || match.test(x.name))) {
    const cookie = s.as ? await signIn(baseUrl, people[s.as].email) : null;
    const r = await runScenario(baseUrl, s, cookie, t, sampler);
    show(r);
    results.push(r);
  }
  const last = await runScenario(baseUrl, trivial, null, t, sampler);
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
