import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { ValidationError } from "@/lib/server/http/errors";
import {
  ADMIN_ERRORS,
  consoleStatisticParams,
  consoleStatisticQuery,
  statisticsQuery,
  STATS_MAX_DAYS,
  STATS_MAX_MONTHS,
  type ConsoleStatistic,
  type Statistics,
  type StatisticsTotals,
} from "@/lib/validation/admin";
import type { ServiceCtx } from "../context";
import { parseAdmin, requireStaff } from "./access";

// Activity statistics (issue 13, docs/adr/0083). "New" means created in the period, whatever happened to
// the row since (deleted and blocked items were activity too). Days and months are UTC. Each series is
// one grouped range scan of a time index per kind; totals are counted over all time.

type Kind = keyof StatisticsTotals;
const KINDS: Kind[] = ["accounts", "posts", "comments", "reactions", "communities"];
/**
 * Where each kind is counted: its table and time column (an index on it). `live`, when set, narrows the
 * all-time total to the rows that are there now (issue 42: the communities neither deleted nor blocked);
 * the series and the periods count what was created, as for every kind.
 */
const SOURCE: Record<Kind, { table: string; column: string; live?: string }> = {
  accounts: { table: "accounts", column: "created_at" },
  posts: { table: "posts", column: "time" },
  comments: { table: "comments", column: "time" },
  reactions: { table: "post_reactions", column: "created_at" },
  communities: { table: "communities", column: "created_at", live: "not is_deleted and not is_blocked" },
};
const CONSOLE_KIND: Record<"account" | "post" | "comment" | "like", Kind> = {
  account: "accounts",
  post: "posts",
  comment: "comments",
  like: "reactions",
};

type Unit = "hour" | "day" | "month";

const DAY_MS = 86_400_000;

function startOfDay(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}
function startOfMonth(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
}
function addMonths(d: Date, n: number): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1));
}
const dayKey = (d: Date) => d.toISOString().slice(0, 10);

/** Counts of `kind` created in [start, end) per `unit` (UTC), keyed by the bucket's ISO start. */
async function bucketCounts(db: DbOrTx, kind: Kind, unit: Unit, start: Date, end: Date): Promise<Map<string, number>> {
  const { table, column } = SOURCE[kind];
  const col = sql.raw(column);
  const rows = await db.execute<{ bucket: string; count: string }>(sql`
    select to_char(date_trunc(${unit}, ${col} at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as bucket, count(*) as count
    from ${sql.raw(table)}
    where ${col} >= ${start.toISOString()}::timestamptz and ${col} < ${end.toISOString()}::timestamptz
    group by 1`);
  return new Map(rows.map((r) => [r.bucket, Number(r.count)]));
}

/** Rows of `kind` created in [start, end); a missing bound is open; with neither, the live ones (SOURCE.live). */
async function countBetween(db: DbOrTx, kind: Kind, start: Date | null, end: Date | null): Promise<number> {
  const { table, column, live } = SOURCE[kind];
  const col = sql.raw(column);
  const from = start ? sql`${col} >= ${start.toISOString()}::timestamptz` : sql`true`;
  const to = end ? sql`${col} < ${end.toISOString()}::timestamptz` : sql`true`;
  const now = live && !start && !end ? sql.raw(live) : sql`true`;
  const [row] = await db.execute<{ count: string }>(sql`select count(*) as count from ${sql.raw(table)} where ${from} and ${to} and ${now}`);
  return Number(row.count);
}

async function totalsOf(db: DbOrTx, start: Date | null, end: Date | null): Promise<StatisticsTotals> {
  const counts = await Promise.all(KINDS.map((k) => countBetween(db, k, start, end)));
  return Object.fromEntries(KINDS.map((k, i) => [k, counts[i]])) as StatisticsTotals;
}

/** Bucket starts from `start` (inclusive) to `end` (exclusive). */
function buckets(unit: Unit, start: Date, end: Date): Date[] {
  const out: Date[] = [];
  for (let d = start; d < end; d = unit === "month" ? addMonths(d, 1) : new Date(d.getTime() + (unit === "day" ? DAY_MS : 3_600_000))) {
    out.push(d);
  }
  return out;
}

/**
 * GET admin/statistics — new accounts, posts, comments, reactions and communities per day or month over [from, to]
 * (default: the last 30 days, or the last 12 months), the totals of the period and of the one before it,
 * and all-time totals (of communities: the live ones). Staff only.
 */
