import "server-only";
import { sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { appendEvent } from "@/lib/server/events/outbox";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/server/http/errors";
import { consumeAccountLimits } from "@/lib/server/http/rate-limit";
import { excerpt } from "@/lib/server/services/notifications/produce";
import {
  CHAT_ERRORS,
  CHAT_EVENT_TYPES,
  MESSAGE_CHANGE_WINDOW_MS,
  deleteMessageQuery,
  editMessageInput,
  messageIdParams,
  type MessageDto,
  type MessageHiddenData,
} from "@/lib/validation/dialogs";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { assertMayWrite, lockPairShared, memberOrThrow, messageColumns, toMessageDto, visibleWindowSql, type MemberRow, type MessageRow } from "./access";
import { presentMemberIds } from "./groups";

// Editing and deleting messages (issue 27, docs/adr/0129). Each change, its outbox event and the counts
// it moves (unread, hidden) are one transaction; the events reach both sides live and on resume.

type Target = { author_id: string; message_text: string; deleted: boolean; expired: boolean; hidden: boolean; is_unread: boolean; hidden_by_partner: boolean; is_event: boolean };

type Locked = Target & { partnerId: number | null; member: MemberRow };

/**
 * The message `messageId` of the viewer's dialog, locked for the change: 404 when the dialog is not the
 * viewer's, the message is not in it (or, in a group, outside what the viewer sees), or the viewer
 * deleted it for themselves (they no longer see it). Locks in the order of the neighbours: the pair's
 * shared lock (a block takes it exclusively before it writes the dialog row), then the dialog row (a send
 * moves it before anything else), then the message.
 */
async function lockTarget(tx: Tx, viewerId: number, dialogId: number, messageId: number): Promise<Locked> {
  const member = await memberOrThrow(tx, viewerId, dialogId);
  if (!member.group) await lockPairShared(tx, viewerId, member.partnerId!);
  await tx.execute(sql`select 1 from dialogs where id = ${dialogId} for update`);
  // In a group "unread" is the viewer's own: after their read point and not theirs.
  const unread = member.group
    ? sql`(m.author_id <> ${viewerId} and m.id > ${member.lastReadMessageId})`
    : sql`m.id > coalesce((select r.last_read_message_id from dialog_members r
                       where r.dialog_id = m.dialog_id and r.account_id = m.recipient_id), 0)`;
  const [row] = await tx.execute<Target>(sql`
    select m.author_id, m.message_text, m.deleted_at is not null as deleted, m.event is not null as is_event,
      m.created_at < now() - make_interval(secs => ${MESSAGE_CHANGE_WINDOW_MS / 1000}) as expired,
      exists (select 1 from message_hides h where h.message_id = m.id and h.account_id = ${viewerId}) as hidden,
      exists (select 1 from message_hides h where h.message_id = m.id and h.account_id = m.recipient_id) as hidden_by_partner,
      ${unread} as is_unread
    from messages m where m.id = ${messageId} and m.dialog_id = ${dialogId}${visibleWindowSql(member)}
    for update of m`);
  if (!row || row.hidden) throw new NotFoundError(CHAT_ERRORS.messageNotFound);
  return { ...row, partnerId: member.partnerId, member };
}

/** Who hears a change of a message: both of a personal dialog, a group's present members. */
async function audienceOf(tx: Tx, viewerId: number, dialogId: number, t: Locked): Promise<number[]> {
  return t.member.group ? presentMemberIds(tx, dialogId) : [viewerId, t.partnerId!];
}

/** Only the author changes a message for both, and only within MESSAGE_CHANGE_WINDOW_MS of sending it. */
function assertAuthorInWindow(t: Locked, viewerId: number): void {
  if (t.member.group && !t.member.present) throw new ForbiddenError(CHAT_ERRORS.leftGroup);
  if (t.is_event) throw new ForbiddenError(CHAT_ERRORS.notAuthor);
  if (Number(t.author_id) !== viewerId) throw new ForbiddenError(CHAT_ERRORS.notAuthor);
  if (t.deleted) throw new ConflictError(CHAT_ERRORS.messageDeleted);
  if (t.expired) throw new ConflictError(CHAT_ERRORS.changeWindow);
}

/**
 * The partner's MESSAGE notifications of this dialog that quote the old text (the bell's excerpt of the
 * newest message) quote the new one, or nothing once the message is deleted for both: a deleted message's
 * words do not stay readable in the bell. Read through notifications_dialog_idx.
 */
async function requoteNotifications(tx: Tx, dialogId: number, partnerId: number | null, oldText: string, newText: string): Promise<void> {
  // In a group, the mentioned members' entries (whoever they are).
  await tx.execute(sql`
    update notifications set content = ${newText === "" ? "" : excerpt(newText)}
    where dialog_id = ${dialogId} ${partnerId === null ? sql`` : sql`and receiver_id = ${partnerId}`}
      and notification_type = 'MESSAGE' and content = ${excerpt(oldText)}`);
}

async function readOne(tx: Tx, messageId: number): Promise<MessageDto> {
  const [row] = await tx.execute<MessageRow>(sql`select ${messageColumns} from messages m where m.id = ${messageId}`);
  return toMessageDto(row);
}

/**
 * PUT dialogs/{id}/messages/{messageId} {messageText} — the author changes the text (the same rules as a
 * new message) within 24 hours of sending; the message is marked edited and MESSAGE_UPDATED tells both.
 * The same text again changes nothing and tells no one. Refused: not the viewer's dialog or message
 * hidden (404), not the author (403), deleted or too old (409), and whatever would refuse a new message
 * now (a block either way, a deleted account, the partner's messages from friends only: 403).
 */
export async function editMessage({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown; messageId: unknown; messageText: unknown } }): Promise<MessageDto> {
  const viewer = requireViewer(ctx);
  const { id: dialogId, messageId } = messageIdParams.parse({ id: input.id, messageId: input.messageId });
  const { messageText } = editMessageInput.parse({ messageText: input.messageText });
  await consumeAccountLimits(["messageEdit"], viewer.id);
  return withTransaction(ctx, async (tx) => {
    const target = await lockTarget(tx, viewer.id, dialogId, messageId);
    assertAuthorInWindow(target, viewer.id);
    if (!target.member.group) await assertMayWrite(tx, viewer.id, target.partnerId!);
    if (target.message_text === messageText) return readOne(tx, messageId);
    await tx.execute(sql`update messages set message_text = ${messageText}, edited_at = now() where id = ${messageId}`);
    await requoteNotifications(tx, dialogId, target.partnerId, target.message_text, messageText);
    const message = await readOne(tx, messageId);
    await appendEvent(tx, { type: CHAT_EVENT_TYPES.updated, recipients: await audienceOf(tx, viewer.id, dialogId, target), data: message, channel: target.member.group ? dialogId : undefined });
    return message;
  });
}

