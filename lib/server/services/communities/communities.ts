import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "@/lib/server/http/errors";
import { consumeAccountLimits } from "@/lib/server/http/rate-limit";
import { pageOf, type Page } from "@/lib/server/http/response";
import { profileOpenSql } from "@/lib/server/services/privacy/rules";
import { getBlobStore } from "@/lib/server/storage/blob-store";
import {
  COMMUNITY_ERRORS,
  COMMUNITY_QUERY_MIN,
  communityIdParams,
  communityListQuery,
  createCommunityInput,
  updateCommunityInput,
  type CommunityDto,
  type CommunityListQuery,
  type CreateCommunityInput,
  type UpdateCommunityInput,
} from "@/lib/validation/communities";
import { storedKeyOf } from "@/lib/validation/storage";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { communityColumns, lockLiveCommunity, readCommunityRow, requireAdmin, requireLiveViewer, restoreUntil, roleOf, toCommunityDto, visibleCommunity, type CommunityRow } from "./access";

// Communities (issue 42): create, read, edit, delete and restore, find. Members and their changes are
// members.ts. Every change is one transaction with the community's row locked first.

/** Photo and cover must be images this server stored (422 otherwise). */
async function assertStoredImages(input: { photo?: string | null; cover?: string | null }): Promise<void> {
  for (const field of ["photo", "cover"] as const) {
    const path = input[field];
    if (!path) continue;
    if (!(await getBlobStore().exists(storedKeyOf(path)!))) throw new ValidationError(COMMUNITY_ERRORS.badPhoto, [{ path: field, message: COMMUNITY_ERRORS.badPhoto }]);
  }
}

/** POST communities — a new community whose owner (and first member) is the caller. RATE_LIMIT_COMMUNITY_CREATE. */
export async function createCommunity({ ctx, input }: { ctx: ServiceCtx; input: CreateCommunityInput }): Promise<CommunityDto> {
  const viewer = requireViewer(ctx);
  requireLiveViewer(viewer);
  const body = createCommunityInput.parse(input);
  await consumeAccountLimits(["communityCreate"], viewer.id);
  await assertStoredImages(body);
  return withTransaction(ctx, async (tx) => {
    const [row] = await tx.execute<CommunityRow>(sql`
      with c as (
        insert into communities (name, description, type, wall, photo, cover, owner_id, members_count)
        values (${body.name}, ${body.description ?? ""}, ${body.type}, ${body.wall ?? "MEMBERS"}, ${body.photo ?? null}, ${body.cover ?? null}, ${viewer.id}, 1)
        returning *),
      m as (
        insert into community_members (community_id, account_id, status, role)
        select c.id, ${viewer.id}, 'MEMBER', 'OWNER' from c
        returning *)
      select ${communityColumns} from c, m`);
    return toCommunityDto(row);
  });
}

/** GET communities/{id} — the community as the caller sees it; 404 when it is not there for them. */
export async function getCommunity({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown } }): Promise<CommunityDto> {
  const viewer = requireViewer(ctx);
  const { id } = communityIdParams.parse(input);
  return toCommunityDto(await visibleCommunity(ctx.tx ?? ctx.db, viewer.id, id));
}

/** PATCH communities/{id} — its owner or an admin changes its name, description, kind, wall, photo or cover. */
export async function updateCommunity({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown } & UpdateCommunityInput }): Promise<CommunityDto> {
  const viewer = requireViewer(ctx);
  requireLiveViewer(viewer);
  const { id, ...rest } = input;
  const { id: communityId } = communityIdParams.parse({ id });
  const body = updateCommunityInput.parse(rest);
  await consumeAccountLimits(["communityChange"], viewer.id);
  await assertStoredImages(body);
  return withTransaction(ctx, async (tx) => {
    requireAdmin(await lockLiveCommunity(tx, viewer.id, communityId));
    const sets: SQL[] = [];
    if (body.name !== undefined) sets.push(sql`name = ${body.name}`);
    if (body.description !== undefined) sets.push(sql`description = ${body.description}`);
    if (body.type !== undefined) sets.push(sql`type = ${body.type}`);
    if (body.wall !== undefined) sets.push(sql`wall = ${body.wall}`);
    if (body.photo !== undefined) sets.push(sql`photo = ${body.photo}`);
    if (body.cover !== undefined) sets.push(sql`cover = ${body.cover}`);
    await tx.execute(sql`update communities set ${sql.join(sets, sql`, `)} where id = ${communityId}`);
    return toCommunityDto((await readCommunityRow(tx, viewer.id, communityId))!);
  });
}

/**
 * DELETE communities/{id} — its owner deletes it: hidden from everyone, the owner may restore it for
 * DELETION_RESTORE_DAYS (as an account).
 */
export async function deleteCommunity({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown } }): Promise<CommunityDto> {
  const viewer = requireViewer(ctx);
  requireLiveViewer(viewer);
  const { id } = communityIdParams.parse(input);
  await consumeAccountLimits(["communityChange"], viewer.id);
  return withTransaction(ctx, async (tx) => {
    const row = await lockLiveCommunity(tx, viewer.id, id);
    if (roleOf(row) !== "OWNER") throw new ForbiddenError(COMMUNITY_ERRORS.notAllowed);
    await tx.execute(sql`update communities set is_deleted = true, deleted_at = now() where id = ${id}`);
    return toCommunityDto((await readCommunityRow(tx, viewer.id, id))!);
  });
}

