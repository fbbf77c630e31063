import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { ForbiddenError, NotFoundError } from "@/lib/server/http/errors";
import { isOnline } from "@/lib/server/services/accounts/presence";
import { isoTime } from "@/lib/server/services/friends/summary";
import {
  CHAT_ERRORS,
  REPLY_PREVIEW_MAX,
  type DialogDto,
  type DialogPartner,
  type GroupEvent,
  type GroupEventType,
  type GroupRole,
  type MemberCard,
  type MessageDto,
  type MessageReplyPreview,
} from "@/lib/validation/dialogs";
import { PRIVACY_ERRORS, type MessagesFrom } from "@/lib/validation/privacy";
import { messagesAllowed } from "../privacy/rules";

// Shared by the dialog verbs: pair locking, who may write to whom, and the row → DTO mappers.

/**
 * The friend actions take an exclusive transaction lock on this key (services/friends/apply-action.ts);
 * a chat write takes it shared. So a block and a message of the same pair never interleave: the message
 * either commits before the block or sees it and is refused. Messages of one pair do not wait for each other.
 */
export async function lockPairShared(tx: Tx, a: number, b: number): Promise<void> {
  const [low, high] = a < b ? [a, b] : [b, a];
  await tx.execute(sql`select pg_advisory_xact_lock_shared(hashtextextended(${`krug:friendship:${low}:${high}`}, 0))`);
}

type PairRow = { id: string; is_deleted: boolean; remote: boolean; messages_from: MessagesFrom; my_side: string | null; their_side: string | null };

/**
 * Throws the refusal that stops `me` from writing to `them`, if any: an unknown account (404), a deleted
 * one on either side, a block in either direction, their messages from friends only (403). Call under
 * lockPairShared.
 */
export async function assertMayWrite(tx: DbOrTx, me: number, them: number): Promise<void> {
  const rows = await tx.execute<PairRow>(sql`
    select a.id, a.is_deleted, a.remote, a.messages_from,
      (select status_code from friendships where account_id = ${me} and friend_id = ${them}) as my_side,
      (select status_code from friendships where account_id = ${them} and friend_id = ${me}) as their_side
    from accounts a where a.id in (${me}, ${them})`);
  const mine = rows.find((r) => Number(r.id) === me);
  const theirs = rows.find((r) => Number(r.id) === them);
  if (!mine || mine.is_deleted) throw new ForbiddenError(CHAT_ERRORS.viewerDeleted);
  if (!theirs) throw new NotFoundError(CHAT_ERRORS.accountNotFound);
  if (theirs.is_deleted) throw new ForbiddenError(CHAT_ERRORS.partnerDeleted);
  // No direct messages over ActivityPub (issue 43), not even to a mutual follower.
  if (theirs.remote) throw new ForbiddenError(CHAT_ERRORS.remotePerson);
  const side = mine.my_side;
  if (side === "BLOCKED") throw new ForbiddenError(CHAT_ERRORS.youBlocked);
  if (side === "REJECTING" || mine.their_side === "BLOCKED") throw new ForbiddenError(CHAT_ERRORS.blocked);
  // Their privacy: messages from friends only (docs/adr/0125).
  if (!messagesAllowed({ messagesFrom: theirs.messages_from, side })) throw new ForbiddenError(PRIVACY_ERRORS.messagesFriendsOnly);
}

export const orderedPair = (a: number, b: number): [number, number] => (a < b ? [a, b] : [b, a]);

// ---- Messages ----

/**
 * The quoted preview of the message `q` (a reply's original): its text cut to REPLY_PREVIEW_MAX
 * characters, none once it was deleted for both.
 */
export const replyPreviewJson = (q: string) =>
  sql.raw(`json_build_object('id', ${q}.id, 'authorId', ${q}.author_id, 'messageText', left(${q}.message_text, ${REPLY_PREVIEW_MAX}), 'deleted', ${q}.deleted_at is not null, 'imageCount', coalesce(cardinality(${q}.images), 0))`);

/** A person's card (MemberCard) from the accounts row `a`. */
export const memberCardJson = (a: string) =>
  sql.raw(`json_build_object('id', ${a}.id, 'firstName', ${a}.first_name, 'lastName', ${a}.last_name, 'photo', ${a}.photo)`);

/**
 * Whether message `m` is READ. Personal: its id is within the recipient's read point. Group: someone
 * other than the author has read that far, from the dialog's two read marks (docs/adr/0169): O(1).
 */
