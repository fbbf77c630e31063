import "server-only";
import { sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/server/http/errors";
import { consumeAccountLimits } from "@/lib/server/http/rate-limit";
import { pageOf, type Page } from "@/lib/server/http/response";
import { isoTime } from "@/lib/server/services/friends/summary";
import { notifyCommunityAccepted, notifyCommunityInvitation, notifyCommunityRequest } from "@/lib/server/services/notifications/producers";
import {
  COMMUNITY_ERRORS,
  communityFeedInput,
  communityIdParams,
  communityMemberListQuery,
  communityMemberParams,
  inviteInput,
  updateMemberInput,
  type CommunityDto,
  type CommunityFeedInput,
  type CommunityMemberDto,
  type CommunityMemberListQuery,
  type CommunityRole,
  type Membership,
  type UpdateMemberInput,
} from "@/lib/validation/communities";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { communityFanoutMax, syncCommunityMember } from "../posts/home-timeline";
import { lockLiveCommunity, readCommunityRow, requireAdmin, requireLiveViewer, ROLE_RANK, roleOf, toCommunityDto, visibleCommunity, type CommunityRow } from "./access";

// Members of communities (issue 42): join, ask, accept an invitation, leave; an admin accepts, refuses,
// removes and bans; the owner gives roles and hands the community on; members invite friends. The
// community's row is locked first in every change, so members_count (status MEMBER rows) stays exact.

type MemberRow = { status: Exclude<Membership, "NONE">; role: CommunityRole };

async function memberRow(tx: Tx, communityId: number, accountId: number): Promise<MemberRow | null> {
  const [row] = await tx.execute<MemberRow>(sql`
    select status, role from community_members where community_id = ${communityId} and account_id = ${accountId} for update`);
  return row ?? null;
}

/**
 * members_count follows every row that becomes or stops being MEMBER, in the same transaction; past
 * COMMUNITY_FANOUT_MAX the community is read at request time from then on, and the member's timeline gains
 * or loses its posts (ADR 0188).
 */
async function bumpCount(tx: Tx, communityId: number, accountId: number, delta: 1 | -1): Promise<void> {
  await tx.execute(sql`
    update communities set members_count = members_count + ${delta},
      read_at_request = read_at_request or members_count + ${delta} > ${communityFanoutMax()}
    where id = ${communityId}`);
  await syncCommunityMember(tx, communityId, accountId);
}

const memberDtoSelect = (viewerId: number) => sql`
  select a.id, a.first_name, a.last_name, a.photo, m.role, m.status, ${isoTime(sql`m.since`)} as since,
    coalesce(f.status_code = 'FRIEND', false) as is_friend
  from community_members m
  join accounts a on a.id = m.account_id
  left join friendships f on f.account_id = ${viewerId} and f.friend_id = m.account_id`;

type MemberDtoRow = { id: string; first_name: string; last_name: string; photo: string | null; role: CommunityRole; status: MemberRow["status"]; since: string; is_friend: boolean };

const toMemberDto = (r: MemberDtoRow): CommunityMemberDto => ({
  id: Number(r.id),
  firstName: r.first_name,
  lastName: r.last_name,
  photo: r.photo,
  role: r.status === "MEMBER" ? r.role : null,
  status: r.status,
  since: new Date(r.since).toISOString(),
  isFriend: r.is_friend,
});

async function readMemberDto(tx: Tx, viewerId: number, communityId: number, accountId: number): Promise<CommunityMemberDto> {
  const [row] = await tx.execute<MemberDtoRow>(sql`${memberDtoSelect(viewerId)} where m.community_id = ${communityId} and m.account_id = ${accountId}`);
  return toMemberDto(row);
}

const communityAfter = async (tx: Tx, viewerId: number, communityId: number): Promise<CommunityDto> => toCommunityDto((await readCommunityRow(tx, viewerId, communityId))!);

/**
 * POST communities/{id}/members — join an open community, ask to join a closed one, or accept an
 * invitation (any kind). 409 already a member or already asked, 403 banned, 404 a private one without an
 * invitation. RATE_LIMIT_COMMUNITY_JOIN.
 */
export async function joinCommunity({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown } }): Promise<CommunityDto> {
  const viewer = requireViewer(ctx);
  requireLiveViewer(viewer);
  const { id } = communityIdParams.parse(input);
  await consumeAccountLimits(["communityJoin"], viewer.id);
  return withTransaction(ctx, async (tx) => {
    const c = await lockLiveCommunity(tx, viewer.id, id);
    switch (c.my_status) {
      case "MEMBER":
        throw new ConflictError(COMMUNITY_ERRORS.alreadyMember);
      case "BANNED":
        throw new ForbiddenError(COMMUNITY_ERRORS.banned);
      case "REQUESTED":
        // A closed community opened since the request: the request is a join now.
        if (c.type !== "OPEN") throw new ConflictError(COMMUNITY_ERRORS.alreadyRequested);
        break;
      case "INVITED":
        break;
      default:
        // (A private community without an invitation is invisible: lockLiveCommunity answered 404.)
        if (c.type === "CLOSED") {
          await tx.execute(sql`insert into community_members (community_id, account_id, status) values (${id}, ${viewer.id}, 'REQUESTED')`);
          await notifyCommunityRequest(tx, { actorId: viewer.id, communityId: id });
          return communityAfter(tx, viewer.id, id);
        }
    }
    await tx.execute(sql`
      insert into community_members (community_id, account_id, status, role, by_id) values (${id}, ${viewer.id}, 'MEMBER', 'MEMBER', null)
      on conflict (community_id, account_id) do update set status = 'MEMBER', role = 'MEMBER', since = now()`);
    await bumpCount(tx, id, viewer.id, 1);
    return communityAfter(tx, viewer.id, id);
  });
}

