import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { appendEvent } from "@/lib/server/events/outbox";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "@/lib/server/http/errors";
import { consumeAccountLimits, consumeLimitPoints } from "@/lib/server/http/rate-limit";
import { pageOf, type Page } from "@/lib/server/http/response";
import { isOnline } from "@/lib/server/services/accounts/presence";
import { isoTime } from "@/lib/server/services/friends/summary";
import { notifyGroupAdded } from "@/lib/server/services/notifications/producers";
import { getBlobStore } from "@/lib/server/storage/blob-store";
import {
  CHAT_ERRORS,
  CHAT_EVENT_TYPES,
  GROUP_MEMBERS_MAX,
  addMembersInput,
  groupTitleSchema,
  memberListQuery,
  memberParams,
  memberRoleInput,
  messageIdParams,
  muteInput,
  readerListQuery,
  updateGroupInput,
  dialogIdParams,
  type DialogDto,
  type GroupEventType,
  type GroupMemberDto,
  type GroupRole,
  type MemberCard,
  type MessageDto,
  type MuteChoice,
  type UpdateGroupInput,
} from "@/lib/validation/dialogs";
import { PRIVACY_ERRORS, type MessagesFrom } from "@/lib/validation/privacy";
import { storedKeyOf } from "@/lib/validation/storage";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { messagesAllowed } from "../privacy/rules";
import { lockPairShared, memberOrThrow, messageColumns, readDialogOf, toMessageDto, type MemberRow, type MessageRow } from "./access";

// Group conversations (issue 41, docs/adr/0169): up to GROUP_MEMBERS_MAX people, an owner, admins and
// members. Every change of membership, title, photo or role is one transaction with its event line in
// the history (a message with `event`) and its outbox events; the group's row is locked first, so
// concurrent changes of one group queue and its member count stays exact.

/** The present members of a group (who receive its live frames). */
export async function presentMemberIds(db: DbOrTx, dialogId: number): Promise<number[]> {
  const rows = await db.execute<{ account_id: string }>(sql`
    select account_id from dialog_members where dialog_id = ${dialogId} and left_message_id is null`);
  return rows.map((r) => Number(r.account_id));
}

type AddRow = { wanted: string; id: string | null; is_deleted: boolean | null; remote: boolean | null; messages_from: MessagesFrom | null; my_side: string | null; their_side: string | null };

/**
 * Throws the refusal that stops `actorId` from adding these people, if any: an id that is no live
 * person (422), a block either way (403), their messages from friends only when the actor is not a
 * friend (403). Under each pair's shared lock, so a block and an add never interleave (as for messages).
 */
async function assertMayAdd(tx: Tx, actorId: number, ids: number[]): Promise<void> {
  for (const id of [...ids].sort((a, b) => a - b)) await lockPairShared(tx, actorId, id);
  const rows = await tx.execute<AddRow>(sql`
    select t.id as wanted, a.id, a.is_deleted, a.remote, a.messages_from,
      (select status_code from friendships where account_id = ${actorId} and friend_id = t.id) as my_side,
      (select status_code from friendships where account_id = t.id and friend_id = ${actorId}) as their_side
    from unnest(${`{${ids.join(",")}}`}::bigint[]) with ordinality as t(id, i)
    left join accounts a on a.id = t.id
    order by t.i`);
  rows.forEach((r, i) => {
    if (r.id === null || r.is_deleted) throw new ValidationError(CHAT_ERRORS.notAPerson, [{ path: `accountIds.${i}`, message: CHAT_ERRORS.notAPerson }]);
  });
  for (const r of rows) {
    if (r.my_side === "BLOCKED" || r.my_side === "REJECTING" || r.their_side === "BLOCKED") throw new ForbiddenError(CHAT_ERRORS.cannotAdd);
    // Group conversations never federate (docs/adr/0176): a person of another server cannot be added.
    if (r.remote) throw new ForbiddenError(CHAT_ERRORS.remotePerson);
    if (!messagesAllowed({ messagesFrom: r.messages_from!, side: r.my_side as never })) throw new ForbiddenError(PRIVACY_ERRORS.messagesFriendsOnly);
  }
}

