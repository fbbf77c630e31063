import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { ForbiddenError } from "@/lib/server/http/errors";
import { pageOf, type Page } from "@/lib/server/http/response";
import { parseInput } from "@/lib/server/services/posts/shared";
import {
  markReadInput,
  NOTIFICATION_PAGE_SIZE,
  notificationPageQuery,
  type NotificationCount,
  type NotificationDto,
  type NotificationList,
} from "@/lib/validation/notifications";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { notificationJson } from "./produce";

// Reads of issue 12. Every read is of the viewer's own rows (receiver_id = viewer): nobody else's
// notifications are reachable by any parameter.

function ownViewer(ctx: ServiceCtx) {
  const viewer = requireViewer(ctx);
  // A deleted account sees no bell (spec section 1); its reads are refused like its writes.
  if (viewer.isDeleted) throw new ForbiddenError("accountErrors.accountDeleted");
  return viewer;
}

// Exactly the key of notifications_receiver_time_idx (forwards for desc, backwards for asc).
const NEWEST = sql`n.sent_time desc nulls last, n.id desc nulls last`;
const OLDEST = sql`n.sent_time asc nulls first, n.id asc nulls first`;

async function readPage(db: DbOrTx, receiverId: number, page: number, size: number, desc: boolean): Promise<NotificationDto[]> {
  const rows = await db.execute<{ dto: NotificationDto | string }>(sql`
    select ${notificationJson(sql`n`, sql`au`)} as dto
    from (select * from notifications n where n.receiver_id = ${receiverId}
          order by ${desc ? NEWEST : OLDEST} limit ${size} offset ${page * size}) n
    left join accounts au on au.id = n.author_id
    order by ${desc ? NEWEST : OLDEST}`);
  return rows.map((r) => (typeof r.dto === "string" ? (JSON.parse(r.dto) as NotificationDto) : r.dto));
}

async function total(db: DbOrTx, receiverId: number): Promise<number> {
  const [row] = await db.execute<{ count: string }>(sql`select count(*) as count from notifications where receiver_id = ${receiverId}`);
  return Number(row.count);
}

/** GET notifications/page?page=&size=&sort=sentTime,desc|asc — the paging envelope of the viewer's notifications. */
export async function pageNotifications({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<Page<NotificationDto>> {
  const viewer = ownViewer(ctx);
  const q = parseInput(notificationPageQuery, input);
  const db = ctx.tx ?? ctx.db;
  const [content, count] = await Promise.all([readPage(db, viewer.id, q.page, q.size, q.sort === "sentTime,desc"), total(db, viewer.id)]);
  return pageOf(content, count, q.page, q.size);
}

/** GET notifications — the spec's list form: the newest 20 with the totals. */
export async function listNotifications({ ctx }: { ctx: ServiceCtx }): Promise<NotificationList> {
  const viewer = ownViewer(ctx);
  const db = ctx.tx ?? ctx.db;
  const [notifications, count] = await Promise.all([readPage(db, viewer.id, 0, NOTIFICATION_PAGE_SIZE, true), total(db, viewer.id)]);
  return { notifications, content: notifications, totalElements: count, totalPages: Math.ceil(count / NOTIFICATION_PAGE_SIZE) };
}

/** The unread count of one account (index-only over the partial unread index). */
export async function unreadCount(db: DbOrTx, accountId: number): Promise<number> {
  const [row] = await db.execute<{ count: string }>(sql`
    select count(*) as count from notifications where receiver_id = ${accountId} and not is_read`);
  return Number(row.count);
}

/** GET notifications/count — `{count}` of the viewer's unread notifications. */
export async function countNotifications({ ctx }: { ctx: ServiceCtx }): Promise<NotificationCount> {
  const viewer = ownViewer(ctx);
  const count = await unreadCount(ctx.tx ?? ctx.db, viewer.id);
  return { count, data: { count } };
}

/**
 * PUT notifications/readed — marks the viewer's notifications read: all of them, or (issue 27, the bell
 * marking what it shows) only the given ids among the viewer's own; answers the new unread count.
 */
export async function markAllRead({ ctx, input = {} }: { ctx: ServiceCtx; input?: unknown }): Promise<{ count: number }> {
  const viewer = ownViewer(ctx);
  const { ids } = parseInput(markReadInput, input);
  return withTransaction(ctx, async (tx) => {
    await tx.execute(
      ids
        ? sql`update notifications set is_read = true where receiver_id = ${viewer.id} and id = any(${`{${ids.join(",")}}`}::bigint[]) and not is_read`
        : sql`update notifications set is_read = true where receiver_id = ${viewer.id} and not is_read`,
    );
    return { count: await unreadCount(tx, viewer.id) };
  });
}