/**
 * GET communities/{id}/members?status= — MEMBER: whoever may read the community, the caller's friends first,
 * then by the time they joined; REQUESTED, INVITED, BANNED: its admins. People deleted, blocked by the
 * staff, or in a block with the caller are left out.
 */
export async function listCommunityMembers({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown; query: CommunityMemberListQuery } }): Promise<Page<CommunityMemberDto>> {
  const viewer = requireViewer(ctx);
  const { id } = communityIdParams.parse({ id: input.id });
  const q = communityMemberListQuery.parse(input.query);
  const db = ctx.tx ?? ctx.db;
  const c = await visibleCommunity(db, viewer.id, id);
  if (q.status === "MEMBER") {
    if (!toCommunityDto(c).canRead) throw new ForbiddenError(COMMUNITY_ERRORS.notAllowed);
  } else requireAdmin(c);
  const int = (v: number) => sql.raw(String(Math.trunc(v)));
  const shown = sql`not a.is_deleted and not a.is_blocked
    and not exists (select 1 from friendships b where b.account_id = ${viewer.id} and b.friend_id = m.account_id and b.status_code in ('BLOCKED', 'REJECTING'))`;
  // Friends first: the caller's friends (one index range of friendships) probed in the community; then the
  // rest in community_members_status_idx order, stopped after the page (a community of 100,000 is never sorted).
  const rows = await db.execute<MemberDtoRow>(sql`
    select * from (
      (select * from (
        select a.id, a.first_name, a.last_name, a.photo, m.role, m.status, ${isoTime(sql`m.since`)} as since, true as is_friend
        from friendships f
        join community_members m on m.community_id = ${id} and m.account_id = f.friend_id
        join accounts a on a.id = m.account_id
        where f.account_id = ${viewer.id} and f.status_code = 'FRIEND' and m.status = ${q.status} and ${shown}
        order by m.since, m.account_id) fr)
      union all
      (select * from (${memberDtoSelect(viewer.id)}
        where m.community_id = ${id} and m.status = ${q.status} and f.status_code is distinct from 'FRIEND' and ${shown}
        order by m.since, m.account_id limit ${int((q.page + 1) * q.size)}) rest)
    ) x order by x.is_friend desc, x.since, x.id limit ${int(q.size)} offset ${int(q.page * q.size)}`);
  const total =
    q.status === "MEMBER"
      ? c.members_count
      : Number((await db.execute<{ count: string }>(sql`select count(*) as count from community_members where community_id = ${id} and status = ${q.status}`))[0].count);
  return pageOf(rows.map(toMemberDto), total, q.page, q.size);
}

/**
 * PUT communities/{id}/members/{accountId} — `status` MEMBER accepts a request and BANNED bans (an admin, over
 * someone below them; a ban needs no membership); `role` (the owner) makes an admin, a moderator or a member
 * of a member, or with OWNER hands the community on (the old owner becomes an admin).
 */