/**
 * The SET list that makes `who` the reader of the group's newest message `newId` (a sender has read
 * everything up to their own message): the group's read marks move by the rule of docs/adr/0169.
 */
const senderReadsSql = (who: number, newId: ReturnType<typeof sql>) => sql`
  read_second_id = case when read_top_by = ${who} then read_second_id else read_top_id end,
  read_top_id = ${newId}, read_top_by = ${who}`;

/**
 * Writes an event line of the group (`actorId` did `type` to `targetIds`), moves the group's counters
 * and the actor's read point, and tells every present member (and `extra`, someone the change removes)
 * with a MESSAGE frame. Call with the group row locked.
 */
async function writeEventLine(
  tx: Tx,
  dialogId: number,
  actorId: number,
  event: { type: GroupEventType; targetIds?: number[]; title?: string | null },
  extra: number[] = [],
): Promise<MessageDto> {
  const payload = { type: event.type, actorId, targetIds: event.targetIds ?? [], title: event.title ?? null };
  const [row] = await tx.execute<{ id: string; message_count: number }>(sql`
    with ins as (
      insert into messages (dialog_id, author_id, recipient_id, message_text, event)
      values (${dialogId}, ${actorId}, null, '', ${JSON.stringify(payload)}::jsonb)
      returning id, created_at)
    update dialogs d set message_count = d.message_count + 1, last_message_id = ins.id, activity_at = ins.created_at,
      ${senderReadsSql(actorId, sql`ins.id`)}
    from ins where d.id = ${dialogId}
    returning ins.id, d.message_count`);
  const id = Number(row.id);
  await tx.execute(sql`
    update dialog_members set read_count = ${row.message_count}, unread_adjust = 0, last_read_message_id = ${id}
    where dialog_id = ${dialogId} and account_id = ${actorId} and left_message_id is null`);
  const [m] = await tx.execute<MessageRow>(sql`select ${messageColumns} from messages m where m.id = ${id}`);
  const message = toMessageDto(m);
  const recipients = [...new Set([...(await presentMemberIds(tx, dialogId)), ...extra])];
  await appendEvent(tx, { type: CHAT_EVENT_TYPES.message, recipients, data: message, channel: dialogId });
  return message;
}

/** DIALOG_CHANGED: the group's card changed for these people (they read it again). */
async function tellChanged(tx: Tx, dialogId: number, extra: number[] = []): Promise<void> {
  const recipients = [...new Set([...(await presentMemberIds(tx, dialogId)), ...extra])];
  if (recipients.length > 0) await appendEvent(tx, { type: CHAT_EVENT_TYPES.groupChanged, recipients, data: { dialogId }, channel: dialogId });
}

type GroupHead = { title: string; photo: string | null; members_count: number; message_count: number; last_message_id: string | null };

/**
 * The group `dialogId` locked for a change by a present member `viewerId`: 404 when it is not the
 * viewer's (or they left), 422 when it is a personal dialog.
 */
async function lockGroupFor(tx: Tx, viewerId: number, dialogId: number): Promise<{ head: GroupHead; me: MemberRow }> {
  const [head] = await tx.execute<GroupHead & { kind: string }>(sql`
    select kind, title, photo, members_count, message_count, last_message_id from dialogs where id = ${dialogId} for update`);
  const me = await memberOrThrow(tx, viewerId, dialogId);
  if (!head) throw new NotFoundError(CHAT_ERRORS.dialogNotFound);
  if (head.kind !== "GROUP") throw new ValidationError(CHAT_ERRORS.notGroup);
  if (!me.present) throw new NotFoundError(CHAT_ERRORS.dialogNotFound);
  return { head, me };
}

async function dialogOf(tx: Tx, viewerId: number, dialogId: number): Promise<DialogDto> {
  const dialog = await readDialogOf(tx, viewerId, dialogId);
  if (!dialog) throw new NotFoundError(CHAT_ERRORS.dialogNotFound);
  return dialog;
}

/**
 * Adds `ids` to the locked group as members who see it from now on (their window starts before the
 * ADDED line, which they see). Someone who left before comes back with a new window. A new group's
 * owner comes in the same statement as its first members: dialog_counts is kept per statement in account
 * order (docs/adr/0190), and two statements would lock the owner's count before the others'.
 */