export const readStateSql = (m: string) =>
  sql.raw(`(case when ${m}.recipient_id is null then
    coalesce((select (g.read_top_by <> ${m}.author_id and g.read_top_id >= ${m}.id) or g.read_second_id >= ${m}.id
              from dialogs g where g.id = ${m}.dialog_id), false)
  else ${m}.id <= coalesce((select r.last_read_message_id from dialog_members r
                            where r.dialog_id = ${m}.dialog_id and r.account_id = ${m}.recipient_id), 0) end)`);

/** A group event line of message `m` with the cards of its people (actor and targets, at most GROUP_ADD_MAX + 1). */
export const eventJson = (m: string) =>
  // One array of ids, so each is a probe of accounts_pkey: `id = actor or id in (targets)` was a sequential scan
  // of every account for each event line of a history or a dialog list's preview.
  sql.raw(`(${m}.event || jsonb_build_object('people', coalesce((select jsonb_agg(jsonb_build_object('id', a.id, 'firstName', a.first_name, 'lastName', a.last_name, 'photo', a.photo) order by a.id)
      from accounts a where a.id = any(array[(${m}.event->>'actorId')::bigint]
        || array(select t::bigint from jsonb_array_elements_text(coalesce(${m}.event->'targetIds', '[]'::jsonb)) t))), '[]'::jsonb)))`);

/**
 * Columns of a message row `m` plus its read state from the recipient's member row `r`, and the
 * preview of the message it answers (one primary-key probe, only for replies).
 */
export const messageColumns = sql`
  m.id, m.dialog_id, m.author_id, m.recipient_id, m.message_text, m.client_id,
  ${isoTime(sql`m.created_at`)} as created_at,
  ${readStateSql("m")} as is_read,
  ${isoTime(sql`m.edited_at`)} as edited_at, m.deleted_at is not null as deleted, m.images,
  case when m.recipient_id is null then (select ${memberCardJson("a")} from accounts a where a.id = m.author_id) end as author,
  case when m.event is not null then ${eventJson("m")} end as event, m.mentions,
  case when m.reply_to_id is not null then
    (select ${replyPreviewJson("q")} from messages q where q.id = m.reply_to_id and q.dialog_id = m.dialog_id) end as reply_to`;

type RawEvent = { type: GroupEventType; actorId: number | string; targetIds?: (number | string)[]; title?: string | null; people?: MemberCard[] };

export type MessageRow = {
  author?: MemberCard | string | null;
  event?: RawEvent | string | null;
  mentions?: (string | number)[] | null;
  id: string | number;
  dialog_id: string | number;
  author_id: string | number;
  recipient_id: string | number | null;
  message_text: string;
  client_id: string | null;
  created_at: string;
  is_read: boolean;
  edited_at: string | null;
  deleted: boolean;
  reply_to: MessageReplyPreview | string | null;
  images: string[] | null;
};

/** A reply preview as the driver hands it (json arrives parsed or as text), with numeric ids. */
export function toReplyPreview(v: MessageReplyPreview | string | null): MessageReplyPreview | null {
  if (v === null || v === undefined) return null;
  const p = (typeof v === "string" ? JSON.parse(v) : v) as MessageReplyPreview;
  return {
    id: Number(p.id),
    authorId: Number(p.authorId),
    messageText: p.deleted ? "" : p.messageText,
    deleted: !!p.deleted,
    imageCount: p.deleted ? 0 : Number(p.imageCount ?? 0),
  };
}

const parsed = <T>(v: T | string | null | undefined): T | null => (v === null || v === undefined ? null : typeof v === "string" ? (JSON.parse(v) as T) : v);

export function toMemberCard(v: MemberCard | string | null | undefined): MemberCard | null {
  const c = parsed(v);
  return c ? { id: Number(c.id), firstName: c.firstName, lastName: c.lastName, photo: c.photo ?? null } : null;
}

export function toGroupEvent(v: RawEvent | string | null | undefined): GroupEvent | null {
  const e = parsed(v);
  if (!e) return null;
  return {
    type: e.type,
    actorId: Number(e.actorId),
    targetIds: (e.targetIds ?? []).map(Number),
    title: e.title ?? null,
    people: (e.people ?? []).map((p) => toMemberCard(p)!),
  };
}

export function toMessageDto(r: MessageRow): MessageDto {
  const author = Number(r.author_id);
  const recipient = r.recipient_id === null ? null : Number(r.recipient_id);
  const group = recipient === null;
  return {
    id: Number(r.id),
    dialogId: Number(r.dialog_id),
    time: new Date(r.created_at).toISOString(),
    conversationPartner1: author,
    conversationPartner2: recipient,
    authorId: author,
    recipientId: recipient,
    messageText: r.deleted ? "" : r.message_text,
    readStatus: r.is_read ? "READ" : "SENT",
    clientId: r.client_id,
    type: "MESSAGE",
    editedAt: r.edited_at === null ? null : new Date(r.edited_at).toISOString(),
    deleted: r.deleted,
    replyTo: toReplyPreview(r.reply_to),
    images: r.deleted ? [] : (r.images ?? []),
    ...(group ? { author: toMemberCard(r.author), event: toGroupEvent(r.event), mentions: (r.mentions ?? []).map(Number) } : {}),
  };
}

