import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { NotFoundError } from "@/lib/server/http/errors";
import { pageOf, type Page } from "@/lib/server/http/response";
import {
  ADMIN_ERRORS,
  adminContentQuery,
  blockInput,
  idParams,
  type AdminCommentDto,
  type AdminPostDto,
} from "@/lib/validation/admin";
import { keptOnPost, shiftCommentCounts } from "../comments/comments";
import { queueTimelineSync } from "../posts/home-timeline";
import { withTransaction, type ServiceCtx } from "../context";
import { parseAdmin, requireStaff } from "./access";
import { recordAudit } from "./audit";
import { excerpt, notify, QUOTE_MAX } from "../notifications/produce";

// Publications and comments for moderation (issue 13): lists newest first by creation time
// (posts_time_idx / comments_time_idx, read backwards and stopped after offset + size) and block/unblock.
// Totals are exact up to COUNT_CAP.

export const COUNT_CAP = 10_000;

type Filters = { text?: string; author?: string; dateFrom?: Date; dateTo?: Date; blocked?: boolean };

function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/\s+/g, " ").replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** An author by id ("42") or by a part of the full name (the trigram index of accounts). */
function authorFilter(column: SQL, author: string): SQL {
  if (/^\d{1,15}$/.test(author)) return sql`${column} = ${Number(author)}`;
  return sql`${column} in (select n.id from accounts n where lower(n.first_name || ' ' || n.last_name) like ${likePattern(author)})`;
}

/** The filters both lists share, on the row alias `x`. */
function common(f: Filters): SQL[] {
  const out: SQL[] = [sql`not x.is_deleted`];
  if (f.author) out.push(authorFilter(sql`x.author_id`, f.author));
  if (f.dateFrom) out.push(sql`x.time >= ${f.dateFrom.toISOString()}::timestamptz`);
  if (f.dateTo) out.push(sql`x.time <= ${f.dateTo.toISOString()}::timestamptz`);
  if (f.blocked !== undefined) out.push(sql`x.is_blocked = ${f.blocked}`);
  return out;
}

/** The columns every moderation row has, beside its own. */
type ContentRow = {
  id: string;
  time: string;
  author_id: string;
  first_name: string;
  last_name: string;
  is_blocked: boolean;
  is_deleted: boolean;
};

/**
 * One page of `table` under `cond`, newest first (read backwards along its time index and stopped after
 * offset + size), each row with its author's name, and the total capped at COUNT_CAP.
 */
async function newestPage<R extends ContentRow>(
  ctx: ServiceCtx,
  from: "posts" | "comments",
  own: SQL,
  cond: SQL,
  q: { page: number; size: number },
): Promise<{ rows: R[]; total: number }> {
  const table = sql.raw(from);
  const db = ctx.tx ?? ctx.db;
  const [rows, [{ count }]] = await Promise.all([
    db.execute<R>(sql`
      select x.id, ${own}, to_json(x.time) #>> '{}' as time, x.author_id, a.first_name, a.last_name, x.is_blocked, x.is_deleted
      from (select x.* from ${table} x where ${cond} order by x.time desc nulls last, x.id desc nulls last
            limit ${q.size} offset ${q.page * q.size}) x
      join accounts a on a.id = x.author_id
      order by x.time desc nulls last, x.id desc nulls last`),
    db.execute<{ count: string }>(sql`select count(*) as count from (select 1 from ${table} x where ${cond} limit ${COUNT_CAP}) c`),
  ]);
  return { rows: [...rows] as R[], total: Number(count) };
}

/** The fields of a moderation row every DTO shares. */
function contentFields(r: ContentRow) {
  return {
    id: Number(r.id),
    time: new Date(r.time).toISOString(),
    author: { id: Number(r.author_id), firstName: r.first_name, lastName: r.last_name },
    isBlocked: r.is_blocked,
    isDeleted: r.is_deleted,
  };
}

type PostRow = ContentRow & { title: string; excerpt: string; comments_count: number; like_amount: number };