async function insertMembers(tx: Tx, dialogId: number, ids: number[], lastMessageId: number, messageCount: number, ownerId?: number): Promise<void> {
  const all = ownerId === undefined ? ids : [ownerId, ...ids];
  await tx.execute(sql`
    insert into dialog_members (dialog_id, account_id, partner_id, role, from_message_id, from_count, read_count, last_read_message_id)
    select ${dialogId}, t.id, null, case when t.id = ${ownerId ?? 0} then 'OWNER' else 'MEMBER' end, ${lastMessageId}, ${messageCount}, ${messageCount}, ${lastMessageId}
    from unnest(${`{${all.join(",")}}`}::bigint[]) t(id)
    on conflict (dialog_id, account_id) do update set
      role = 'MEMBER', from_message_id = excluded.from_message_id, from_count = excluded.from_count, until_count = null,
      left_message_id = null, left_title = null, left_photo = null, read_count = excluded.read_count, last_read_message_id = excluded.last_read_message_id,
      unread_adjust = 0, hidden_count = 0, muted_until = null, activity_at = now()`);
}

/**
 * POST dialogs {title, memberIds} — a new group conversation of the viewer (its owner) and those people.
 * Each must be a live person the viewer may write to (no block either way, their "who may write to me").
 * Counted against RATE_LIMIT_GROUP_CREATE, and each person added against RATE_LIMIT_GROUP_ADD.
 */
export async function createGroup({ ctx, input }: { ctx: ServiceCtx; input: { title: string; memberIds: number[] } }): Promise<DialogDto> {
  const viewer = requireViewer(ctx);
  const title = groupTitleSchema.parse(input.title);
  const ids = [...new Set(input.memberIds)].filter((id) => id !== viewer.id);
  if (ids.length === 0) throw new ValidationError(CHAT_ERRORS.membersEmpty, [{ path: "memberIds", message: CHAT_ERRORS.membersEmpty }]);
  if (ids.length + 1 > GROUP_MEMBERS_MAX) throw new ValidationError(CHAT_ERRORS.tooManyMembers, [{ path: "memberIds", message: CHAT_ERRORS.tooManyMembers }]);
  await consumeAccountLimits(["groupCreate"], viewer.id);
  await consumeLimitPoints("groupAdd", `account:${viewer.id}`, ids.length);
  return withTransaction(ctx, async (tx) => {
    const [me] = await tx.execute<{ is_deleted: boolean }>(sql`select is_deleted from accounts where id = ${viewer.id}`);
    if (!me || me.is_deleted) throw new ForbiddenError(CHAT_ERRORS.viewerDeleted);
    await assertMayAdd(tx, viewer.id, ids);
    const [d] = await tx.execute<{ id: string }>(sql`
      insert into dialogs (kind, title, members_count, message_count) values ('GROUP', ${title}, ${ids.length + 1}, 0) returning id`);
    const dialogId = Number(d.id);
    await insertMembers(tx, dialogId, ids, 0, 0, viewer.id);
    await writeEventLine(tx, dialogId, viewer.id, { type: "CREATED", title });
    await notifyGroupAdded(tx, { actorId: viewer.id, recipients: ids, dialogId, title });
    return dialogOf(tx, viewer.id, dialogId);
  });
}

/** Owner and admins change a group's title and photo. */
const mayManage = (role: GroupRole | null) => role === "OWNER" || role === "ADMIN";

/**
 * PATCH dialogs/{id} {title?, photo?} — the owner or an admin renames the group or changes its photo
 * (one of their own uploads; null removes it). Each change is a line in the history; the same values
 * again change nothing.
 */