// ---- Dialogs ----

/**
 * A member row's unread count: a personal dialog keeps it on the row; a group computes it from the
 * dialog's message count and the member's read point (no member row is written per message, docs/adr/0169).
 * `me` is a dialog_members row (or the list's key row, which carries the same columns), `d` its dialog.
 */
export const unreadSql = (me: string, d: string) =>
  sql.raw(`(case when ${me}.partner_id is not null then ${me}.unread_count
    when ${me}.left_message_id is not null then 0
    else greatest(${d}.message_count - ${me}.read_count - ${me}.unread_adjust, 0) end)`);

/** A member row's place in the list by time: a personal dialog's own activity time, a present group member's the group's. */
export const activitySql = (me: string, d: string) =>
  sql.raw(`(case when ${me}.partner_id is null and ${me}.left_message_id is null then ${d}.activity_at else ${me}.activity_at end)`);

/**
 * A dialog seen by member `me.account_id`: the member row `me`, the dialog `d`, both accounts (`va`
 * viewer, `pa` partner; none in a group), the last message `lm` the member sees with its read state, and
 * whether a block stands between them. Every list and single read goes through this, so a page of
 * dialogs is one query. `accountId` is me.account_id of every row (one member's dialogs); `extra`, a
 * column the caller wants beside (the list's total, read once per statement).
 */
