import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { appendEvent } from "@/lib/server/events/outbox";
import { notifyMessage } from "@/lib/server/services/notifications/producers";
import { BadRequestError, ConflictError, NotFoundError } from "@/lib/server/http/errors";
import { pageOf, type Page } from "@/lib/server/http/response";
import {
  CHAT_ERRORS,
  CHAT_EVENT_TYPES,
  messageListQuery,
  sendMessageCommand,
  type MessageDto,
  type MessageListQuery,
  type SendMessageCommand,
} from "@/lib/validation/dialogs";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { assertMayWrite, dialogIdOfPair, lockPairShared, memberOrThrow, messageColumns, toMessageDto, type MessageRow } from "./access";
import { ensureDialogRows } from "./dialogs";

/**
 * GET dialogs/messages — one page of the viewer's dialog (by dialogId, or by recipientId as the original
 * client asks), ordered by (time, id) so equal times keep a stable order. `beforeId` pages by keyset
 * (messages older than that one), so new messages arriving never shift what the next page returns.
 * Each page is one range scan of messages_dialog_time_idx; totalElements comes from dialogs.message_count.
 */
export async function listMessages({ ctx, input }: { ctx: ServiceCtx; input: MessageListQuery }): Promise<Page<MessageDto>> {
  const viewer = requireViewer(ctx);
  const q = messageListQuery.parse(input);
  const db = ctx.tx ?? ctx.db;
  let dialogId: number | null;
  if (q.dialogId !== undefined) {
    await memberOrThrow(db, viewer.id, q.dialogId);
    dialogId = q.dialogId;
  } else {
    if (q.recipientId === viewer.id) throw new BadRequestError(CHAT_ERRORS.self);
    dialogId = await dialogIdOfPair(db, viewer.id, q.recipientId!);
    // No dialog with that person yet: nothing to show (and nothing said about whether they exist).
    if (dialogId === null) return pageOf([], 0, q.page, q.size);
  }
  // Exactly messages_dialog_time_idx's order (DESC NULLS LAST as drizzle builds it; ASC NULLS FIRST is
  // the same index read backwards): Postgres's default DESC is NULLS FIRST, which would sort instead.
  const dir = q.sort === "time,asc" ? "asc nulls first" : "desc nulls last";
  let cursor = sql``;
  let total: number;
  if (q.beforeId !== undefined) {
    const [c] = await db.execute<{ created_at: string }>(sql`
      select created_at::text from messages where id = ${q.beforeId} and dialog_id = ${dialogId}`);
    if (!c) throw new BadRequestError(CHAT_ERRORS.badQuery);
    cursor = sql` and (m.created_at, m.id) < (${c.created_at}::timestamptz, ${q.beforeId})`;
    // Older = all − (the cursor and newer), the newer part being the short stretch already on screen.
    const [row] = await db.execute<{ total: string }>(sql`
      select d.message_count - (select count(*) from messages n
        where n.dialog_id = d.id and (n.created_at, n.id) >= (${c.created_at}::timestamptz, ${q.beforeId})) as total
      from dialogs d where d.id = ${dialogId}`);
    total = Number(row.total);
  } else {
    const [row] = await db.execute<{ message_count: number }>(sql`select message_count from dialogs where id = ${dialogId}`);
    total = Number(row?.message_count ?? 0);
  }
  const rows = await db.execute<MessageRow>(sql`
    select ${messageColumns} from messages m
    where m.dialog_id = ${dialogId}${cursor}
    order by m.created_at ${sql.raw(dir)}, m.id ${sql.raw(dir)}
    limit ${q.size} offset ${q.page * q.size}`);
  return pageOf(rows.map(toMessageDto), total, q.page, q.size);
}

async function readMessage(db: DbOrTx, where: ReturnType<typeof sql>): Promise<MessageDto | null> {
  const rows = await db.execute<MessageRow>(sql`select ${messageColumns} from messages m where ${where}`);
  return rows[0] ? toMessageDto(rows[0]) : null;
}

/** A retry with a clientId already used: the same message again, or a conflict when it was a different one. */
function replayOrConflict(existing: MessageDto, dialogId: number, text: string): { message: MessageDto; created: false } {
  if (existing.dialogId !== dialogId || existing.messageText !== text) throw new ConflictError(CHAT_ERRORS.clientIdReused);
  return { message: existing, created: false };
}

