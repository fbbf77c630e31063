import "server-only";
import { sql, type SQL } from "drizzle-orm";
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
import { shiftCommentCounts } from "../comments/comments";
import { withTransaction, type ServiceCtx } from "../context";
import { parseAdmin, requireStaff } from "./access";
import { recordAudit } from "./audit";

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

function common(alias: "p" | "c", f: Filters): SQL[] {
  const t = sql.raw(alias);
  const out: SQL[] = [sql`not ${t}.is_deleted`];
  if (f.author) out.push(authorFilter(sql`${t}.author_id`, f.author));
  if (f.dateFrom) out.push(sql`${t}.time >= ${f.dateFrom.toISOString()}::timestamptz`);
  if (f.dateTo) out.push(sql`${t}.time <= ${f.dateTo.toISOString()}::timestamptz`);
  if (f.blocked !== undefined) out.push(sql`${t}.is_blocked = ${f.blocked}`);
  return out;
}

type PostRow = {
  id: string;
  title: string;
  excerpt: string;
  time: string;
  author_id: string;
  first_name: string;
  last_name: string;
  is_blocked: boolean;
  is_deleted: boolean;
  comments_count: number;
  like_amount: number;
};

/** GET admin/posts — every post (blocked or not, scheduled too) with the text, author, date and blocked filters. */
export async function listAdminPosts({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<Page<AdminPostDto>> {
  requireStaff(ctx);
  const q = parseAdmin(adminContentQuery, input);
  const where = common("p", q);
  if (q.text) {
    where.push(sql`(p.search @@ (websearch_to_tsquery('russian', ${q.text}) || websearch_to_tsquery('english', ${q.text})) or lower(p.title) like ${likePattern(q.text)})`);
  }
  const cond = sql.join(where, sql` and `);
  const db = ctx.tx ?? ctx.db;
  const [rows, [{ count }]] = await Promise.all([
    db.execute<PostRow>(sql`
      select p.id, p.title, left(regexp_replace(p.post_text, '<[^>]*>', ' ', 'g'), 200) as excerpt,
             to_json(p.time) #>> '{}' as time, p.author_id, a.first_name, a.last_name,
             p.is_blocked, p.is_deleted, p.comments_count, p.like_amount
      from (select p.* from posts p where ${cond} order by p.time desc nulls last, p.id desc nulls last
            limit ${q.size} offset ${q.page * q.size}) p
      join accounts a on a.id = p.author_id
      order by p.time desc nulls last, p.id desc nulls last`),
    db.execute<{ count: string }>(sql`select count(*) as count from (select 1 from posts p where ${cond} limit ${COUNT_CAP}) c`),
  ]);
  return pageOf(
    rows.map((r) => ({
      id: Number(r.id),
      title: r.title,
      excerpt: r.excerpt.replace(/\s+/g, " ").trim(),
      time: new Date(r.time).toISOString(),
      author: { id: Number(r.author_id), firstName: r.first_name, lastName: r.last_name },
      isBlocked: r.is_blocked,
      isDeleted: r.is_deleted,
      commentsCount: Number(r.comments_count),
      likeAmount: Number(r.like_amount),
    })),
    Number(count),
    q.page,
    q.size,
  );
}

type CommentRow = {
  id: string;
  post_id: string;
  comment_text: string;
  time: string;
  author_id: string;
  first_name: string;
  last_name: string;
  is_blocked: boolean;
  is_deleted: boolean;
};

/** GET admin/comments — every comment with the text, author, date and blocked filters. */
export async function listAdminComments({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<Page<AdminCommentDto>> {
  requireStaff(ctx);
  const q = parseAdmin(adminContentQuery, input);
  const where = common("c", q);
  if (q.text) where.push(sql`lower(c.comment_text) like ${likePattern(q.text)}`);
  const cond = sql.join(where, sql` and `);
  const db = ctx.tx ?? ctx.db;
  const [rows, [{ count }]] = await Promise.all([
    db.execute<CommentRow>(sql`
      select c.id, c.post_id, c.comment_text, to_json(c.time) #>> '{}' as time, c.author_id, a.first_name, a.last_name,
             c.is_blocked, c.is_deleted
      from (select c.* from comments c where ${cond} order by c.time desc nulls last, c.id desc nulls last
            limit ${q.size} offset ${q.page * q.size}) c
      join accounts a on a.id = c.author_id
      order by c.time desc nulls last, c.id desc nulls last`),
    db.execute<{ count: string }>(sql`select count(*) as count from (select 1 from comments c where ${cond} limit ${COUNT_CAP}) x`),
  ]);
  return pageOf(
    rows.map((r) => ({
      id: Number(r.id),
      postId: Number(r.post_id),
      commentText: r.comment_text,
      time: new Date(r.time).toISOString(),
      author: { id: Number(r.author_id), firstName: r.first_name, lastName: r.last_name },
      isBlocked: r.is_blocked,
      isDeleted: r.is_deleted,
    })),
    Number(count),
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
  const table = sql.raw(kind === "post" ? "posts" : "comments");
  return withTransaction(ctx, async (tx) => {
    // Comment writes lock the post row first (services/comments), so a comment's block does too.
    if (kind === "comment") {
      await tx.execute(sql`select 1 from posts where id = (select post_id from comments where id = ${id}) for no key update`);
    }
    const [row] = await tx.execute<{ author_id: string; is_blocked: boolean; is_deleted: boolean; post_id: string | null; parent_id: string | null }>(
      sql`select author_id, is_blocked, is_deleted, ${sql.raw(kind === "post" ? "null" : "post_id")} as post_id,
                 ${sql.raw(kind === "post" ? "null" : "parent_id")} as parent_id
          from ${table} where id = ${id} for no key update`,
    );
    if (!row || row.is_deleted) throw new NotFoundError(ADMIN_ERRORS.notFound);
    if (row.is_blocked !== blocked) {
      await tx.execute(sql`update ${table} set is_blocked = ${blocked} where id = ${id}`);
      if (kind === "comment") await shiftCommentCounts(tx, { postId: row.post_id!, parentId: row.parent_id }, blocked ? -1 : 1);
      await recordAudit(tx, {
        actorId: viewer.id,
        action: `${kind === "post" ? "POST" : "COMMENT"}_${blocked ? "BLOCKED" : "UNBLOCKED"}`,
        targetType: kind === "post" ? "POST" : "COMMENT",
        targetId: id,
        targetAccountId: Number(row.author_id),
        reason,
      });
    }
    return { id, isBlocked: blocked };
  });
}