export async function updateGroup({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown } & UpdateGroupInput }): Promise<DialogDto> {
  const viewer = requireViewer(ctx);
  const { id: dialogId } = dialogIdParams.parse({ id: input.id });
  const { title, photo } = updateGroupInput.parse({ title: input.title, photo: input.photo });
  await consumeAccountLimits(["groupChange"], viewer.id);
  if (photo) {
    const key = storedKeyOf(photo)!;
    if (!(await getBlobStore().exists(key))) throw new ValidationError(CHAT_ERRORS.badPhoto, [{ path: "photo", message: CHAT_ERRORS.badPhoto }]);
  }
  return withTransaction(ctx, async (tx) => {
    const { head, me } = await lockGroupFor(tx, viewer.id, dialogId);
    if (!mayManage(me.role)) throw new ForbiddenError(CHAT_ERRORS.notAllowed);
    if (photo && photo !== head.photo) {
      const [own] = await tx.execute(sql`select 1 from uploads where key = ${storedKeyOf(photo)!} and account_id = ${viewer.id}`);
      if (!own) throw new ValidationError(CHAT_ERRORS.badPhoto, [{ path: "photo", message: CHAT_ERRORS.badPhoto }]);
    }
    let changed = false;
    if (title !== undefined && title !== head.title) {
      await tx.execute(sql`update dialogs set title = ${title} where id = ${dialogId}`);
      await writeEventLine(tx, dialogId, viewer.id, { type: "RENAMED", title });
      changed = true;
    }
    if (photo !== undefined && photo !== head.photo) {
      await tx.execute(sql`update dialogs set photo = ${photo} where id = ${dialogId}`);
      await writeEventLine(tx, dialogId, viewer.id, { type: "PHOTO", title: photo === null ? null : "" });
      changed = true;
    }
    if (changed) await tellChanged(tx, dialogId);
    return dialogOf(tx, viewer.id, dialogId);
  });
}

/** A member's columns (`c` their member row, `a` their account) as `viewerId` sees them: friendship, and a block either way. */
const memberColumns = (viewerId: number) => sql`
  a.id, a.first_name, a.last_name, a.photo, ${isoTime(sql`a.last_online_time`)} as last_online, a.is_deleted, c.role,
  exists (select 1 from friendships f where f.account_id = ${viewerId} and f.friend_id = a.id and f.status_code = 'FRIEND') as is_friend,
  exists (select 1 from friendships f
          where ((f.account_id = ${viewerId} and f.friend_id = a.id) or (f.account_id = a.id and f.friend_id = ${viewerId}))
            and f.status_code = 'BLOCKED') as blocked`;

/** A member's card; across a block their presence is hidden (issue 24 item 20). */
function toGroupMember(r: MemberListRow, now: Date): GroupMemberDto {
  const seen = r.blocked ? null : r.last_online;
  return {
    id: Number(r.id),
    firstName: r.first_name,
    lastName: r.last_name,
    photo: r.photo,
    role: r.role,
    isOnline: isOnline(seen, now),
    lastOnlineTime: seen === null ? null : new Date(seen).toISOString(),
    isDeleted: r.is_deleted,
    isFriend: r.is_friend,
  };
}

type MemberListRow = {
  id: string;
  first_name: string;
  last_name: string;
  photo: string | null;
  last_online: string | null;
  is_deleted: boolean;
  role: GroupRole;
  is_friend: boolean;
  blocked: boolean;
};

/**
 * GET dialogs/{id}/members — the group's present members: the owner, the admins, then the viewer's
 * friends, then the rest by name. Only for a present member (404 otherwise). Presence is hidden across a block.
 */
export async function listMembers({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown; query?: Record<string, unknown> } }): Promise<Page<GroupMemberDto>> {
  const viewer = requireViewer(ctx);
  const { id: dialogId } = dialogIdParams.parse({ id: input.id });
  const { page, size } = memberListQuery.parse(input.query ?? {});
  const db = ctx.tx ?? ctx.db;
  const me = await memberOrThrow(db, viewer.id, dialogId);
  if (!me.present) throw new NotFoundError(CHAT_ERRORS.dialogNotFound);
  const [rows, [count]] = await Promise.all([
    db.execute<MemberListRow>(sql`
      select ${memberColumns(viewer.id)}
      from dialog_members c join accounts a on a.id = c.account_id
      where c.dialog_id = ${dialogId} and c.left_message_id is null
      order by case c.role when 'OWNER' then 0 when 'ADMIN' then 1 else 2 end, is_friend desc, a.first_name, a.last_name, a.id
      limit ${size} offset ${page * size}`),
    db.execute<{ members_count: number }>(sql`select members_count from dialogs where id = ${dialogId}`),
  ]);
  const now = new Date();
  return pageOf(
    rows.map((r) => toGroupMember(r, now)),
    Number(count?.members_count ?? 0),
    page,
    size,
  );
}

