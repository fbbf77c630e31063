import "server-only";
import { sql } from "drizzle-orm";
import { requireViewer, type ServiceCtx } from "../context";

export type OwnBlock = { targetType: "POST" | "COMMENT"; targetId: number; excerpt: string; reason: string | null };

/**
 * Why the viewer's own items on post `postId` are blocked (issue 26: "a blocked person sees why when they open
 * a blocked item"): the post itself and their comments on it that a moderator blocked, each with the reason of
 * its latest block in the audit log. Read along audit_log_target_account_idx (the viewer's own audit rows).
 */
export async function ownBlocksOnPost({ ctx, postId }: { ctx: ServiceCtx; postId: number }): Promise<OwnBlock[]> {
  const viewer = requireViewer(ctx);
  const db = ctx.tx ?? ctx.db;
  const rows = await db.execute<{ target_type: "POST" | "COMMENT"; target_id: string; excerpt: string; reason: string | null }>(sql`
    with mine as (
      select 'POST' as target_type, p.id, p.title as excerpt from posts p
      where p.id = ${postId} and p.author_id = ${viewer.id} and p.is_blocked and not p.is_deleted
      union all
      -- Comments through the viewer's own COMMENT_BLOCKED rows (a handful), not through all their comments.
      select 'COMMENT', c.id, left(c.comment_text, 120) from comments c
      where c.id in (select l.target_id from audit_log l where l.target_account_id = ${viewer.id} and l.action = 'COMMENT_BLOCKED')
        and c.post_id = ${postId} and c.author_id = ${viewer.id} and c.is_blocked and not c.is_deleted)
    select m.target_type, m.id as target_id, m.excerpt,
           (select l.reason from audit_log l
            where l.target_account_id = ${viewer.id} and l.target_type = m.target_type and l.target_id = m.id
              and l.action in ('POST_BLOCKED', 'COMMENT_BLOCKED')
            order by l.id desc limit 1) as reason
    from mine m order by m.target_type desc, m.id`);
  return rows.map((r) => ({ targetType: r.target_type, targetId: Number(r.target_id), excerpt: r.excerpt, reason: r.reason }));
}