/**
 * POST dialogs/{id}/messages, and a socket MESSAGE frame — stores a message from the viewer and appends
 * its MESSAGE event for both partners in the same transaction; the recipient's unread count, the
 * dialog's last message and both members' activity time change with it. With a clientId, a retry
 * stores nothing new and answers the message stored the first time (created: false, no second event).
 * Refused when the viewer is not a partner (404), for a block either way or a deleted account (403).
 */
export async function sendMessage({ ctx, input }: { ctx: ServiceCtx; input: SendMessageCommand }): Promise<{ message: MessageDto; created: boolean }> {
  const viewer = requireViewer(ctx);
  const cmd = sendMessageCommand.parse(input);
  if (cmd.recipientId === viewer.id) throw new BadRequestError(CHAT_ERRORS.self);

  return withTransaction(ctx, async (tx: Tx) => {
    // A retry of a message already stored answers it, even if writing became impossible since.
    if (cmd.clientId !== undefined) {
      const existing = await readMessage(tx, sql`m.author_id = ${viewer.id} and m.client_id = ${cmd.clientId}`);
      if (existing) {
        if (cmd.recipientId !== undefined && cmd.recipientId !== existing.recipientId) throw new ConflictError(CHAT_ERRORS.clientIdReused);
        return replayOrConflict(existing, cmd.dialogId ?? existing.dialogId, cmd.messageText);
      }
    }
    let dialogId: number;
    let partnerId: number;
    if (cmd.dialogId !== undefined) {
      dialogId = cmd.dialogId;
      partnerId = (await memberOrThrow(tx, viewer.id, dialogId)).partnerId;
      if (cmd.recipientId !== undefined && cmd.recipientId !== partnerId) throw new BadRequestError(CHAT_ERRORS.dialogTarget);
      await lockPairShared(tx, viewer.id, partnerId);
      await assertMayWrite(tx, viewer.id, partnerId);
    } else {
      partnerId = cmd.recipientId!;
      await lockPairShared(tx, viewer.id, partnerId);
      await assertMayWrite(tx, viewer.id, partnerId);
      dialogId = (await ensureDialogRows(tx, viewer.id, partnerId)).dialogId;
    }

    const clientId = cmd.clientId ?? null;
    // A conflicting retry waits here for the first attempt to commit, then stores nothing.
    const inserted = await tx.execute<{ id: string; created_at: string }>(sql`
      insert into messages (dialog_id, author_id, recipient_id, message_text, client_id)
      values (${dialogId}, ${viewer.id}, ${partnerId}, ${cmd.messageText}, ${clientId})
      on conflict (author_id, client_id) do nothing
      returning id, to_json(created_at) #>> '{}' as created_at`);
    if (!inserted[0]) {
      const existing = await readMessage(tx, sql`m.author_id = ${viewer.id} and m.client_id = ${clientId}`);
      if (!existing) throw new Error("clientId conflict without a stored message");
      return replayOrConflict(existing, dialogId, cmd.messageText);
    }
    const id = Number(inserted[0].id);
    const time = inserted[0].created_at;
    await tx.execute(sql`
      update dialogs set last_message_id = ${id}, message_count = message_count + 1 where id = ${dialogId}`);
    await tx.execute(sql`
      update dialog_members
      set activity_at = ${time}::timestamptz,
          unread_count = unread_count + (case when account_id = ${partnerId} then 1 else 0 end)
      where dialog_id = ${dialogId}`);
    const message: MessageDto = {
      id,
      dialogId,
      time: new Date(time).toISOString(),
      conversationPartner1: viewer.id,
      conversationPartner2: partnerId,
      authorId: viewer.id,
      recipientId: partnerId,
      messageText: cmd.messageText,
      readStatus: "SENT",
      clientId,
      type: "MESSAGE",
    };
    await appendEvent(tx, { type: CHAT_EVENT_TYPES.message, recipients: [viewer.id, partnerId], data: message });
    await notifyMessage(tx, { actorId: viewer.id, recipientId: partnerId, dialogId, text: cmd.messageText });
    return { message, created: true };
  });
}

/** Whether `accountId` is a member of `dialogId`, and with whom (the sidecar's TYPING check). */
export async function partnerInDialog(db: DbOrTx, accountId: number, dialogId: number): Promise<number | null> {
  try {
    return (await memberOrThrow(db, accountId, dialogId)).partnerId;
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}