/**
 * POST dialogs/{id}/members {accountIds} — a present member adds people (as at creation: live people the
 * member may write to). Someone already in is 409; past GROUP_MEMBERS_MAX is 422. Each added person
 * counts against RATE_LIMIT_GROUP_ADD and gets a GROUP_ADDED notification.
 */
export async function addMembers({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown; accountIds: unknown } }): Promise<DialogDto> {
  const viewer = requireViewer(ctx);
  const { id: dialogId } = dialogIdParams.parse({ id: input.id });
  const { accountIds } = addMembersInput.parse({ accountIds: input.accountIds });
  await consumeLimitPoints("groupAdd", `account:${viewer.id}`, accountIds.length);
  return withTransaction(ctx, async (tx) => {
    const { head } = await lockGroupFor(tx, viewer.id, dialogId);
    if (accountIds.includes(viewer.id)) throw new ConflictError(CHAT_ERRORS.alreadyMember);
    const present = await tx.execute<{ account_id: string }>(sql`
      select account_id from dialog_members
      where dialog_id = ${dialogId} and left_message_id is null and account_id = any(${`{${accountIds.join(",")}}`}::bigint[])`);
    if (present.length > 0) throw new ConflictError(CHAT_ERRORS.alreadyMember);
    if (head.members_count + accountIds.length > GROUP_MEMBERS_MAX) {
      throw new ValidationError(CHAT_ERRORS.tooManyMembers, [{ path: "accountIds", message: CHAT_ERRORS.tooManyMembers }]);
    }
    await assertMayAdd(tx, viewer.id, accountIds);
    await insertMembers(tx, dialogId, accountIds, Number(head.last_message_id ?? 0), head.message_count);
    await tx.execute(sql`update dialogs set members_count = members_count + ${accountIds.length} where id = ${dialogId}`);
    await writeEventLine(tx, dialogId, viewer.id, { type: "ADDED", targetIds: accountIds });
    await tellChanged(tx, dialogId);
    await notifyGroupAdded(tx, { actorId: viewer.id, recipients: accountIds, dialogId, title: head.title });
    return dialogOf(tx, viewer.id, dialogId);
  });
}

/**
 * The member `accountId` leaves the locked group: the line of it is the last message they see; their
 * unread count ends at 0; no frame reaches them afterwards. An owner who leaves hands ownership to the
 * longest-standing admin, or else the longest-standing member.
 */
async function removeFromGroup(tx: Tx, dialogId: number, actorId: number, target: { id: number; role: GroupRole | null }, type: "LEFT" | "REMOVED"): Promise<void> {
  if (target.role === "OWNER") {
    const [heir] = await tx.execute<{ account_id: string }>(sql`
      select account_id from dialog_members
      where dialog_id = ${dialogId} and left_message_id is null and account_id <> ${target.id}
      order by (role = 'ADMIN') desc, from_message_id, account_id limit 1`);
    if (heir) {
      await tx.execute(sql`update dialog_members set role = 'OWNER' where dialog_id = ${dialogId} and account_id = ${heir.account_id}`);
      await writeEventLine(tx, dialogId, target.id, { type: "ROLE", targetIds: [Number(heir.account_id)], title: "OWNER" });
    }
  }
  const line = await writeEventLine(tx, dialogId, actorId, { type, targetIds: [target.id] }, [target.id]);
  await tx.execute(sql`
    update dialog_members m set left_message_id = ${line.id}, left_title = d.title, left_photo = d.photo, role = null, until_count = d.message_count, read_count = d.message_count,
      unread_adjust = 0, last_read_message_id = ${line.id}, activity_at = now(), muted_until = null
    from dialogs d where d.id = m.dialog_id and m.dialog_id = ${dialogId} and m.account_id = ${target.id}`);
  await tx.execute(sql`update dialogs set members_count = members_count - 1 where id = ${dialogId}`);
  await tellChanged(tx, dialogId, [target.id]);
}