export function dialogSelect(from: SQL, accountId: number, extra?: SQL) {
  return sql`
    select me.dialog_id, ${unreadSql("me", "d")} as unread_count, ${isoTime(sql`d.created_at`)} as created_at,
      d.kind, case when me.left_message_id is null then d.title else coalesce(me.left_title, d.title) end as title,
      case when me.left_message_id is null then d.photo else me.left_photo end as photo, d.members_count, me.role, me.left_message_id is not null as left_group, ${isoTime(sql`me.muted_until`)} as muted_until,
      va.id as v_id, va.first_name as v_first_name, va.last_name as v_last_name, va.photo as v_photo,
      ${isoTime(sql`va.last_online_time`)} as v_last_online, va.is_deleted as v_deleted,
      pa.id as p_id, pa.first_name as p_first_name, pa.last_name as p_last_name, pa.photo as p_photo,
      ${isoTime(sql`pa.last_online_time`)} as p_last_online, pa.is_deleted as p_deleted,
      lm.id as lm_id, lm.message_text as lm_text, ${isoTime(sql`lm.created_at`)} as lm_time, lm.author_id as lm_author,
      coalesce(cardinality(lm.images), 0) as lm_images,
      -- The read state of readStateSql from the rows at hand: a group's marks are on d, and a message to
      -- the member is read up to their own mark; only the partner's mark is one probe.
      case when lm.recipient_id is null then coalesce((d.read_top_by <> lm.author_id and d.read_top_id >= lm.id) or d.read_second_id >= lm.id, false)
        when lm.recipient_id = me.account_id then lm.id <= me.last_read_message_id
        else lm.id <= coalesce((select r.last_read_message_id from dialog_members r
                                where r.dialog_id = lm.dialog_id and r.account_id = lm.recipient_id), 0) end as lm_read,${extra ? sql` ${extra} as extra,` : sql``}
      case when d.kind = 'GROUP' then (select a.first_name from accounts a where a.id = lm.author_id) end as lm_author_first_name,
      case when lm.event is not null then ${eventJson("lm")} end as lm_event,
      -- A collage of the present members, for a present member only (someone gone sees nothing after).
      case when d.kind = 'GROUP' and d.photo is null and me.left_message_id is null then
        (select json_agg(${memberCardJson("ca")}) from (
          select c.account_id from dialog_members c
          where c.dialog_id = d.id and c.left_message_id is null and c.account_id <> me.account_id
          order by c.account_id limit 4) cm join accounts ca on ca.id = cm.account_id) end as collage,
      -- The member's own side of the pair says it all (transitions.ts LEGAL_PAIRS): a block either way is
      -- BLOCKED or REJECTING there, and FRIEND with the partner's "messages from" is messagesAllowedSql.
      coalesce(rel.status_code in ('BLOCKED', 'REJECTING'), false) as blocked,
      me.partner_id is not null and not (coalesce(pa.messages_from = 'ALL', false) or coalesce(rel.status_code = 'FRIEND', false)) as friends_only
    from ${from}
    -- The dialog, the partner and the pair's friendship row are one primary-key probe per row of the page,
    -- whatever the size of the tables: as plain joins, the cached generic plan of the list (planned for an
    -- average member's few rows) hashed all of accounts and dialogs where they were small, each call
    -- (docs/adr/0169, 2026-12-03 evening). "offset 0" keeps each subquery a parameterised probe.
    cross join lateral (select d.id, d.created_at, d.kind, d.title, d.photo, d.members_count, d.message_count, d.last_message_id,
        d.read_top_id, d.read_top_by, d.read_second_id from dialogs d where d.id = me.dialog_id offset 0) d
    -- The member is the same on every row: their card read once, not probed per dialog.
    cross join (select id, first_name, last_name, photo, last_online_time, is_deleted from accounts where id = ${accountId}) va
    left join lateral (select pa.id, pa.first_name, pa.last_name, pa.photo, pa.last_online_time, pa.is_deleted, pa.messages_from
        from accounts pa where pa.id = me.partner_id offset 0) pa on true
    left join lateral (select rel.status_code from friendships rel
        where rel.account_id = me.account_id and rel.friend_id = me.partner_id offset 0) rel on true
    left join lateral (
      -- The preview: the newest message the member still sees, in the usual case the dialog's last one
      -- (one probe; a member who left a group: the line of their leaving); after that one was deleted for
      -- both or for this member, the next one down messages_dialog_time_idx within what the member sees
      -- (docs/adr/0129). Append stops at the first branch that answers. message_hides is probed only when
      -- the member hid something here: hidden_count counts their hides in this dialog (written in the same
      -- transaction as each; set back to 0 only by a return to a group, whose new window starts after them).
      (select l.id, l.dialog_id, l.recipient_id, l.author_id, l.message_text, l.images, l.created_at, l.event from messages l
       where l.id = coalesce(me.left_message_id, d.last_message_id) and l.deleted_at is null and l.id > me.from_message_id
         and (me.hidden_count = 0 or not exists (select 1 from message_hides h where h.message_id = l.id and h.account_id = me.account_id)))
      union all
      (select l.id, l.dialog_id, l.recipient_id, l.author_id, l.message_text, l.images, l.created_at, l.event from messages l
       where l.dialog_id = d.id and l.deleted_at is null and l.id > me.from_message_id
         and (me.left_message_id is null or l.id <= me.left_message_id)
         and (me.hidden_count = 0 or not exists (select 1 from message_hides h where h.message_id = l.id and h.account_id = me.account_id))
       order by l.created_at desc nulls last, l.id desc nulls last limit 1)
      limit 1) lm on true`;
}

export type DialogRow = {
  dialog_id: string | number;
  unread_count: number;
  created_at: string;
  kind: "PERSONAL" | "GROUP";
  title: string | null;
  photo: string | null;
  members_count: number;
  role: GroupRole | null;
  left_group: boolean;
  muted_until: string | null;
  v_id: string | number;
  v_first_name: string;
  v_last_name: string;
  v_photo: string | null;
  v_last_online: string | null;
  v_deleted: boolean;
  p_id: string | number | null;
  p_first_name: string | null;
  p_last_name: string | null;
  p_photo: string | null;
  p_last_online: string | null;
  p_deleted: boolean | null;
  lm_id: string | number | null;
  lm_text: string | null;
  lm_time: string | null;
  lm_author: string | number | null;
  lm_read: boolean | null;
  lm_images: number | null;
  lm_author_first_name: string | null;
  lm_event: RawEvent | string | null;
  collage: MemberCard[] | string | null;
  blocked: boolean;
  friends_only: boolean;
};

function partner(id: string | number, first: string, last: string, photo: string | null, seen: string | null, deleted: boolean, now: Date, blocked: boolean): DialogPartner {
  // Across a block neither sees the other's presence (issue 24 item 20).
  const lastOnline = blocked ? null : seen;
  return {
    id: Number(id),
    firstName: first,
    lastName: last,
    photo,
    isOnline: isOnline(lastOnline, now),
    lastOnlineTime: lastOnline === null ? null : new Date(lastOnline).toISOString(),
    isDeleted: deleted,
  };
}

