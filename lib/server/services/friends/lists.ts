import "server-only";
import { ForbiddenError } from "@/lib/server/http/errors";
import { sql, type SQL } from "drizzle-orm";
import { pageOf, type Page } from "@/lib/server/http/response";
import {
  FRIEND_TABS,
  friendListQuery,
  incomingRequestsQuery,
  noQuery,
  type FriendCounts,
  type FriendListItem,
  type FriendListQuery,
  type FriendStatus,
  type FriendTab,
  type IncomingRequestsQuery,
} from "@/lib/validation/friends";
import { requireViewer, type ServiceCtx } from "../context";
import { iso, isoTime, summaryColumns, toFriendSummary, type SummaryRow } from "./summary";

// Every list here is the viewer's own: the account id always comes from the session, never from input.
// Relations with a deleted (restorable) account are hidden from lists and counts alike, so a tab's
// number always matches its rows; they reappear when the account is restored.

type ListRow = SummaryRow & {
  id: string;
  friend_id: string;
  status_code: FriendStatus;
  previous_status_code: FriendStatus | null;
  updated_at: string;
};

// A relation with a deleted account is dropped with NOT EXISTS rather than an inner join on
// accounts: the planner then anti-joins against the few deleted accounts (accounts_deleted_idx) or
// probes per row, instead of hashing the whole accounts table for a 5,000-friend range.
const NOT_DELETED = (friendId: SQL) => sql`not exists (select 1 from accounts d where d.id = ${friendId} and d.is_deleted)`;

/**
 * One page of one status. The inner scan is ordered exactly like friendships_account_status_idx
 * (DESC NULLS LAST as drizzle builds it; ASC NULLS FIRST is the same index read backwards), reads only
 * index columns (index-only) and stops after offset + size entries; only the page's rows then fetch
 * their relation id and the account summary.
 */
export function listPageQuery(accountId: number, status: FriendTab, page: number, size: number, sort: "updatedAt,desc" | "updatedAt,asc"): SQL {
  const order = (t: string) =>
    sort === "updatedAt,asc"
      ? sql.raw(`${t}.updated_at asc nulls first, ${t}.friend_id asc nulls first`)
      : sql.raw(`${t}.updated_at desc nulls last, ${t}.friend_id desc nulls last`);
  return sql`
    select f.id, f.friend_id, f.status_code, f.previous_status_code, ${isoTime(sql`f.updated_at`)} as updated_at, ${summaryColumns}
    from (
      select k.friend_id, k.updated_at from friendships k
      where k.account_id = ${accountId} and k.status_code = ${status} and ${NOT_DELETED(sql`k.friend_id`)}
      order by ${order("k")}
      limit ${size} offset ${page * size}
    ) k
    join friendships f on f.account_id = ${accountId} and f.friend_id = k.friend_id
    join accounts a on a.id = k.friend_id
    order by ${order("k")}`;
}

export function listCountQuery(accountId: number, status: FriendTab): SQL {
  return sql`
    select count(*) as count from friendships f
    where f.account_id = ${accountId} and f.status_code = ${status} and ${NOT_DELETED(sql`f.friend_id`)}`;
}

/** The six tab counts in one pass over the viewer's index range. */
export function tabCountsQuery(accountId: number): SQL {
  return sql`
    select f.status_code, count(*) as count from friendships f
    where f.account_id = ${accountId} and f.status_code <> 'REJECTING' and ${NOT_DELETED(sql`f.friend_id`)}
    group by f.status_code`;
}

async function listByStatus(
  ctx: ServiceCtx,
  accountId: number,
  status: FriendTab,
  page: number,
  size: number,
  sort: "updatedAt,desc" | "updatedAt,asc",
): Promise<Page<FriendListItem>> {
  const db = ctx.tx ?? ctx.db;
  const [rows, [total]] = await Promise.all([
    db.execute<ListRow>(listPageQuery(accountId, status, page, size, sort)),
    db.execute<{ count: string }>(listCountQuery(accountId, status)),
  ]);
  const now = new Date();
  const content = rows.map(
    (r): FriendListItem => ({
      id: Number(r.id),
      friendId: Number(r.friend_id),
      statusCode: r.status_code,
      previousStatusCode: r.previous_status_code,
      updatedAt: iso(r.updated_at)!,
      account: toFriendSummary(r, now, ctx.locale, r.status_code),
    }),
  );
  return pageOf(content, Number(total.count), page, size);
}

/** GET friends — the viewer's relations of one status (default FRIEND), newest first, paged. */
export async function listFriends({ ctx, input }: { ctx: ServiceCtx; input: FriendListQuery }) {
  const viewer = requireViewer(ctx);
  // A deleted account sees only its own page until it is restored.
  if (viewer.isDeleted) throw new ForbiddenError("accountErrors.accountDeleted");
  const q = friendListQuery.parse(input);
  return listByStatus(ctx, viewer.id, q.statusCode, q.page, q.size, q.sort);
}

/** GET friends/request — incoming friend requests (REQUEST_FROM), newest first, paged. */
export async function listIncomingRequests({ ctx, input }: { ctx: ServiceCtx; input: IncomingRequestsQuery }) {
  const viewer = requireViewer(ctx);
  // A deleted account sees only its own page until it is restored.
  if (viewer.isDeleted) throw new ForbiddenError("accountErrors.accountDeleted");
  const q = incomingRequestsQuery.parse(input);
  return listByStatus(ctx, viewer.id, "REQUEST_FROM", q.page, q.size, q.sort);
}

/** GET friends/count — `{count}` of incoming friend requests (the sidebar badge). */
export async function countIncomingRequests({ ctx, input = {} }: { ctx: ServiceCtx; input?: Record<string, unknown> }) {
  const viewer = requireViewer(ctx);
  noQuery.parse(input);
  const [row] = await (ctx.tx ?? ctx.db).execute<{ count: string }>(listCountQuery(viewer.id, "REQUEST_FROM"));
  return { count: Number(row.count) };
}

/** GET friends/counts — the number on each of the six /friends tabs, in one query. */
export async function countFriendsByStatus({ ctx, input = {} }: { ctx: ServiceCtx; input?: Record<string, unknown> }): Promise<FriendCounts> {
  const viewer = requireViewer(ctx);
  noQuery.parse(input);
  const rows = await (ctx.tx ?? ctx.db).execute<{ status_code: FriendStatus; count: string }>(tabCountsQuery(viewer.id));
  const counts = Object.fromEntries(FRIEND_TABS.map((t) => [t, 0])) as FriendCounts;
  for (const r of rows) if (r.status_code in counts) counts[r.status_code as FriendTab] = Number(r.count);
  return counts;
}
