// The signed-in API request path, stage by stage, in this process (`npm run bench -- --only=path`):
// cookie parsing, the access-token check, the session and account read (resolveViewer), the handler's
// own read (account/me), the request log line, and the JSON response. The reads are timed through the
// app's drizzle client (parameterised queries as cached prepared statements, docs/adr/0090) and through
// plain drizzle (each query unnamed: parse, describe and plan every time), interleaved round by round,
// so a busy machine slows both alike and the ratio stays readable.
import { drizzle } from "drizzle-orm/postgres-js";
import pino from "pino";
import { createDb, createSql } from "@/db/client";
import * as schema from "@/db/schema";
import { tokenFromHeaders, verifyAccessToken } from "@/lib/server/auth/tokens";
import { resolveViewer } from "@/lib/server/auth/viewer";
import { env } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import { getMyAccount } from "@/lib/server/services/accounts/get-account";
import { openSession } from "@/lib/server/services/auth/sessions";

type Row = { name: string; us: number[] };

async function timeOnce(fn: () => unknown, n: number): Promise<number> {
  const t = performance.now();
  for (let i = 0; i < n; i++) await fn();
  return ((performance.now() - t) / n) * 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchRequestPath(url: string, accountId: number, opts: { rounds: number; perRound: number }): Promise<Row[]> {
  const secret = env().AUTH_SECRET;
  const sql = createSql(url, { max: 1 });
  const prepared = createDb(sql);
  const plain = drizzle({ client: sql, schema, casing: "snake_case" });
  try {
    const pair = await prepared.transaction((tx) => openSession(tx, { accountId, userAgent: "bench" }));
    const token = pair.accessToken;
    const cookie = `access_token=${token}; refresh_token=${pair.refreshToken}; NEXT_LOCALE=ru`;
    const viewer = await resolveViewer(prepared, token, secret);
    if (!viewer) throw new Error("bench session did not resolve");
    const ctx = (db: typeof prepared) => ({ viewer, db, requestId: "bench" });
    // The app's logger configuration, writing to /dev/null: the cost of one line without filling the terminal.
    const sink = pino({ level: "info", timestamp: pino.stdTimeFunctions.isoTime, redact: { paths: ["password", "*.password", "token", "*.token"], remove: true } }, pino.destination({ dest: "/dev/null", sync: true }));
    const silent = log.child({}, { level: "silent" });
    const dto = await getMyAccount({ ctx: ctx(prepared) });
    const stages: [string, () => unknown][] = [
      ["cookie → token", () => tokenFromHeaders({ authorization: null, cookie })],
      ["access-token check (HS256)", () => verifyAccessToken(token, secret)],
      ["resolveViewer, plain drizzle", () => resolveViewer(plain, token, secret)],
      ["resolveViewer, prepared", () => resolveViewer(prepared, token, secret)],
      ["account/me read, plain drizzle", () => getMyAccount({ ctx: ctx(plain) })],
      ["account/me read, prepared", () => getMyAccount({ ctx: ctx(prepared) })],
      ["request log line (level info)", () => sink.info({ requestId: "bench", method: "GET", path: "/api/v1/account/me", status: 200, durationMs: 1, accountId }, "request")],
      ["request log line (silenced)", () => silent.info({ requestId: "bench" }, "request")],
      ["Response.json of account/me", () => Response.json(dto)],
    ];
    const rows: Row[] = stages.map(([name]) => ({ name, us: [] }));
    for (const [, fn] of stages) for (let i = 0; i < 20; i++) await fn();
    for (let r = 0; r < opts.rounds; r++) {
      for (let s = 0; s < stages.length; s++) rows[s].us.push(await timeOnce(stages[s][1], opts.perRound));
    }
    return rows;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export function printRequestPath(rows: Row[]): void {
  console.log("\nsigned-in request path, per call (median of rounds, µs):");
  for (const r of rows) console.log(`  ${r.name.padEnd(34)} ${median(r.us).toFixed(0).padStart(7)}`);
}