export function toDialogDto(r: DialogRow, now = new Date()): DialogDto {
  const unread = Number(r.unread_count);
  const group = r.kind === "GROUP";
  const mutedUntil = r.muted_until !== null && new Date(r.muted_until) > now ? new Date(r.muted_until).toISOString() : null;
  return {
    id: Number(r.dialog_id),
    type: group ? "GROUP" : "PERSONAL",
    conversationPartner1: Number(r.v_id),
    conversationPartner2: group ? null : Number(r.p_id),
    viewer: partner(r.v_id, r.v_first_name, r.v_last_name, r.v_photo, r.v_last_online, r.v_deleted, now, false),
    partner: group ? null : partner(r.p_id!, r.p_first_name!, r.p_last_name!, r.p_photo, r.p_last_online, !!r.p_deleted, now, r.blocked),
    title: group ? r.title : null,
    photo: group ? r.photo : null,
    membersCount: group ? Number(r.members_count) : 2,
    role: group && !r.left_group ? r.role : null,
    left: group && r.left_group,
    mutedUntil: group ? mutedUntil : null,
    collage: (parsed<MemberCard[]>(r.collage) ?? []).map((c) => toMemberCard(c)!),
    unreadCount: unread,
    unread_count: unread,
    lastMessage:
      r.lm_id === null
        ? null
        : {
            id: Number(r.lm_id),
            messageText: r.lm_text ?? "",
            time: new Date(r.lm_time!).toISOString(),
            authorId: Number(r.lm_author),
            readStatus: r.lm_read ? "READ" : "SENT",
            imageCount: Number(r.lm_images ?? 0),
            ...(group ? { authorFirstName: r.lm_author_first_name, event: toGroupEvent(r.lm_event) } : {}),
          },
    canWrite: group ? !r.left_group && !r.v_deleted : !r.blocked && !r.v_deleted && !r.p_deleted && !r.friends_only,
    messagesFriendsOnly: !r.blocked && r.friends_only,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/** The dialog `dialogId` as member `accountId` sees it, or null when it is not theirs (or does not exist). */
export async function readDialogOf(db: DbOrTx, accountId: number, dialogId: number): Promise<DialogDto | null> {
  const rows = await db.execute<DialogRow>(
    dialogSelect(sql`dialog_members me`, accountId).append(sql` where me.dialog_id = ${dialogId} and me.account_id = ${accountId}`),
  );
  return rows[0] ? toDialogDto(rows[0]) : null;
}

/** The dialog id of the pair, or null. */
export async function dialogIdOfPair(db: DbOrTx, a: number, b: number): Promise<number | null> {
  const [low, high] = orderedPair(a, b);
  const rows = await db.execute<{ id: string }>(sql`select id from dialogs where account_low = ${low} and account_high = ${high}`);
  return rows[0] ? Number(rows[0].id) : null;
}

/** A member row as the verbs need it: personal (partnerId set) or group (role, window, read point). */
export type MemberRow = {
  partnerId: number | null;
  unreadCount: number;
  lastReadMessageId: number;
  role: GroupRole | null;
  fromMessageId: number;
  leftMessageId: number | null;
  /** A group member who has not left. */
  present: boolean;
  group: boolean;
};

/**
 * The member row of `accountId` in `dialogId` (with the partner), or a 404 that says nothing about other
 * people's dialogs. A group member who left still has their row (their history up to then).
 */
export async function memberOrThrow(db: DbOrTx, accountId: number, dialogId: number, lock = false): Promise<MemberRow> {
  const rows = await db.execute<{ partner_id: string | null; unread_count: number; last_read_message_id: string; role: GroupRole | null; from_message_id: string; left_message_id: string | null }>(sql`
    select partner_id, unread_count, last_read_message_id, role, from_message_id, left_message_id from dialog_members
    where dialog_id = ${dialogId} and account_id = ${accountId} ${lock ? sql`for update` : sql``}`);
  const r = rows[0];
  if (!r) throw new NotFoundError(CHAT_ERRORS.dialogNotFound);
  const group = r.partner_id === null;
  return {
    partnerId: group ? null : Number(r.partner_id),
    unreadCount: Number(r.unread_count),
    lastReadMessageId: Number(r.last_read_message_id),
    role: r.role,
    fromMessageId: Number(r.from_message_id),
    leftMessageId: r.left_message_id === null ? null : Number(r.left_message_id),
    present: group && r.left_message_id === null,
    group,
  };
}

/** The messages a member sees (`m` a messages row): a group member's window from joining to leaving; all of a personal dialog. */
export function visibleWindowSql(member: MemberRow, m = "m") {
  if (!member.group) return sql``;
  return sql.raw(` and ${m}.id > ${member.fromMessageId}${member.leftMessageId === null ? "" : ` and ${m}.id <= ${member.leftMessageId}`}`);
}