/**
 * An account erased for good (its restore window over: accounts/anonymise.ts) leaves every group it is
 * still in, as if it had left: the line of it, and an owner's ownership passes on. Groups in id order, each
 * row locked first, as every membership change does.
 */
export async function leaveGroupsOnErasure(tx: Tx, accountId: number): Promise<void> {
  const rows = await tx.execute<{ dialog_id: string; role: GroupRole | null }>(sql`
    select dialog_id, role from dialog_members
    where account_id = ${accountId} and partner_id is null and left_message_id is null order by dialog_id`);
  for (const r of rows) {
    const dialogId = Number(r.dialog_id);
    await tx.execute(sql`select 1 from dialogs where id = ${dialogId} for update`);
    await removeFromGroup(tx, dialogId, accountId, { id: accountId, role: r.role }, "LEFT");
  }
}

/**
 * DELETE dialogs/{id}/members/{accountId} — yourself: leave; someone else: the owner removes anyone, an
 * admin removes members (not the owner, not other admins). Answers the group as the viewer now sees it.
 */
export async function removeMember({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown; accountId: unknown } }): Promise<DialogDto> {
  const viewer = requireViewer(ctx);
  const { id: dialogId, accountId } = memberParams.parse(input);
  await consumeAccountLimits(["groupChange"], viewer.id);
  return withTransaction(ctx, async (tx) => {
    const { me } = await lockGroupFor(tx, viewer.id, dialogId);
    if (accountId === viewer.id) {
      await removeFromGroup(tx, dialogId, viewer.id, { id: viewer.id, role: me.role }, "LEFT");
      return dialogOf(tx, viewer.id, dialogId);
    }
    const target = await memberOrThrow(tx, accountId, dialogId).catch(() => null);
    if (!target || !target.present) throw new NotFoundError(CHAT_ERRORS.notMember);
    const allowed = me.role === "OWNER" || (me.role === "ADMIN" && target.role === "MEMBER");
    if (!allowed) throw new ForbiddenError(CHAT_ERRORS.notAllowed);
    await removeFromGroup(tx, dialogId, viewer.id, { id: accountId, role: target.role }, "REMOVED");
    return dialogOf(tx, viewer.id, dialogId);
  });
}

/**
 * PUT dialogs/{id}/members/{accountId} {role} — the owner makes a member an admin or back, or hands
 * ownership on (role OWNER: they become an admin). The same role again changes nothing.
 */
export async function setMemberRole({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown; accountId: unknown; role: unknown } }): Promise<GroupMemberDto> {
  const viewer = requireViewer(ctx);
  const { id: dialogId, accountId } = memberParams.parse(input);
  const { role } = memberRoleInput.parse({ role: input.role });
  await consumeAccountLimits(["groupChange"], viewer.id);
  return withTransaction(ctx, async (tx) => {
    const { me } = await lockGroupFor(tx, viewer.id, dialogId);
    if (me.role !== "OWNER") throw new ForbiddenError(CHAT_ERRORS.notAllowed);
    if (accountId === viewer.id) throw new ValidationError(CHAT_ERRORS.badRole, [{ path: "role", message: CHAT_ERRORS.badRole }]);
    const target = await memberOrThrow(tx, accountId, dialogId).catch(() => null);
    if (!target || !target.present) throw new NotFoundError(CHAT_ERRORS.notMember);
    if (target.role !== role) {
      await tx.execute(sql`update dialog_members set role = ${role} where dialog_id = ${dialogId} and account_id = ${accountId}`);
      if (role === "OWNER") await tx.execute(sql`update dialog_members set role = 'ADMIN' where dialog_id = ${dialogId} and account_id = ${viewer.id}`);
      await writeEventLine(tx, dialogId, viewer.id, { type: "ROLE", targetIds: [accountId], title: role });
      await tellChanged(tx, dialogId);
    }
    return memberCard(tx, viewer.id, dialogId, accountId);
  });
}

