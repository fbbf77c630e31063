import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "@/lib/server/http/errors";
import { pageOf, type Page } from "@/lib/server/http/response";
import { ADMIN_ERRORS, idParams } from "@/lib/validation/admin";
import {
  REPORT_ERRORS,
  adminReportsQuery,
  resolveReportInput,
  type ReportAction,
  type ReportCategory,
  type ReportGroupDto,
  type ReportPerson,
  type ReportSnapshot,
  type ReportStatus,
  type ReportTargetType,
} from "@/lib/validation/reports";
import { withTransaction, type ServiceCtx } from "../context";
import { parseAdmin, requireStaff } from "../admin/access";
import { recordAudit } from "../admin/audit";
import { setCommunityBlockedIn } from "../admin/communities";
import { setContentBlockedIn } from "../admin/content";
import { setUserBlockedIn } from "../admin/users";
import { tellReporters } from "./notices";
import { announceOpenCount, countOpenReportGroups } from "./reports";

// The moderation queue (issue 26 section 2, docs/adr/0126): one row per reported target, its reports,
// categories, the author's history, and the three resolutions.

/** Totals (the page envelope's, the sidebar's) are exact up to this many, as the admin lists' (services/admin/content.ts). */
export const COUNT_CAP = 10_000;

/** At most this many reports are listed on one queue row (the count says how many there are). */
const REPORTS_PER_ROW = 20;

type Row = {
  id: string;
  target_type: ReportTargetType;
  target_id: string;
  status: ReportStatus;
  reports_count: number;
  first_reported_at: string;
  last_reported_at: string;
  action: ReportAction | null;
  reason: string | null;
  resolved_at: string | null;
  moderator: ReportPerson | null;
  snapshot: ReportSnapshot;
  author: (ReportPerson & { isBlocked: boolean; blockedUntil: string | null }) | null;
  target_deleted: boolean | null;
  target_blocked: boolean | null;
  reports: ReportGroupDto["reports"];
  categories: { category: ReportCategory; count: number }[] | null;
  earlier_reports: number;
  blocks: number;
};

const person = (a: string) =>
  sql.raw(`jsonb_build_object('id', ${a}.id, 'firstName', ${a}.first_name, 'lastName', ${a}.last_name, 'photo', ${a}.photo)`);

