import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { auditLog } from "@/db/schema";
import { pageOf, type Page } from "@/lib/server/http/response";
import { adminAuditQuery, type AuditEntryDto } from "@/lib/validation/admin";
import type { ServiceCtx } from "../context";
import { parseAdmin, requireStaff } from "./access";

export type AuditAction =
  | "USER_BLOCKED"
  | "USER_UNBLOCKED"
  | "ROLE_CHANGED"
  | "POST_BLOCKED"
  | "POST_UNBLOCKED"
  | "COMMENT_BLOCKED"
  | "COMMENT_UNBLOCKED"
  | "REPORT_DISMISSED"
  | "COMMUNITY_BLOCKED"
  | "COMMUNITY_UNBLOCKED"
  | "SERVER_BLOCKED"
  | "SERVER_UNBLOCKED";

/** Records a staff action in the caller's transaction: the action and its record commit together or not at all. */
export async function recordAudit(
  tx: Tx,
  entry: {
    actorId: number;
    action: AuditAction;
    targetType: AuditEntryDto["targetType"];
    targetId: number;
    targetAccountId: number | null;
    reason?: string | null;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await tx.insert(auditLog).values({ ...entry, reason: entry.reason || null, details: entry.details ?? null });
}

type Row = {
  id: string;
  action: string;
  target_type: AuditEntryDto["targetType"];
  target_id: string;
  target_account_id: string | null;
  reason: string | null;
  details: Record<string, unknown> | null;
  created_at: string;
  actor_id: string | null;
  first_name: string | null;
  last_name: string | null;
};

/** Audit entries newest first (the primary key, or audit_log_target_account_idx for one account). */
export async function readAudit(db: DbOrTx, opts: { accountId?: number; limit: number; offset: number }): Promise<AuditEntryDto[]> {
  const where = opts.accountId ? sql`l.target_account_id = ${opts.accountId}` : sql`true`;
  const rows = await db.execute<Row>(sql`
    select l.id, l.action, l.target_type, l.target_id, l.target_account_id, l.reason, l.details,
           to_json(l.created_at) #>> '{}' as created_at, l.actor_id, a.first_name, a.last_name
    from (select * from audit_log l where ${where} order by l.id desc limit ${opts.limit} offset ${opts.offset}) l
    left join accounts a on a.id = l.actor_id
    order by l.id desc`);
  return rows.map((r) => ({
    id: Number(r.id),
    action: r.action,
    targetType: r.target_type,
    targetId: Number(r.target_id),
    targetAccountId: r.target_account_id === null ? null : Number(r.target_account_id),
    reason: r.reason,
    details: r.details,
    createdAt: new Date(r.created_at).toISOString(),
    actor: r.actor_id === null ? null : { id: Number(r.actor_id), firstName: r.first_name ?? "", lastName: r.last_name ?? "" },
  }));
}

/** GET admin/audit — the audit log, newest first; staff only. */
export async function listAudit({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<Page<AuditEntryDto>> {
  requireStaff(ctx);
  const q = parseAdmin(adminAuditQuery, input);
  const db = ctx.tx ?? ctx.db;
  const where = q.accountId ? sql`target_account_id = ${q.accountId}` : sql`true`;
  const [content, [{ count }]] = await Promise.all([
    readAudit(db, { accountId: q.accountId, limit: q.size, offset: q.page * q.size }),
    db.execute<{ count: string }>(sql`select count(*) as count from audit_log where ${where}`),
  ]);
  return pageOf(content, Number(count), q.page, q.size);
}