/** POST communities/{id}/restore — its owner restores a deleted community within the window. */
export async function restoreCommunity({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown } }): Promise<CommunityDto> {
  const viewer = requireViewer(ctx);
  requireLiveViewer(viewer);
  const { id } = communityIdParams.parse(input);
  await consumeAccountLimits(["communityChange"], viewer.id);
  return withTransaction(ctx, async (tx) => {
    const row = await visibleCommunity(tx, viewer.id, id, true);
    if (Number(row.owner_id) !== viewer.id) throw new ForbiddenError(COMMUNITY_ERRORS.notAllowed);
    if (!row.is_deleted) throw new ConflictError(COMMUNITY_ERRORS.notDeleted);
    if ((restoreUntil(row.deleted_at)?.getTime() ?? 0) < Date.now()) throw new NotFoundError(COMMUNITY_ERRORS.restoreExpired);
    await tx.execute(sql`update communities set is_deleted = false, deleted_at = null where id = ${id}`);
    return toCommunityDto((await readCommunityRow(tx, viewer.id, id))!);
  });
}

/** Totals of community lists are exact up to this many and reported as this many beyond. */
const SEARCH_COUNT_CAP = 1_000;

/**
 * A search first looks among this many biggest live communities (communities_size_idx, read in order): when
 * the page's matches are all there, they are the page — any match outside is smaller than every one inside.
 * Otherwise (a rare text, a deep page) the trigram index finds every match and they are sorted (ADR 0171).
 */
const SEARCH_TOP = 2_000;
/** SEARCH_TOP, or COMMUNITY_SEARCH_TOP (tests walk its edge with a few communities). */
const searchTop = () => Number(process.env.COMMUNITY_SEARCH_TOP) || SEARCH_TOP;

/** `%`, `_` and `\` of a search text matched literally by LIKE. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * GET communities — `query`: communities whose name holds the text (trigram index), biggest first, private
 * ones only to their members; `memberId`: that person's communities (another's: the open ones, when their
 * page is open to the caller; one's own: all, or one's invitations or requests); neither: the caller's own.
 */
export async function listCommunities({ ctx, input }: { ctx: ServiceCtx; input: CommunityListQuery }): Promise<Page<CommunityDto>> {
  const viewer = requireViewer(ctx);
  const q = communityListQuery.parse(input);
  const db = ctx.tx ?? ctx.db;
  const int = (v: number) => sql.raw(String(Math.trunc(v)));
  const live = sql`not c.is_deleted and not c.is_blocked`;
  let where: SQL;
  let from: SQL;
  let order: SQL;
  let topFirst = false;
  if (q.query !== undefined && q.memberId === undefined) {
    if ([...q.query].length < COMMUNITY_QUERY_MIN) return pageOf([], 0, q.page, q.size);
    const pattern = `%${likeEscape(q.query.toLowerCase())}%`;
    from = sql`communities c left join community_members m on m.community_id = c.id and m.account_id = ${viewer.id}`;
    where = sql`lower(c.name) like ${pattern} and ${live} and (c.type <> 'PRIVATE' or m.status in ('MEMBER', 'INVITED'))`;
    order = sql`c.members_count desc nulls last, c.id desc nulls last`;
    topFirst = (q.page + 1) * q.size <= searchTop();
  } else {
    const owner = q.memberId ?? viewer.id;
    const own = owner === viewer.id;
    if (!own && q.membership !== undefined && q.membership !== "MEMBER") throw new ForbiddenError(COMMUNITY_ERRORS.notAllowed);
    const status = q.membership ?? "MEMBER";
    // The person's rows by community_members_account_idx, newest first; the caller's own row beside each.
    from = sql`community_members o join communities c on c.id = o.community_id
      left join community_members m on m.community_id = c.id and m.account_id = ${viewer.id}`;
    where = own
      ? sql`o.account_id = ${owner} and o.status = ${status} and ${live}`
      : sql`o.account_id = ${owner} and o.status = 'MEMBER' and ${live} and c.type = 'OPEN'
          and exists (select 1 from accounts p where p.id = ${owner} and not p.is_deleted and not p.is_blocked) and ${profileOpenSql(viewer.id, sql`${owner}::bigint`)}`;
    if (q.query !== undefined && q.query !== "") where = sql`${where} and lower(c.name) like ${`%${likeEscape(q.query.toLowerCase())}%`}`;
    order = sql`o.since desc, c.id desc`;
  }
  // The total is counted up to SEARCH_COUNT_CAP: a common three letters match thousands of communities.
  const [first, [total]] = await Promise.all([
    topFirst
      ? db.execute<CommunityRow>(sql`
          select ${communityColumns} from (
            select * from communities c where ${live} order by c.members_count desc nulls last, c.id desc nulls last limit ${int(searchTop())}) c
          left join community_members m on m.community_id = c.id and m.account_id = ${viewer.id}
          where ${where} order by ${order} limit ${int(q.size)} offset ${int(q.page * q.size)}`)
      : db.execute<CommunityRow>(sql`select ${communityColumns} from ${from} where ${where} order by ${order} limit ${int(q.size)} offset ${int(q.page * q.size)}`),
    db.execute<{ count: string }>(sql`select count(*) as count from (select 1 from ${from} where ${where} limit ${int(SEARCH_COUNT_CAP)}) n`),
  ]);
  // A page not full among the biggest: the matches may go on beyond them, so every match is asked.
  const rows =
    topFirst && first.length < q.size
      ? await db.execute<CommunityRow>(sql`select ${communityColumns} from ${from} where ${where} order by ${order} limit ${int(q.size)} offset ${int(q.page * q.size)}`)
      : first;
  return pageOf(rows.map(toCommunityDto), Number(total.count), q.page, q.size);
}