/** Queue rows under `where` in `order`: each with its first snapshot, reports, categories, author and history. */
async function readGroups(db: DbOrTx, where: SQL, order: SQL, limit: number, offset: number): Promise<ReportGroupDto[]> {
  const rows = await db.execute<Row>(sql`
      select g.id, g.target_type, g.target_id, g.status, g.reports_count,
             to_json(g.first_reported_at) #>> '{}' as first_reported_at, to_json(g.last_reported_at) #>> '{}' as last_reported_at,
             g.action, g.reason, to_json(g.resolved_at) #>> '{}' as resolved_at,
             (select ${person("m")} from accounts m where m.id = g.resolved_by) as moderator,
             (select r.snapshot from reports r where r.group_id = g.id order by r.id limit 1) as snapshot,
             (select ${person("a")} || jsonb_build_object('isBlocked', a.is_blocked, 'blockedUntil', to_json(a.blocked_until) #>> '{}')
                from accounts a where a.id = g.target_account_id) as author,
             case g.target_type
               when 'POST' then (select p.is_deleted from posts p where p.id = g.target_id)
               when 'COMMENT' then (select c.is_deleted from comments c where c.id = g.target_id)
               when 'ACCOUNT' then (select a.is_deleted from accounts a where a.id = g.target_id)
               when 'COMMUNITY' then (select c.is_deleted from communities c where c.id = g.target_id)
               else not exists (select 1 from messages m where m.id = g.target_id) end as target_deleted,
             case g.target_type
               when 'POST' then (select p.is_blocked from posts p where p.id = g.target_id)
               when 'COMMENT' then (select c.is_blocked from comments c where c.id = g.target_id)
               when 'ACCOUNT' then (select a.is_blocked from accounts a where a.id = g.target_id)
               when 'COMMUNITY' then (select c.is_blocked from communities c where c.id = g.target_id)
               else false end as target_blocked,
             (select coalesce(jsonb_agg(x order by x."createdAt" desc), '[]'::jsonb) from (
                select r.id, ${person("ra")} as reporter, r.category, r.comment, to_json(r.created_at) #>> '{}' as "createdAt"
                from reports r join accounts ra on ra.id = r.reporter_id
                where r.group_id = g.id order by r.id desc limit ${REPORTS_PER_ROW}) x) as reports,
             (select jsonb_agg(jsonb_build_object('category', c.category, 'count', c.n) order by c.n desc, c.category)
                from (select r.category, count(*)::int as n from reports r where r.group_id = g.id group by r.category) c) as categories,
             (select count(*)::int from report_groups e where e.target_account_id = g.target_account_id and e.id <> g.id) as earlier_reports,
             (select count(*)::int from audit_log l where l.target_account_id = g.target_account_id
                and l.action in ('USER_BLOCKED', 'POST_BLOCKED', 'COMMENT_BLOCKED', 'COMMUNITY_BLOCKED')) as blocks
      from (select * from report_groups g where ${where} order by ${order} limit ${limit} offset ${offset}) g
      order by ${order}`);
  return rows.map((r) => ({
      id: Number(r.id),
      targetType: r.target_type,
      targetId: Number(r.target_id),
      status: r.status,
      reportsCount: Number(r.reports_count),
      firstReportedAt: new Date(r.first_reported_at).toISOString(),
      lastReportedAt: new Date(r.last_reported_at).toISOString(),
      snapshot: r.snapshot,
      author: r.author ? { ...r.author, blockedUntil: r.author.blockedUntil ? new Date(r.author.blockedUntil).toISOString() : null } : null,
      targetState: { isDeleted: r.target_deleted ?? true, isBlocked: r.target_blocked ?? false },
      categories: r.categories ?? [],
      reports: r.reports.map((x) => ({ ...x, createdAt: new Date(x.createdAt).toISOString() })),
      history: { earlierReports: Number(r.earlier_reports), blocks: Number(r.blocks) },
      resolution:
        r.action && r.resolved_at
          ? { action: r.action, reason: r.reason, resolvedAt: new Date(r.resolved_at).toISOString(), moderator: r.moderator }
          : null,
    }));
}

/**
 * GET admin/reports?status=OPEN|RESOLVED&sort=newest|most&page=&size= — staff only. The page of groups is
 * read along its partial index (report_groups_open_newest_idx / _most_idx / _resolved_idx: the ORDER BY
 * is the key, stopped after offset + size); only those rows then get their reports, categories and the
 * author's history (each a short index range). A group that concerns the viewer (their content, or
 * themselves) is not in their queue, open or resolved (issue 40, docs/adr/0164): another staff member
 * handles it, and its reporters stay unknown to the person they reported.
 */
