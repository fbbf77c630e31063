import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { ForbiddenError, NotFoundError } from "@/lib/server/http/errors";
import { isOnline } from "@/lib/server/services/accounts/presence";
import { isoTime } from "@/lib/server/services/friends/summary";
import { CHAT_ERRORS, REPLY_PREVIEW_MAX, type DialogDto, type DialogPartner, type MessageDto, type MessageReplyPreview } from "@/lib/validation/dialogs";
import { PRIVACY_ERRORS, type MessagesFrom } from "@/lib/validation/privacy";
import { messagesAllowed, messagesAllowedSql } from "../privacy/rules";

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

type PairRow = { id: string; is_deleted: boolean; messages_from: MessagesFrom; my_side: string | null; their_side: string | null };

/**
 * Throws the refusal that stops `me` from writing to `them`, if any: an unknown account (404), a deleted
 * one on either side, a block in either direction, their messages from friends only (403). Call under
 * lockPairShared.
 */
export async function assertMayWrite(tx: DbOrTx, me: number, them: number): Promise<void> {
  const rows = await tx.execute<PairRow>(sql`
    select a.id, a.is_deleted, a.messages_from,
      (select status_code from friendships where account_id = ${me} and friend_id = ${them}) as my_side,
      (select status_code from friendships where account_id = ${them} and friend_id = ${me}) as their_side
    from accounts a where a.id in (${me}, ${them})`);
  const mine = rows.find((r) => Number(r.id) === me);
  const theirs = rows.find((r) => Number(r.id) === them);
  if (!mine || mine.is_deleted) throw new ForbiddenError(CHAT_ERRORS.viewerDeleted);
  if (!theirs) throw new NotFoundError(CHAT_ERRORS.accountNotFound);
  if (theirs.is_deleted) throw new ForbiddenError(CHAT_ERRORS.partnerDeleted);
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

/**
 * Columns of a message row `m` plus its read state from the recipient's member row `r`, and the
 * preview of the message it answers (one primary-key probe, only for replies).
 */
export const messageColumns = sql`
  m.id, m.dialog_id, m.author_id, m.recipient_id, m.message_text, m.client_id,
  ${isoTime(sql`m.created_at`)} as created_at,
  (m.id <= coalesce((select r.last_read_message_id from dialog_members r
                     where r.dialog_id = m.dialog_id and r.account_id = m.recipient_id), 0)) as is_read,
  ${isoTime(sql`m.edited_at`)} as edited_at, m.deleted_at is not null as deleted, m.images,
  case when m.reply_to_id is not null then
    (select ${replyPreviewJson("q")} from messages q where q.id = m.reply_to_id and q.dialog_id = m.dialog_id) end as reply_to`;

export type MessageRow = {
  id: string | number;
  dialog_id: string | number;
  author_id: string | number;
  recipient_id: string | number;
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

export function toMessageDto(r: MessageRow): MessageDto {
  const author = Number(r.author_id);
  const recipient = Number(r.recipient_id);
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
  };
}

// ---- Dialogs ----

/**
 * A dialog seen by member `me.account_id`: the member row `me`, the dialog `d`, both accounts (`va`
 * viewer, `pa` partner), the last message `lm` with its read state, and whether a block stands between
 * them. Every list and single read goes through this, so a page of dialogs is one query.
 */
export function dialogSelect(from: ReturnType<typeof sql>) {
  return sql`
    select me.dialog_id, me.unread_count, ${isoTime(sql`d.created_at`)} as created_at,
      va.id as v_id, va.first_name as v_first_name, va.last_name as v_last_name, va.photo as v_photo,
      ${isoTime(sql`va.last_online_time`)} as v_last_online, va.is_deleted as v_deleted,
      pa.id as p_id, pa.first_name as p_first_name, pa.last_name as p_last_name, pa.photo as p_photo,
      ${isoTime(sql`pa.last_online_time`)} as p_last_online, pa.is_deleted as p_deleted,
      lm.id as lm_id, lm.message_text as lm_text, ${isoTime(sql`lm.created_at`)} as lm_time, lm.author_id as lm_author,
      coalesce(cardinality(lm.images), 0) as lm_images,
      (lm.id <= coalesce((select r.last_read_message_id from dialog_members r
                          where r.dialog_id = lm.dialog_id and r.account_id = lm.recipient_id), 0)) as lm_read,
      exists (select 1 from friendships f
              where ((f.account_id = me.account_id and f.friend_id = me.partner_id)
                  or (f.account_id = me.partner_id and f.friend_id = me.account_id))
                and f.status_code = 'BLOCKED') as blocked,
      not ${messagesAllowedSql(sql`me.account_id`, sql`me.partner_id`)} as friends_only
    from ${from}
    join dialogs d on d.id = me.dialog_id
    join accounts va on va.id = me.account_id
    join accounts pa on pa.id = me.partner_id
    left join lateral (
      -- The preview: the newest message the member still sees, in the usual case the dialog's last one
      -- (one probe); after that one was deleted for both or for this member, the next one down
      -- messages_dialog_time_idx (docs/adr/0129). Append stops at the first branch that answers.
      (select l.id, l.dialog_id, l.recipient_id, l.author_id, l.message_text, l.images, l.created_at from messages l
       where l.id = d.last_message_id and l.deleted_at is null
         and not exists (select 1 from message_hides h where h.message_id = l.id and h.account_id = me.account_id))
      union all
      (select l.id, l.dialog_id, l.recipient_id, l.author_id, l.message_text, l.images, l.created_at from messages l
       where l.dialog_id = d.id and l.deleted_at is null
         and not exists (select 1 from message_hides h where h.message_id = l.id and h.account_id = me.account_id)
       order by l.created_at desc nulls last, l.id desc nulls last limit 1)
      limit 1) lm on true`;
}

export type DialogRow = {
  dialog_id: string | number;
  unread_count: number;
  created_at: string;
  v_id: string | number;
  v_first_name: string;
  v_last_name: string;
  v_photo: string | null;
  v_last_online: string | null;
  v_deleted: boolean;
  p_id: string | number;
  p_first_name: string;
  p_last_name: string;
  p_photo: string | null;
  p_last_online: string | null;
  p_deleted: boolean;
  lm_id: string | number | null;
  lm_text: string | null;
  lm_time: string | null;
  lm_author: string | number | null;
  lm_read: boolean | null;
  lm_images: number | null;
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
  return {
    id: Number(r.dialog_id),
    conversationPartner1: Number(r.v_id),
    conversationPartner2: Number(r.p_id),
    viewer: partner(r.v_id, r.v_first_name, r.v_last_name, r.v_photo, r.v_last_online, r.v_deleted, now, false),
    partner: partner(r.p_id, r.p_first_name, r.p_last_name, r.p_photo, r.p_last_online, r.p_deleted, now, r.blocked),
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
          },
    canWrite: !r.blocked && !r.v_deleted && !r.p_deleted && !r.friends_only,
    messagesFriendsOnly: !r.blocked && r.friends_only,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/** The dialog `dialogId` as member `accountId` sees it, or null when it is not theirs (or does not exist). */
export async function readDialogOf(db: DbOrTx, accountId: number, dialogId: number): Promise<DialogDto | null> {
  const rows = await db.execute<DialogRow>(
    dialogSelect(sql`dialog_members me`).append(sql` where me.dialog_id = ${dialogId} and me.account_id = ${accountId}`),
  );
  return rows[0] ? toDialogDto(rows[0]) : null;
}

/** The dialog id of the pair, or null. */
export async function dialogIdOfPair(db: DbOrTx, a: number, b: number): Promise<number | null> {
  const [low, high] = orderedPair(a, b);
  const rows = await db.execute<{ id: string }>(sql`select id from dialogs where account_low = ${low} and account_high = ${high}`);
  return rows[0] ? Number(rows[0].id) : null;
}

/** The member row of `accountId` in `dialogId` (with the partner), or a 404 that says nothing about other people's dialogs. */
export async function memberOrThrow(db: DbOrTx, accountId: number, dialogId: number, lock = false): Promise<{ partnerId: number; unreadCount: number; lastReadMessageId: number }> {
  const rows = await db.execute<{ partner_id: string; unread_count: number; last_read_message_id: string }>(sql`
    select partner_id, unread_count, last_read_message_id from dialog_members
    where dialog_id = ${dialogId} and account_id = ${accountId} ${lock ? sql`for update` : sql``}`);
  if (!rows[0]) throw new NotFoundError(CHAT_ERRORS.dialogNotFound);
  return { partnerId: Number(rows[0].partner_id), unreadCount: Number(rows[0].unread_count), lastReadMessageId: Number(rows[0].last_read_message_id) };
}