/** GET admin/posts — every post (blocked or not, scheduled too) with the text, author, date and blocked filters. */
export async function listAdminPosts({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<Page<AdminPostDto>> {
  requireStaff(ctx);
  const q = parseAdmin(adminContentQuery, input);
  const where = common(q);
  if (q.text) {
    where.push(sql`(x.search @@ (websearch_to_tsquery('russian', ${q.text}) || websearch_to_tsquery('english', ${q.text})) or lower(x.title) like ${likePattern(q.text)})`);
  }
  const { rows, total } = await newestPage<PostRow>(
    ctx,
    "posts",
    sql`x.title, left(regexp_replace(x.post_text, '<[^>]*>', ' ', 'g'), 200) as excerpt, x.comments_count, x.like_amount`,
    sql.join(where, sql` and `),
    q,
  );
  return pageOf(
    rows.map((r) => ({
      ...contentFields(r),
      title: r.title,
      excerpt: r.excerpt.replace(/\s+/g, " ").trim(),
      commentsCount: Number(r.comments_count),
      likeAmount: Number(r.like_amount),
    })),
    total,
    q.page,
    q.size,
  );
}

type CommentRow = ContentRow & { post_id: string; comment_text: string };

/** GET admin/comments — every comment with the text, author, date and blocked filters. */
export async function listAdminComments({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<Page<AdminCommentDto>> {
  requireStaff(ctx);
  const q = parseAdmin(adminContentQuery, input);
  const where = common(q);
  if (q.text) where.push(sql`lower(x.comment_text) like ${likePattern(q.text)}`);
  const { rows, total } = await newestPage<CommentRow>(ctx, "comments", sql`x.post_id, x.comment_text`, sql.join(where, sql` and `), q);
  return pageOf(
    rows.map((r) => ({ ...contentFields(r), postId: Number(r.post_id), commentText: r.comment_text })),
    total,
    q.page,
    q.size,
  );
}

/**
 * PUT admin/posts/{id}/block|unblock and admin/comments/{id}/block|unblock. A blocked item stays where it
 * is, hidden from everyone but its author (who sees it marked) and staff (docs/adr/0081). A blocked comment
 * leaves its post's comments_count (and its parent's reply count) in the same transaction, and comes back on
 * unblock, as delete and restore do (docs/adr/0085). Repeating changes nothing and records nothing.
 */
export async function setContentBlocked({
  ctx,
  input,
  kind,
  blocked,
}: {
  ctx: ServiceCtx;
  input: { id: unknown; body?: unknown };
  kind: "post" | "comment";
  blocked: boolean;
}): Promise<{ id: number; isBlocked: boolean }> {
  const viewer = requireStaff(ctx);
  const { id } = parseAdmin(idParams, { id: input.id });
  const { reason } = parseAdmin(blockInput, input.body ?? {});
  return withTransaction(ctx, async (tx) => {
    await setContentBlockedIn(tx, { actorId: viewer.id, kind, id, blocked, reason });
    return { id, isBlocked: blocked };
  });
}

/**
 * Blocks or unblocks a post or comment in the caller's transaction, with its audit row (the report queue's
 * BLOCK_CONTENT uses it too). Repeating changes nothing and records nothing; a missing or deleted item is a 404.
 */
export async function setContentBlockedIn(
  tx: Tx,
  input: { actorId: number; kind: "post" | "comment"; id: number; blocked: boolean; reason?: string | null; details?: Record<string, unknown> },
): Promise<void> {
  const { kind, id, blocked, reason } = input;
  const table = sql.raw(kind === "post" ? "posts" : "comments");
  // Comment writes lock the post row first (services/comments), so a comment's block does too.
  if (kind === "comment") {
    await tx.execute(sql`select 1 from posts where id = (select post_id from comments where id = ${id}) for no key update`);
  }
  const [row] = await tx.execute<{ author_id: string; is_blocked: boolean; is_deleted: boolean; post_id: string | null; parent_id: string | null; counted: boolean; text: string }>(
    sql`select author_id, is_blocked, is_deleted, ${sql.raw(kind === "post" ? "null" : "post_id")} as post_id, ${sql.raw(kind === "post" ? "title" : "comment_text")} as text,
               ${sql.raw(kind === "post" ? "null" : "parent_id")} as parent_id,
               ${kind === "post" ? sql`true` : keptOnPost(sql`comments`)} as counted
        from ${table} where id = ${id} for no key update`,
  );
  if (!row || row.is_deleted) throw new NotFoundError(ADMIN_ERRORS.notFound);
  if (row.is_blocked !== blocked) {
    await tx.execute(sql`update ${table} set is_blocked = ${blocked} where id = ${id}`);
    // A post's readers' home timelines lose it or get it back (the job, docs/adr/0137).
    if (kind === "post") await queueTimelineSync(tx, id);
    // A comment a block between its author and the post's keeps off the post is out of the counts already (ADR 116).
    if (kind === "comment" && row.counted) await shiftCommentCounts(tx, { postId: row.post_id!, parentId: row.parent_id }, blocked ? -1 : 1);
    await recordAudit(tx, {
      actorId: input.actorId,
      action: `${kind === "post" ? "POST" : "COMMENT"}_${blocked ? "BLOCKED" : "UNBLOCKED"}`,
      targetType: kind === "post" ? "POST" : "COMMENT",
      targetId: id,
      targetAccountId: Number(row.author_id),
      reason,
      details: input.details,
    });
    // Issue 40: the author is told at once which item was blocked and why, not only when opening it.
    if (blocked) {
      const quote = excerpt(row.text, QUOTE_MAX);
      await notify(tx, {
        type: "CONTENT_BLOCKED",
        actorId: null,
        recipients: [Number(row.author_id)],
        postId: kind === "post" ? id : Number(row.post_id),
        commentId: kind === "comment" ? id : null,
        content: quote,
        details: { targetType: kind === "post" ? "POST" : "COMMENT", excerpt: quote, reason: reason ?? null },
      });
    }
  }
}