export async function listReportGroups({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<Page<ReportGroupDto>> {
  const viewer = requireStaff(ctx);
  const q = parseAdmin(adminReportsQuery, input);
  const db = ctx.tx ?? ctx.db;
  const order =
    q.status === "RESOLVED"
      ? sql`g.resolved_at desc nulls last, g.id desc nulls last`
      : q.sort === "most"
        ? sql`g.reports_count desc nulls last, g.last_reported_at desc nulls last, g.id desc nulls last`
        : sql`g.last_reported_at desc nulls last, g.id desc nulls last`;
  // The status as a literal (one of two checked values), never a parameter: a generic plan of a prepared
  // statement cannot prove a parameter matches a partial index's predicate.
  const status = sql.raw(q.status === "RESOLVED" ? "'RESOLVED'" : "'OPEN'");
  const notMine = sql`g.target_account_id is distinct from ${viewer.id}`;
  const [rows, [{ count }]] = await Promise.all([
    readGroups(db, sql`g.status = ${status} and ${notMine}`, order, q.size, q.page * q.size),
    db.execute<{ count: string }>(sql`
      select count(*) as count from (select 1 from report_groups g where g.status = ${status} and ${notMine} limit ${COUNT_CAP}) c`),
  ]);
  return pageOf(rows, Number(count), q.page, q.size);
}

/** GET admin/reports/count — the open groups of the viewer's queue (the admin sidebar's live count); staff only. */
export async function countOpenReports({ ctx }: { ctx: ServiceCtx }): Promise<{ count: number }> {
  const viewer = requireStaff(ctx);
  return { count: await countOpenReportGroups(ctx.tx ?? ctx.db, viewer.id) };
}

const DAY_MS = 86_400_000;

/**
 * PUT admin/reports/{id} {action, reason, days?} — resolves an open group, in one transaction: DISMISS
 * (an audit row REPORT_DISMISSED), BLOCK_CONTENT (the post or comment is blocked, POST_BLOCKED /
 * COMMENT_BLOCKED, and its author told why), or BLOCK_AUTHOR (the account, for `days` or for good:
 * USER_BLOCKED; the author's other open groups are resolved with it — the block answers them, and
 * resolving them again one by one told their reporters "the author is blocked" once more). Each audit row
 * carries the reason and the group id; every reporter gets REPORT_RESOLVED naming the item (their switch
 * permitting), and the staff's open counts are re-announced. A group that concerns the viewer (their content
 * or themselves) is a 403: someone else resolves it (issue 40, docs/adr/0164). A group resolved already is a
 * 409. Messages and accounts have no content block: BLOCK_CONTENT on them is a 422.
 */
export async function resolveReportGroup({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown; body: unknown } }): Promise<ReportGroupDto> {
  const viewer = requireStaff(ctx);
  const { id } = parseAdmin(idParams, { id: input.id });
  const body = parseAdmin(resolveReportInput, input.body);
  await withTransaction(ctx, async (tx) => {
    const [group] = await tx.execute<{ target_type: ReportTargetType; target_id: string; target_account_id: string | null; status: ReportStatus }>(
      sql`select target_type, target_id, target_account_id, status from report_groups where id = ${id} for update`,
    );
    if (!group) throw new NotFoundError(ADMIN_ERRORS.notFound);
    const targetId = Number(group.target_id);
    const authorId = group.target_account_id === null ? null : Number(group.target_account_id);
    if (authorId === viewer.id) throw new ForbiddenError(REPORT_ERRORS.concernsYou);
    if (group.status !== "OPEN") throw new ConflictError(REPORT_ERRORS.resolved);
    // BLOCK_AUTHOR answers the author's other open groups too; one being resolved by someone else right now
    // (locked) is left to them.
    const others =
      body.action === "BLOCK_AUTHOR" && authorId !== null
        ? (
            await tx.execute<{ id: string }>(sql`
              select id from report_groups where target_account_id = ${authorId} and status = 'OPEN' and id <> ${id}
              order by id for update skip locked`)
          ).map((r) => Number(r.id))
        : [];
    const details = others.length > 0 ? { reportGroupId: id, alsoResolvedGroupIds: others } : { reportGroupId: id };
    if (body.action === "DISMISS") {
      await recordAudit(tx, { actorId: viewer.id, action: "REPORT_DISMISSED", targetType: group.target_type, targetId, targetAccountId: authorId, reason: body.reason, details });
    } else if (body.action === "BLOCK_CONTENT") {
      if (group.target_type === "COMMUNITY") {
        await setCommunityBlockedIn(tx, { actorId: viewer.id, id: targetId, blocked: true, reason: body.reason, details });
      } else if (group.target_type !== "POST" && group.target_type !== "COMMENT") throw new ValidationError(REPORT_ERRORS.notApplicable);
      else await setContentBlockedIn(tx, { actorId: viewer.id, kind: group.target_type === "POST" ? "post" : "comment", id: targetId, blocked: true, reason: body.reason, details });
    } else {
      if (authorId === null) throw new NotFoundError(ADMIN_ERRORS.notFound);
      const until = body.days ? new Date(Date.now() + body.days * DAY_MS) : null;
      await setUserBlockedIn(tx, { actor: viewer, id: authorId, blocked: true, reason: body.reason, until, details });
    }
    const resolved = [id, ...others];
    await tx.execute(sql`
      update report_groups set status = 'RESOLVED', action = ${body.action}, reason = ${body.reason}, resolved_by = ${viewer.id}, resolved_at = now()
      where id in (${sql.join(resolved.map((g) => sql`${g}`), sql`, `)})`);
    for (const g of resolved) await tellReporters(tx, g, body.action);
    await announceOpenCount(tx);
  });
  const [row] = await readGroups(ctx.tx ?? ctx.db, sql`g.id = ${id}`, sql`g.id`, 1, 0);
  return row;
}


