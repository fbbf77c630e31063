// The signed-in API request path in this process (`npm run bench -- --only=path`, docs/adr/0090, 0091).
//
// 1. Stage timings, each next to the way it was done before (interleaved round by round, so a busy
//    machine slows both alike and the ratio stays readable): the access-token check (jose's WebCrypto
//    path, and node:crypto's HMAC now), resolveViewer (drizzle building the SQL on every call, and the
//    prepared query now), account/me (the viewer, then the account read; and the one query now), the
//    request log line and the JSON response.
// 2. Statements per request of the four signed-in scenarios the issue names, counted by calling the
//    app's own route handlers here with a client that counts what it sends (and the rate limiter's pool),
//    plus each one's mean time per call. Statement counts do not depend on the machine's load.
import { and, eq, gt, isNull } from "drizzle-orm";
import { jwtVerify } from "jose";
import { NextRequest } from "next/server";
import pino from "pino";
import { GET as accountById } from "@/app/api/v1/account/[id]/route";
import { GET as accountMe } from "@/app/api/v1/account/me/route";
import { GET as accountSearch } from "@/app/api/v1/account/search/route";
import { GET as friendsList } from "@/app/api/v1/friends/route";
import { closeDb, createDb, createSql, type Db } from "@/db/client";
import { accounts, sessions } from "@/db/schema";
import { tokenFromHeaders, verifyAccessToken } from "@/lib/server/auth/tokens";
import { resolveViewer, resolveViewerAccount } from "@/lib/server/auth/viewer";
import { env } from "@/lib/server/env";
import { closeRateLimitStore } from "@/lib/server/http/rate-limit";
import { log } from "@/lib/server/log";
import { getMyAccount, readAccountFor } from "@/lib/server/services/accounts/get-account";
import { openSession } from "@/lib/server/services/auth/sessions";

type Row = { name: string; us: number[] };
export type RoutePath = { name: string; statements: number; rateLimit: number; us: number };
export type RequestPathReport = { stages: Row[]; routes: RoutePath[] };

async function timeOnce(fn: () => unknown, n: number): Promise<number> {
  const t = performance.now();
  for (let i = 0; i < n; i++) await fn();
  return ((performance.now() - t) / n) * 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The access-token check as it was before docs/adr/0091: jose, the key imported on every call. */
async function joseCheck(token: string, secret: string) {
  const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { issuer: "krug", algorithms: ["HS256"] });
  return { accountId: Number(payload.sub), sessionId: String(payload.sid) };
}

/** resolveViewer as it was: jose, and the query built by drizzle on every call. */
async function viewerAsItWas(db: Db, token: string, secret: string) {
  const claims = await joseCheck(token, secret);
  const [row] = await db
    .select({ id: accounts.id, role: accounts.role, isDeleted: accounts.isDeleted, isBlocked: accounts.isBlocked, language: accounts.language })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(and(eq(sessions.id, claims.sessionId), eq(sessions.accountId, claims.accountId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())))
    .limit(1);
  if (!row || row.isBlocked) return null;
  return { id: row.id, sessionId: claims.sessionId, role: row.role, isDeleted: row.isDeleted, language: row.language };
}

/** Counts what one postgres.js client sends (its `debug` hook sees every statement). */
type Counter = { n: number };

/** The route handlers of the four scenarios, called as Next calls them. */
function routes(friendId: number): { name: string; path: string; call: (req: NextRequest) => Promise<Response> }[] {
  const none = { params: Promise.resolve({} as Record<string, never>) };
  return [
    { name: "account/me", path: "/api/v1/account/me", call: (req) => accountMe(req, none) },
    { name: "account/{id}", path: `/api/v1/account/${friendId}`, call: (req) => accountById(req, { params: Promise.resolve({ id: String(friendId) }) }) },
    { name: "friends list", path: "/api/v1/friends?statusCode=FRIEND&size=3", call: (req) => friendsList(req, none) },
    { name: "people search", path: `/api/v1/account/search?firstName=${encodeURIComponent("Iva")}`, call: (req) => accountSearch(req, none) },
  ];
}

type RateLimitPool = { query: (...args: unknown[]) => unknown };

/** Wraps the rate limiter's pg pool (made on its first use) so its statements are counted too. */
function countRateLimits(counter: Counter): void {
  const store = (globalThis as unknown as { __krugRateLimits?: { pool: RateLimitPool } }).__krugRateLimits;
  if (!store || (store.pool as { counted?: boolean }).counted) return;
  const query = store.pool.query.bind(store.pool);
  store.pool.query = (...args: unknown[]) => {
    counter.n++;
    return query(...args);
  };
  (store.pool as { counted?: boolean }).counted = true;
}

