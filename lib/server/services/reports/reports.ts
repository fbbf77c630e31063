import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { appendEvent } from "@/lib/server/events/outbox";
import { ConflictError, ForbiddenError, ValidationError, zodIssues } from "@/lib/server/http/errors";
import { consumeAccountLimits } from "@/lib/server/http/rate-limit";
import { REPORT_ERRORS, REPORTS_CHANGED_EVENT, reportInput, type ReportDto } from "@/lib/validation/reports";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { blockAccount } from "../friends/actions";
import { readReportTarget } from "./snapshot";

/** The number of open report groups, exact up to 10,000 (an index-only scan of a partial index, stopped there). */
export async function countOpenReportGroups(db: DbOrTx): Promise<number> {
  const [row] = await db.execute<{ count: string }>(
    sql`select count(*) as count from (select 1 from report_groups where status = 'OPEN' limit 10000) c`,
  );
  return Number(row.count);
}

/**
 * Tells every staff member's open admin pages that the open count changed (the sidebar's live count), in
 * the caller's transaction: delivered on commit, never on rollback. Staff are a handful of accounts, read
 * through accounts_staff_idx.
 */
export async function announceOpenCount(tx: Tx): Promise<void> {
  const staff = await tx.execute<{ id: string }>(sql`select id from accounts where role <> 'USER' and not is_blocked and not is_deleted`);
  if (staff.length === 0) return;
  const open = await countOpenReportGroups(tx);
  await appendEvent(tx, { type: REPORTS_CHANGED_EVENT, recipients: staff.map((s) => Number(s.id)), data: { open } });
}

function parseReport(input: unknown) {
  const result = reportInput.safeParse(input ?? {});
  if (result.success) return result.data;
  const issues = zodIssues(result.error);
  throw new ValidationError(issues[0]?.message ?? REPORT_ERRORS.badTarget, issues);
}

/**
 * POST reports — a report of a post, comment, message or account (issue 26 section 1, docs/adr/0126).
 * The target's copy is taken now (what staff will see, whatever is edited later); the report joins the
 * target's open group or opens one. One open report per reporter and target (409), never of oneself (403),
 * never by a deleted account (403; a blocked one has no session). RATE_LIMIT_REPORT per account. With
 * `block`, the reporter also blocks the author in the same transaction.
 */
export async function createReport({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<ReportDto> {
  const viewer = requireViewer(ctx);
  if (viewer.isDeleted) throw new ForbiddenError(REPORT_ERRORS.accountDeleted);
  const report = parseReport(input);
  if (report.targetType === "ACCOUNT" && report.targetId === viewer.id) throw new ForbiddenError(REPORT_ERRORS.self);
  await consumeAccountLimits(["report"], viewer.id);
  return withTransaction(ctx, async (tx) => {
    const target = await readReportTarget(tx, viewer.id, report.targetType, report.targetId);
    if (target.accountId === viewer.id) throw new ForbiddenError(REPORT_ERRORS.self);
    // The open group of the target: joined (count and time bumped) or opened (report_groups_open_target_key).
    const [group] = await tx.execute<{ id: string; created: boolean }>(sql`
      insert into report_groups (target_type, target_id, target_account_id, reports_count)
      values (${report.targetType}, ${report.targetId}, ${target.accountId}, 1)
      on conflict (target_type, target_id) where status = 'OPEN'
      do update set reports_count = report_groups.reports_count + 1, last_reported_at = now()
      returning id, (xmax = 0) as created`);
    const [row] = await tx.execute<{ id: string; created_at: string }>(sql`
      insert into reports (group_id, reporter_id, category, comment, snapshot)
      values (${Number(group.id)}, ${viewer.id}, ${report.category}, ${report.comment}, ${JSON.stringify(target.snapshot)}::jsonb)
      on conflict (group_id, reporter_id) do nothing
      returning id, to_json(created_at) #>> '{}' as created_at`);
    // Already reported by this person while open: the whole transaction (the bump too) rolls back.
    if (!row) throw new ConflictError(REPORT_ERRORS.duplicate);
    if (report.block) {
      const [already] = await tx.execute(sql`
        select 1 from friendships where account_id = ${viewer.id} and friend_id = ${target.accountId} and status_code = 'BLOCKED'`);
      if (!already) await blockAccount({ ctx: { ...ctx, tx }, input: { id: target.accountId } });
    }
    if (group.created) await announceOpenCount(tx);
    return {
      id: Number(row.id),
      targetType: report.targetType,
      targetId: report.targetId,
      category: report.category,
      createdAt: new Date(row.created_at).toISOString(),
    };
  });
}