/**
 * DELETE dialogs/{id}/messages/{messageId}?forEveryone=true|false.
 * For everyone (the author, within 24 hours): the row stays as a "message deleted" mark, its text is
 * emptied, the partner's unread count loses it if it was unread, the dialog's preview falls back to the
 * message before; MESSAGE_UPDATED (the mark) tells both. Answers the mark.
 * For oneself (either member, any time): the message leaves the viewer's history and preview, their
 * unread count loses it if it was unread to them; MESSAGE_HIDDEN tells the viewer's other tabs only.
 * Neither is refused by a block or the partner's privacy: taking one's words back writes nothing new to them.
 */
export async function deleteMessage({
  ctx,
  input,
}: {
  ctx: ServiceCtx;
  input: { id: unknown; messageId: unknown; forEveryone?: unknown; query?: Record<string, unknown> };
}): Promise<MessageDto | MessageHiddenData> {
  const viewer = requireViewer(ctx);
  const { id: dialogId, messageId } = messageIdParams.parse({ id: input.id, messageId: input.messageId });
  const { forEveryone } = deleteMessageQuery.parse(input.query ?? (input.forEveryone === undefined ? {} : { forEveryone: String(input.forEveryone) }));
  await consumeAccountLimits(["messageEdit"], viewer.id);
  return withTransaction(ctx, async (tx) => {
    const target = await lockTarget(tx, viewer.id, dialogId, messageId);
    if (forEveryone) {
      // In a group the owner and admins delete anyone's message at any time (moderation, issue 41).
      const moderates = target.member.present && (target.member.role === "OWNER" || target.member.role === "ADMIN");
      if (moderates && !target.is_event) {
        if (target.deleted) throw new ConflictError(CHAT_ERRORS.messageDeleted);
      } else assertAuthorInWindow(target, viewer.id);
      await tx.execute(sql`update messages set deleted_at = now(), message_text = '', images = null where id = ${messageId}`);
      await requoteNotifications(tx, dialogId, target.partnerId, target.message_text, "");
      if (target.member.group) {
        // Members who had not read it yet (and did not hide it) count it no more.
        await tx.execute(sql`
          update dialog_members c set unread_adjust = c.unread_adjust + 1
          where c.dialog_id = ${dialogId} and c.left_message_id is null and c.account_id <> ${Number(target.author_id)}
            and c.last_read_message_id < ${messageId} and c.from_message_id < ${messageId}
            and not exists (select 1 from message_hides h where h.message_id = ${messageId} and h.account_id = c.account_id)`);
      } else if (target.is_unread && !target.hidden_by_partner) {
        // Still unread by the partner (and still in their history): it no longer counts for them.
        await tx.execute(sql`
          update dialog_members set unread_count = greatest(unread_count - 1, 0)
          where dialog_id = ${dialogId} and account_id = ${target.partnerId}`);
      }
      const message = await readOne(tx, messageId);
      await appendEvent(tx, { type: CHAT_EVENT_TYPES.updated, recipients: await audienceOf(tx, viewer.id, dialogId, target), data: message, channel: target.member.group ? dialogId : undefined });
      return message;
    }
    const unreadToMe = Number(target.author_id) !== viewer.id && target.is_unread && !target.deleted;
    await tx.execute(sql`insert into message_hides (message_id, account_id) values (${messageId}, ${viewer.id})`);
    // A group's unread count is computed (docs/adr/0169): an unread message hidden is one to take off.
    await tx.execute(sql`
      update dialog_members
      set hidden_count = hidden_count + 1,
          ${target.member.group ? sql`unread_adjust = unread_adjust + ${unreadToMe ? 1 : 0}` : sql`unread_count = greatest(unread_count - ${unreadToMe ? 1 : 0}, 0)`}
      where dialog_id = ${dialogId} and account_id = ${viewer.id}`);
    const data: MessageHiddenData = { dialogId, messageId, accountId: viewer.id };
    await appendEvent(tx, { type: CHAT_EVENT_TYPES.hidden, recipients: [viewer.id], data });
    return data;
  });
}