export async function getStatistics({ ctx, input, now = new Date() }: { ctx: ServiceCtx; input: unknown; now?: Date }): Promise<Statistics> {
  requireStaff(ctx);
  const q = parseAdmin(statisticsQuery, input);
  const db = ctx.tx ?? ctx.db;
  let start: Date;
  let end: Date;
  if (q.interval === "day") {
    const last = startOfDay(q.to ?? now);
    start = startOfDay(q.from ?? new Date(last.getTime() - 29 * DAY_MS));
    end = new Date(last.getTime() + DAY_MS);
    if ((end.getTime() - start.getTime()) / DAY_MS > STATS_MAX_DAYS) throw new ValidationError(ADMIN_ERRORS.rangeTooLong, [{ path: "from", message: ADMIN_ERRORS.rangeTooLong }]);
  } else {
    const last = startOfMonth(q.to ?? now);
    start = startOfMonth(q.from ?? addMonths(last, -11));
    end = addMonths(last, 1);
    if (buckets("month", start, end).length > STATS_MAX_MONTHS) throw new ValidationError(ADMIN_ERRORS.rangeTooLong, [{ path: "from", message: ADMIN_ERRORS.rangeTooLong }]);
  }
  const previousStart = q.interval === "day" ? new Date(start.getTime() - (end.getTime() - start.getTime())) : addMonths(start, -buckets("month", start, end).length);
  const [maps, totals, previousPeriod] = await Promise.all([
    Promise.all(KINDS.map((k) => bucketCounts(db, k, q.interval, start, end))),
    totalsOf(db, null, null),
    totalsOf(db, previousStart, start),
  ]);
  const series = buckets(q.interval, start, end).map((d) => {
    const key = d.toISOString().replace(".000Z", "Z");
    const point = { date: q.interval === "day" ? dayKey(d) : dayKey(d).slice(0, 7) } as Statistics["series"][number];
    KINDS.forEach((k, i) => (point[k] = maps[i].get(key) ?? 0));
    return point;
  });
  const period = Object.fromEntries(KINDS.map((k) => [k, series.reduce((s, p) => s + p[k], 0)])) as StatisticsTotals;
  return {
    interval: q.interval,
    from: dayKey(start),
    to: dayKey(new Date(end.getTime() - 1)),
    series,
    totals,
    period,
    previousPeriod,
  };
}

/**
 * GET admin-console/statistic/{account|post|comment|like}?date=&firstMonth=&lastMonth= — the original
 * client's call: the total up to `date`, new per hour on that day, and new per month from firstMonth to
 * lastMonth (default: the 12 months up to `date`).
 */
export async function getConsoleStatistic({
  ctx,
  input,
  now = new Date(),
}: {
  ctx: ServiceCtx;
  input: { kind: unknown; query: unknown };
  now?: Date;
}): Promise<ConsoleStatistic> {
  requireStaff(ctx);
  const { kind: consoleKind } = parseAdmin(consoleStatisticParams, { kind: input.kind });
  const q = parseAdmin(consoleStatisticQuery, input.query);
  const kind = CONSOLE_KIND[consoleKind];
  const db = ctx.tx ?? ctx.db;
  const date = q.date ?? now;
  const day = startOfDay(date);
  const lastMonth = startOfMonth(q.lastMonth ?? date);
  const firstMonth = startOfMonth(q.firstMonth ?? addMonths(lastMonth, -11));
  const monthEnd = addMonths(lastMonth, 1);
  if (buckets("month", firstMonth, monthEnd).length > STATS_MAX_MONTHS) {
    throw new ValidationError(ADMIN_ERRORS.rangeTooLong, [{ path: "firstMonth", message: ADMIN_ERRORS.rangeTooLong }]);
  }
  const dayEnd = new Date(day.getTime() + DAY_MS);
  const [count, hours, months] = await Promise.all([
    countBetween(db, kind, null, date.getTime() === day.getTime() ? dayEnd : date),
    bucketCounts(db, kind, "hour", day, dayEnd),
    bucketCounts(db, kind, "month", firstMonth, monthEnd),
  ]);
  const iso = (d: Date) => d.toISOString().replace(".000Z", "Z");
  return {
    date: date.toISOString(),
    count,
    countPerHours: buckets("hour", day, dayEnd).map((d) => ({ date: iso(d), count: hours.get(iso(d)) ?? 0 })),
    countPerMonth: buckets("month", firstMonth, monthEnd).map((d) => ({ date: iso(d), count: months.get(iso(d)) ?? 0 })),
  };
}