async function memberCard(tx: Tx, viewerId: number, dialogId: number, accountId: number): Promise<GroupMemberDto> {
  const [r] = await tx.execute<MemberListRow>(sql`
    select ${memberColumns(viewerId)}
    from dialog_members c join accounts a on a.id = c.account_id where c.dialog_id = ${dialogId} and c.account_id = ${accountId}`);
  return toGroupMember(r, new Date());
}

const MUTE_FOREVER = "9999-12-31T00:00:00Z";

function muteUntil(choice: MuteChoice): string | null {
  const now = Date.now();
  if (choice === "HOUR") return new Date(now + 3_600_000).toISOString();
  if (choice === "EIGHT_HOURS") return new Date(now + 8 * 3_600_000).toISOString();
  if (choice === "FOREVER") return MUTE_FOREVER;
  return null;
}

/**
 * PUT dialogs/{id}/mute {duration} — mutes the group for the viewer for an hour, eight hours, or until
 * switched back on (OFF). A muted group sends no push; a mention still notifies. The viewer's other tabs hear it.
 */
export async function muteGroup({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown; duration: unknown } }): Promise<DialogDto> {
  const viewer = requireViewer(ctx);
  const { id: dialogId } = dialogIdParams.parse({ id: input.id });
  const { duration } = muteInput.parse({ duration: input.duration });
  await consumeAccountLimits(["groupChange"], viewer.id);
  return withTransaction(ctx, async (tx) => {
    const me = await memberOrThrow(tx, viewer.id, dialogId, true);
    if (!me.group) throw new ValidationError(CHAT_ERRORS.notGroup);
    if (!me.present) throw new NotFoundError(CHAT_ERRORS.dialogNotFound);
    const until = muteUntil(duration);
    await tx.execute(sql`update dialog_members set muted_until = ${until}::timestamptz where dialog_id = ${dialogId} and account_id = ${viewer.id}`);
    await appendEvent(tx, { type: CHAT_EVENT_TYPES.groupChanged, recipients: [viewer.id], data: { dialogId } });
    return dialogOf(tx, viewer.id, dialogId);
  });
}

/**
 * GET dialogs/{id}/messages/{messageId}/readers — who has read a group message: members (present or
 * gone since) whose read point reached it, the author left out. Only the author asks (403 otherwise);
 * a message the viewer does not see is 404.
 */
export async function listReaders({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown; messageId: unknown; query?: Record<string, unknown> } }): Promise<Page<MemberCard>> {
  const viewer = requireViewer(ctx);
  const { id: dialogId, messageId } = messageIdParams.parse({ id: input.id, messageId: input.messageId });
  const { page, size } = readerListQuery.parse(input.query ?? {});
  const db = ctx.tx ?? ctx.db;
  const me = await memberOrThrow(db, viewer.id, dialogId);
  if (!me.group) throw new ValidationError(CHAT_ERRORS.notGroup);
  const [m] = await db.execute<{ author_id: string }>(sql`
    select author_id from messages where id = ${messageId} and dialog_id = ${dialogId} and id > ${me.fromMessageId}
      ${me.leftMessageId === null ? sql`` : sql`and id <= ${me.leftMessageId}`}`);
  if (!m) throw new NotFoundError(CHAT_ERRORS.messageNotFound);
  if (Number(m.author_id) !== viewer.id) throw new ForbiddenError(CHAT_ERRORS.notAuthor);
  // Someone who joined after it never saw it, whatever their read point says.
  const where = sql`r.dialog_id = ${dialogId} and r.account_id <> ${viewer.id} and r.last_read_message_id >= ${messageId} and r.from_message_id < ${messageId}`;
  const [rows, [count]] = await Promise.all([
    db.execute<{ id: string; first_name: string; last_name: string; photo: string | null }>(sql`
      select a.id, a.first_name, a.last_name, a.photo from dialog_members r join accounts a on a.id = r.account_id
      where ${where} order by a.first_name, a.last_name, a.id limit ${size} offset ${page * size}`),
    db.execute<{ count: string }>(sql`select count(*) as count from dialog_members r where ${where}`),
  ]);
  return pageOf(
    rows.map((r) => ({ id: Number(r.id), firstName: r.first_name, lastName: r.last_name, photo: r.photo })),
    Number(count.count),
    page,
    size,
  );
}
