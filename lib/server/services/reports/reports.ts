import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { appendEvent } from "@/lib/server/events/outbox";
import { ConflictError, ForbiddenError, ValidationError, zodIssues } from "@/lib/server/http/errors";
import { consumeAccountLimits } from "@/lib/server/http/rate-limit";
import { REPORT_ERRORS, REPORTS_CHANGED_EVENT, reportInput, type ReportDto } from "@/lib/validation/reports";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { blockAccount } from "../friends/actions";
import { dropEvidence, keepEvidence } from "./evidence";
import { readReportTarget } from "./snapshot";

/**
 * The number of open report groups `staffId` may handle, exact up to 10,000: all of them (an index-only scan
 * of a partial index, stopped there) less those concerning that staff member (issue 40: their own content or
 * themselves — another moderator handles those), a short range of report_groups_target_account_idx.
 */
export async function countOpenReportGroups(db: DbOrTx, staffId: number): Promise<number> {
  const [row] = await db.execute<{ count: string }>(sql`
    select (select count(*) from (select 1 from report_groups where status = 'OPEN' limit 10000) c)
         - (select count(*) from report_groups where target_account_id = ${staffId} and status = 'OPEN') as count`);
  return Math.max(0, Number(row.count));
}

/**
 * Tells every staff member's open admin pages that the open count changed (the sidebar's live count), in
 * the caller's transaction: delivered on commit, never on rollback. Staff are a handful of accounts, read
 * through accounts_staff_idx; each gets the count of their own queue, which leaves out the groups that concern
 * them (one event for all whom none concerns, one for each other).
 */
export async function announceOpenCount(tx: Tx): Promise<void> {
  const staff = await tx.execute<{ id: string; mine: string }>(sql`
    select a.id, (select count(*) from report_groups g where g.target_account_id = a.id and g.status = 'OPEN') as mine
    from accounts a where a.role <> 'USER' and not a.is_blocked and not a.is_deleted`);
  if (staff.length === 0) return;
  const [{ count }] = await tx.execute<{ count: string }>(
    sql`select count(*) as count from (select 1 from report_groups where status = 'OPEN' limit 10000) c`,
  );
  const byCount = new Map<number, number[]>();
  for (const s of staff) {
    const open = Math.max(0, Number(count) - Number(s.mine));
    byCount.set(open, [...(byCount.get(open) ?? []), Number(s.id)]);
  }
  for (const [open, recipients] of byCount) await appendEvent(tx, { type: REPORTS_CHANGED_EVENT, recipients, data: { open } });
}

/** The report row, the optional block of the author and the staff's count: the rest of createReport's transaction. */
async function storeReport(
  tx: Tx,
  w: { groupId: number; reporterId: number; report: ReturnType<typeof parseReport>; snapshot: unknown; created: boolean; ctx: ServiceCtx; accountId: number },
): Promise<{ id: string; created_at: string }> {
  const [row] = await tx.execute<{ id: string; created_at: string }>(sql`
    insert into reports (group_id, reporter_id, category, comment, snapshot)
    values (${w.groupId}, ${w.reporterId}, ${w.report.category}, ${w.report.comment}, ${JSON.stringify(w.snapshot)}::jsonb)
    on conflict (group_id, reporter_id) do nothing
    returning id, to_json(created_at) #>> '{}' as created_at`);
  // The same person's report committed in between: 409 as above.
  if (!row) throw new ConflictError(REPORT_ERRORS.duplicate);
  if (w.report.block) {
    const [already] = await tx.execute(sql`
      select 1 from friendships where account_id = ${w.reporterId} and friend_id = ${w.accountId} and status_code = 'BLOCKED'`);
    if (!already) await blockAccount({ ctx: { ...w.ctx, tx }, input: { id: w.accountId } });
  }
  if (w.created) await announceOpenCount(tx);
  return row;
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
 * `block`, the reporter also blocks the author in the same transaction. The item's photos are copied into
 * the snapshot (issue 40, ./evidence.ts) once the report is known to be new; copies of a report that is
 * not stored after all are deleted again.
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
    // Already reported by this person while open: the whole transaction (the bump too) rolls back, and no
    // photo is copied for it.
    const [mine] = await tx.execute(sql`select 1 from reports where group_id = ${Number(group.id)} and reporter_id = ${viewer.id}`);
    if (mine) throw new ConflictError(REPORT_ERRORS.duplicate);
    const { snapshot, copies } = await keepEvidence(target.snapshot);
    const row = await storeReport(tx, { groupId: Number(group.id), reporterId: viewer.id, report, snapshot, created: group.created, ctx, accountId: target.accountId }).catch(
      async (err: unknown) => {
        await dropEvidence(copies);
        throw err;
      },
    );
    return {
      id: Number(row.id),
      targetType: report.targetType,
      targetId: report.targetId,
      category: report.category,
      createdAt: new Date(row.created_at).toISOString(),
    };
  });
}

