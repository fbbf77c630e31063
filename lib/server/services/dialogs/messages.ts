import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { notifyAppended, recipientArray } from "@/lib/server/events/outbox";
import { messageNotification } from "@/lib/server/services/notifications/producers";
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
 * For the rest of the send's transaction, Postgres runs the prepared write with its generic plan
 * instead of planning it again for every message (ADR 96). Left to itself it keeps choosing custom
 * plans for this many-CTE statement, and planning cost more than running it: a closed loop of 10
 * senders did 370–456 messages/s with custom plans and 650–710/s with generic ones. Every lookup in it
 * is by key, so the generic plan is the plan.
 */
const GENERIC_PLANS = sql`set_config('plan_cache_mode', 'force_generic_plan', true) as plan_mode`;

/** The viewer's message stored under `clientId`, as a lateral row `e` (its columns prefixed e_). */
const existingByClientId = (viewerId: number, clientId: string | null) => sql`
  left join lateral (select ${messageColumns} from messages m
                     where ${clientId}::uuid is not null and m.author_id = ${viewerId} and m.client_id = ${clientId}::uuid) e on true`;

type ReadRow = {
  partner_id: string | null;
  id: string | number | null;
} & { [K in keyof MessageRow]: MessageRow[K] | null };

const existingOf = (r: ReadRow | undefined): MessageDto | null => (r && r.id !== null ? toMessageDto(r as MessageRow) : null);

/**
 * POST dialogs/{id}/messages, and a socket MESSAGE frame — stores a message from the viewer and appends
 * its MESSAGE event for both partners in the same transaction; the recipient's unread count, the
 * dialog's last message and both members' activity time change with it. With a clientId, a retry
 * stores nothing new and answers the message stored the first time (created: false, no second event).
 * Refused when the viewer is not a partner (404), for a block either way or a deleted account (403).
 *
 * A message to a dialog is four round trips (ADR 0096): BEGIN; one read that finds the viewer's member
 * row, takes the pair's shared lock and finds an earlier message with the same clientId; one statement
 * that checks who may write, inserts the message, moves the dialog and both member rows, writes the
 * recipient's notification and appends both events; COMMIT. The check runs in the statement
 * after the lock, so it sees a block that committed while the lock was awaited.
 */