async function routeStatements(url: string, cookie: string, friendId: number, perRoute: number): Promise<RoutePath[]> {
  const statements: Counter = { n: 0 };
  const limits: Counter = { n: 0 };
  // The app's own pool (getDb), made here with a counting hook instead of on first use.
  await closeDb();
  const sql = createSql(url, { debug: () => void statements.n++ });
  (globalThis as unknown as { __krugDb?: unknown }).__krugDb = { url, sql, db: createDb(sql) };
  const out: RoutePath[] = [];
  // Each call writes its request line as in production; here they would only flood the terminal.
  const level = log.level;
  log.level = "warn";
  try {
    for (const r of routes(friendId)) {
      const request = () => new NextRequest(new URL(r.path, "http://localhost:3000"), { headers: { cookie } });
      const first = await r.call(request());
      if (first.status !== 200) throw new Error(`${r.name}: ${first.status} ${await first.text()}`);
      countRateLimits(limits);
      for (let i = 0; i < 10; i++) await (await r.call(request())).arrayBuffer();
      statements.n = 0;
      limits.n = 0;
      const t = performance.now();
      for (let i = 0; i < perRoute; i++) await (await r.call(request())).arrayBuffer();
      const us = ((performance.now() - t) / perRoute) * 1000;
      out.push({ name: r.name, statements: statements.n / perRoute, rateLimit: limits.n / perRoute, us });
    }
  } finally {
    log.level = level;
    await closeRateLimitStore();
    await closeDb();
  }
  return out;
}

export async function benchRequestPath(url: string, accountId: number, opts: { rounds: number; perRound: number }): Promise<RequestPathReport> {
  const secret = env().AUTH_SECRET;
  const sql = createSql(url, { max: 1 });
  const db = createDb(sql);
  try {
    const [friend] = await sql<{ id: string }[]>`
      select friend_id as id from friendships where account_id = ${accountId} and status_code = 'FRIEND' order by friend_id limit 1`;
    if (!friend) throw new Error(`account ${accountId} has no friend to look at`);
    const friendId = Number(friend.id);
    const pair = await db.transaction((tx) => openSession(tx, { accountId, userAgent: "bench" }));
    const token = pair.accessToken;
    const cookie = `access_token=${token}; refresh_token=${pair.refreshToken}; NEXT_LOCALE=ru`;
    const viewer = await resolveViewer(db, token, secret);
    if (!viewer) throw new Error("bench session did not resolve");
    const ctx = { viewer, db, requestId: "bench" };
    // The app's logger configuration, writing to /dev/null: the cost of one line without filling the terminal.
    const sink = pino({ level: "info", timestamp: pino.stdTimeFunctions.isoTime, redact: { paths: ["password", "*.password", "token", "*.token"], remove: true } }, pino.destination({ dest: "/dev/null", sync: true }));
    const silent = log.child({}, { level: "silent" });
    const dto = await getMyAccount({ ctx });
    const stages: [string, () => unknown][] = [
      ["cookie → token", () => tokenFromHeaders({ authorization: null, cookie })],
      ["token check, jose (as it was)", () => joseCheck(token, secret)],
      ["token check, node:crypto", () => verifyAccessToken(token, secret)],
      ["resolveViewer, built per call (was)", () => viewerAsItWas(db, token, secret)],
      ["resolveViewer, prepared", () => resolveViewer(db, token, secret)],
      ["account read alone, prepared", () => readAccountFor(db, viewer.id, viewer.id)],
      [
        "account/me, viewer then read (was)",
        async () => {
          const v = await viewerAsItWas(db, token, secret);
          return getMyAccount({ ctx: { ...ctx, viewer: v } });
        },
      ],
      [
        "account/me, one query",
        async () => {
          const found = await resolveViewerAccount(db, token, secret);
          return getMyAccount({ ctx: { ...ctx, viewer: found!.viewer }, own: found!.account });
        },
      ],
      ["request log line (level info)", () => sink.info({ requestId: "bench", method: "GET", path: "/api/v1/account/me", status: 200, durationMs: 1, accountId }, "request")],
      ["request log line (silenced)", () => silent.info({ requestId: "bench" }, "request")],
      ["Response.json of account/me", () => Response.json(dto)],
    ];
    const rows: Row[] = stages.map(([name]) => ({ name, us: [] }));
    for (const [, fn] of stages) for (let i = 0; i < 20; i++) await fn();
    for (let r = 0; r < opts.rounds; r++) {
      for (let s = 0; s < stages.length; s++) rows[s].us.push(await timeOnce(stages[s][1], opts.perRound));
    }
    const routesReport = await routeStatements(url, cookie, friendId, opts.perRound);
    return { stages: rows, routes: routesReport };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export function printRequestPath(report: RequestPathReport): void {
  console.log("\nsigned-in request path, per call (median of rounds, µs):");
  for (const r of report.stages) console.log(`  ${r.name.padEnd(38)} ${median(r.us).toFixed(0).padStart(7)}`);
  console.log("\nroute handlers in this process: statements per request (app pool + rate limiter), mean µs per call:");
  for (const r of report.routes) {
    console.log(`  ${r.name.padEnd(16)} ${r.statements.toFixed(2).padStart(5)} + ${r.rateLimit.toFixed(2)}   ${r.us.toFixed(0).padStart(7)} µs`);
  }
}