export async function updateCommunityMember({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown; accountId: unknown } & UpdateMemberInput }): Promise<CommunityMemberDto> {
  const viewer = requireViewer(ctx);
  requireLiveViewer(viewer);
  const { id: rawId, accountId: rawAccount, ...rest } = input;
  const { id, accountId } = communityMemberParams.parse({ id: rawId, accountId: rawAccount });
  const body = updateMemberInput.parse(rest);
  await consumeAccountLimits(["communityChange"], viewer.id);
  return withTransaction(ctx, async (tx) => {
    const c = await lockLiveCommunity(tx, viewer.id, id);
    const myRole = requireAdmin(c);
    if (accountId === viewer.id) throw new ForbiddenError(COMMUNITY_ERRORS.notAllowed);
    const target = await memberRow(tx, id, accountId);
    if (body.role !== undefined) {
      if (myRole !== "OWNER") throw new ForbiddenError(COMMUNITY_ERRORS.notAllowed);
      if (target?.status !== "MEMBER") throw new NotFoundError(COMMUNITY_ERRORS.memberNotFound);
      if (body.role === "OWNER") {
        await tx.execute(sql`update community_members set role = 'ADMIN' where community_id = ${id} and account_id = ${viewer.id}`);
        await tx.execute(sql`update communities set owner_id = ${accountId} where id = ${id}`);
      }
      await tx.execute(sql`update community_members set role = ${body.role} where community_id = ${id} and account_id = ${accountId}`);
    } else if (body.status === "MEMBER") {
      if (target?.status === "MEMBER") throw new ConflictError(COMMUNITY_ERRORS.alreadyMember);
      if (target?.status !== "REQUESTED") throw new NotFoundError(COMMUNITY_ERRORS.memberNotFound);
      await tx.execute(sql`
        update community_members set status = 'MEMBER', role = 'MEMBER', by_id = ${viewer.id}, since = now()
        where community_id = ${id} and account_id = ${accountId}`);
      await bumpCount(tx, id, accountId, 1);
      await notifyCommunityAccepted(tx, { actorId: viewer.id, accountId, communityId: id });
    } else {
      if (target?.status === "BANNED") throw new ConflictError(COMMUNITY_ERRORS.banned);
      if (target?.status === "MEMBER" && ROLE_RANK[target.role] >= ROLE_RANK[myRole]) throw new ForbiddenError(COMMUNITY_ERRORS.notAllowed);
      const [person] = await tx.execute<{ id: string }>(sql`select id from accounts where id = ${accountId} and not is_deleted`);
      if (!person) throw new NotFoundError(COMMUNITY_ERRORS.accountNotFound);
      await tx.execute(sql`
        insert into community_members (community_id, account_id, status, role, by_id) values (${id}, ${accountId}, 'BANNED', 'MEMBER', ${viewer.id})
        on conflict (community_id, account_id) do update set status = 'BANNED', role = 'MEMBER', by_id = ${viewer.id}, since = now()`);
      if (target?.status === "MEMBER") await bumpCount(tx, id, accountId, -1);
    }
    return readMemberDto(tx, viewer.id, id, accountId);
  });
}

/**
 * DELETE communities/{id}/members/{accountId} — oneself: leave (not the owner: hand it on first), take back
 * a request, decline an invitation; an admin, of someone else: remove a member below them, refuse a
 * request, withdraw an invitation, lift a ban. Answers the community as the caller sees it now.
 */
export async function removeCommunityMember({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown; accountId: unknown } }): Promise<CommunityDto> {
  const viewer = requireViewer(ctx);
  const { id, accountId } = communityMemberParams.parse(input);
  await consumeAccountLimits(["communityChange"], viewer.id);
  return withTransaction(ctx, async (tx) => {
    // A deleted community is still left by its members' own hands only through restore: 404 here.
    const c = await lockLiveCommunity(tx, viewer.id, id);
    const target = accountId === viewer.id ? (c.my_status ? { status: c.my_status, role: c.my_role! } : null) : await memberRow(tx, id, accountId);
    if (!target) throw new NotFoundError(COMMUNITY_ERRORS.memberNotFound);
    if (accountId === viewer.id) {
      if (target.status === "BANNED") throw new ForbiddenError(COMMUNITY_ERRORS.banned);
      if (target.status === "MEMBER" && target.role === "OWNER") throw new ForbiddenError(COMMUNITY_ERRORS.ownerLeaves);
    } else {
      requireLiveViewer(viewer);
      const myRole = requireAdmin(c);
      if (target.status === "MEMBER" && ROLE_RANK[target.role] >= ROLE_RANK[myRole]) throw new ForbiddenError(COMMUNITY_ERRORS.notAllowed);
    }
    await tx.execute(sql`delete from community_members where community_id = ${id} and account_id = ${accountId}`);
    if (target.status === "MEMBER") await bumpCount(tx, id, accountId, -1);
    return communityAfter(tx, viewer.id, id);
  });
}