export async function sendMessage({ ctx, input }: { ctx: ServiceCtx; input: SendMessageCommand }): Promise<{ message: MessageDto; created: boolean }> {
  const viewer = requireViewer(ctx);
  const cmd = sendMessageCommand.parse(input);
  if (cmd.recipientId === viewer.id) throw new BadRequestError(CHAT_ERRORS.self);
  const clientId = cmd.clientId ?? null;

  return withTransaction(ctx, async (tx: Tx) => {
    let dialogId: number;
    let partnerId: number;
    if (cmd.dialogId !== undefined) {
      dialogId = cmd.dialogId;
      const [row] = await tx.execute<ReadRow>(sql`
        select me.partner_id, ${GENERIC_PLANS},
               pg_advisory_xact_lock_shared(hashtextextended(
                 'krug:friendship:' || least(me.account_id, me.partner_id) || ':' || greatest(me.account_id, me.partner_id), 0)),
               e.*
        from (select 1) one
        left join dialog_members me on me.dialog_id = ${dialogId} and me.account_id = ${viewer.id}
        ${existingByClientId(viewer.id, clientId)}`);
      // A retry of a message already stored answers it, even if writing became impossible since.
      const existing = existingOf(row);
      if (existing) {
        if (cmd.recipientId !== undefined && cmd.recipientId !== existing.recipientId) throw new ConflictError(CHAT_ERRORS.clientIdReused);
        return replayOrConflict(existing, dialogId, cmd.messageText);
      }
      if (!row || row.partner_id === null) throw new NotFoundError(CHAT_ERRORS.dialogNotFound);
      partnerId = Number(row.partner_id);
      if (cmd.recipientId !== undefined && cmd.recipientId !== partnerId) throw new BadRequestError(CHAT_ERRORS.dialogTarget);
    } else {
      // The original client's form, by recipient: the dialog may not exist yet.
      partnerId = cmd.recipientId!;
      const [row] = await tx.execute<ReadRow>(sql`
        select null::bigint as partner_id, ${GENERIC_PLANS}, e.* from (select 1) one ${existingByClientId(viewer.id, clientId)}`);
      const existing = existingOf(row);
      if (existing) {
        if (partnerId !== existing.recipientId) throw new ConflictError(CHAT_ERRORS.clientIdReused);
        return replayOrConflict(existing, existing.dialogId, cmd.messageText);
      }
      await lockPairShared(tx, viewer.id, partnerId);
      await assertMayWrite(tx, viewer.id, partnerId);
      dialogId = (await ensureDialogRows(tx, viewer.id, partnerId)).dialogId;
    }

    const fields = {
      dialogId,
      conversationPartner1: viewer.id,
      conversationPartner2: partnerId,
      authorId: viewer.id,
      recipientId: partnerId,
      messageText: cmd.messageText,
      readStatus: "SENT" as const,
      clientId,
      type: "MESSAGE" as const,
    };
    const time = sql`to_char(ins.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    // The recipient's MESSAGE notification, written only with the message.
    const notice = messageNotification({ actorId: viewer.id, recipientId: partnerId, dialogId, text: cmd.messageText }, "notice", sql`exists (select 1 from ins)`);
    // Nothing is written unless both accounts are live and no block stands between them (either
    // direction: a block is BLOCKED on the blocker's row and REJECTING on the other's). A clientId
    // stored meanwhile by a concurrent retry makes the insert do nothing, and so everything after it.
    const [written] = await tx.execute<{ allowed: boolean; id: string | null; time: string | null }>(sql`
      with allowed as (
        select 1 from accounts a join accounts p on p.id = ${partnerId} and not p.is_deleted
        where a.id = ${viewer.id} and not a.is_deleted
          and not exists (select 1 from friendships f
                          where ((f.account_id = ${viewer.id} and f.friend_id = ${partnerId})
                              or (f.account_id = ${partnerId} and f.friend_id = ${viewer.id}))
                            and f.status_code in ('BLOCKED', 'REJECTING'))),
      ins as (
        insert into messages (dialog_id, author_id, recipient_id, message_text, client_id)
        select ${dialogId}, ${viewer.id}, ${partnerId}, ${cmd.messageText}, ${clientId}::uuid from allowed
        on conflict (author_id, client_id) do nothing
        returning id, created_at),
      dialog as (
        update dialogs set last_message_id = ins.id, message_count = message_count + 1
        from ins where dialogs.id = ${dialogId}),
      members as (
        update dialog_members
        set activity_at = ins.created_at,
            unread_count = unread_count + (case when account_id = ${partnerId} then 1 else 0 end)
        from ins where dialog_members.dialog_id = ${dialogId}),
      ${notice.cte},
      -- One INSERT for both events, the message's first: the ids keep the order a client hears them in.
      event as (
        insert into events (type, payload, recipients, subjects)
        (select ${CHAT_EVENT_TYPES.message}, jsonb_build_object('id', ins.id, 'time', ${time}) || ${JSON.stringify(fields)}::jsonb,
                ${recipientArray([viewer.id, partnerId])}::bigint[], null::bigint[]
         from ins)
        union all
        (${notice.events}))
      select exists (select 1 from allowed) as allowed, ins.id, ${time} as time
      from (select 1) one left join ins on true`);
    if (!written.allowed) {
      await assertMayWrite(tx, viewer.id, partnerId); // throws the refusal that applies
      throw new Error(`message from ${viewer.id} to ${partnerId} refused without a reason`);
    }
    if (written.id === null) {
      // A conflicting retry waited for the first attempt to commit, then stored nothing.
      const existing = await readMessage(tx, sql`m.author_id = ${viewer.id} and m.client_id = ${clientId}`);
      if (!existing) throw new Error("clientId conflict without a stored message");
      return replayOrConflict(existing, dialogId, cmd.messageText);
    }
    await notifyAppended(tx);
    // In the order of the other reads: id, dialogId, time, then the rest.
    const message: MessageDto = Object.assign({ id: Number(written.id), dialogId, time: written.time! }, fields);
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