/**
 * POST communities/{id}/invitations {accountId} — a member invites a friend (in a private community, an
 * admin does); the friend sees it among their invitations and joins by accepting. An admin's invitation
 * of someone who asked accepts them. RATE_LIMIT_COMMUNITY_INVITE.
 */
export async function inviteToCommunity({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown; accountId: unknown } }): Promise<CommunityMemberDto> {
  const viewer = requireViewer(ctx);
  requireLiveViewer(viewer);
  const { id } = communityIdParams.parse({ id: input.id });
  const { accountId } = inviteInput.parse({ accountId: input.accountId });
  await consumeAccountLimits(["communityInvite"], viewer.id);
  return withTransaction(ctx, async (tx) => {
    const c: CommunityRow = await lockLiveCommunity(tx, viewer.id, id);
    const myRole = roleOf(c);
    if (myRole === null) throw new ForbiddenError(COMMUNITY_ERRORS.notAllowed);
    const admin = myRole === "OWNER" || myRole === "ADMIN";
    if (c.type === "PRIVATE" && !admin) throw new ForbiddenError(COMMUNITY_ERRORS.notAllowed);
    const [person] = await tx.execute<{ deleted: boolean; side: string | null }>(sql`
      select a.is_deleted or a.is_blocked as deleted,
        (select status_code from friendships where account_id = ${viewer.id} and friend_id = a.id) as side
      from accounts a where a.id = ${accountId}`);
    if (!person || person.deleted || accountId === viewer.id) throw new NotFoundError(COMMUNITY_ERRORS.accountNotFound);
    if (person.side === "BLOCKED" || person.side === "REJECTING") throw new ForbiddenError(COMMUNITY_ERRORS.blocked);
    if (person.side !== "FRIEND") throw new ForbiddenError(COMMUNITY_ERRORS.notFriend);
    const target = await memberRow(tx, id, accountId);
    if (target?.status === "MEMBER") throw new ConflictError(COMMUNITY_ERRORS.alreadyMember);
    if (target?.status === "INVITED") throw new ConflictError(COMMUNITY_ERRORS.alreadyInvited);
    if (target?.status === "BANNED") throw new ForbiddenError(COMMUNITY_ERRORS.banned);
    if (target?.status === "REQUESTED") {
      if (!admin) throw new ConflictError(COMMUNITY_ERRORS.alreadyRequested);
      await tx.execute(sql`
        update community_members set status = 'MEMBER', role = 'MEMBER', by_id = ${viewer.id}, since = now()
        where community_id = ${id} and account_id = ${accountId}`);
      await bumpCount(tx, id, accountId, 1);
      await notifyCommunityAccepted(tx, { actorId: viewer.id, accountId, communityId: id });
    } else {
      await tx.execute(sql`
        insert into community_members (community_id, account_id, status, by_id) values (${id}, ${accountId}, 'INVITED', ${viewer.id})`);
      await notifyCommunityInvitation(tx, { actorId: viewer.id, accountId, communityId: id });
    }
    return readMemberDto(tx, viewer.id, id, accountId);
  });
}

/** PUT communities/{id}/feed {inFeed} — a member keeps the community's posts in their news feed, or not. */
export async function setCommunityFeed({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown } & CommunityFeedInput }): Promise<CommunityDto> {
  const viewer = requireViewer(ctx);
  const { id } = communityIdParams.parse({ id: input.id });
  const { inFeed } = communityFeedInput.parse({ inFeed: input.inFeed });
  await consumeAccountLimits(["communityChange"], viewer.id);
  return withTransaction(ctx, async (tx) => {
    const c = await lockLiveCommunity(tx, viewer.id, id);
    if (roleOf(c) === null) throw new ForbiddenError(COMMUNITY_ERRORS.notAllowed);
    await tx.execute(sql`update community_members set feed_off = ${!inFeed} where community_id = ${id} and account_id = ${viewer.id}`);
    await syncCommunityMember(tx, id, viewer.id);
    return communityAfter(tx, viewer.id, id);
  });
}
