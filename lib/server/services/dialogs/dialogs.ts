import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { appendEvent } from "@/lib/server/events/outbox";
import { BadRequestError, NotFoundError } from "@/lib/server/http/errors";
import { pageOf, type Page } from "@/lib/server/http/response";
import {
  CHAT_ERRORS,
  CHAT_EVENT_TYPES,
  createDialogInput,
  dialogByRecipientParams,
  dialogIdParams,
  dialogListQuery,
  noDialogQuery,
  type CreateDialogInput,
  type DialogByRecipientParams,
  type DialogDto,
  type DialogIdParams,
  type DialogListQuery,
  type DialogReadData,
  type UnreadCount,
} from "@/lib/validation/dialogs";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import {
  assertMayWrite,
  dialogIdOfPair,
  dialogSelect,
  lockPairShared,
  memberOrThrow,
  orderedPair,
  readDialogOf,
  toDialogDto,
  type DialogRow,
} from "./access";

// Every dialog read here is the viewer's own: the account id comes from the session; a dialog of
// other people answers 404 exactly like one that does not exist.

/**
 * The dialog of the pair, created with both member rows when there is none (call under
 * lockPairShared, after assertMayWrite). Concurrent creators meet on dialogs_pair_key: the second
 * waits for the first to commit and then finds its row.
 */
export async function ensureDialogRows(tx: Tx, me: number, them: number): Promise<{ dialogId: number; created: boolean }> {
  const [low, high] = orderedPair(me, them);
  const inserted = await tx.execute<{ id: string }>(sql`
    insert into dialogs (account_low, account_high) values (${low}, ${high})
    on conflict (account_low, account_high) do nothing returning id`);
  if (inserted[0]) {
    const dialogId = Number(inserted[0].id);
    await tx.execute(sql`
      insert into dialog_members (dialog_id, account_id, partner_id)
      values (${dialogId}, ${me}, ${them}), (${dialogId}, ${them}, ${me})`);
    return { dialogId, created: true };
  }
  const dialogId = await dialogIdOfPair(tx, me, them);
  if (dialogId === null) throw new Error(`dialog of ${low}/${high} vanished`);
  return { dialogId, created: false };
}

/** GET dialogs/{id} — one of the viewer's dialogs (the /im/{id} page); 404 for other people's and missing ones. */
export async function getDialog({ ctx, input }: { ctx: ServiceCtx; input: DialogIdParams }): Promise<DialogDto> {
  const viewer = requireViewer(ctx);
  const { id } = dialogIdParams.parse(input);
  const dialog = await readDialogOf(ctx.tx ?? ctx.db, viewer.id, id);
  if (!dialog) throw new NotFoundError(CHAT_ERRORS.dialogNotFound);
  return dialog;
}

/** GET dialogs/recipientId/{id} — the viewer's dialog with that person; 404 while there is none (the client then creates it). */
export async function getDialogWithRecipient({ ctx, input }: { ctx: ServiceCtx; input: DialogByRecipientParams }): Promise<DialogDto> {
  const viewer = requireViewer(ctx);
  const { id: recipientId } = dialogByRecipientParams.parse(input);
  if (recipientId === viewer.id) throw new BadRequestError(CHAT_ERRORS.self);
  const dialogId = await dialogIdOfPair(ctx.tx ?? ctx.db, viewer.id, recipientId);
  const dialog = dialogId === null ? null : await readDialogOf(ctx.tx ?? ctx.db, viewer.id, dialogId);
  if (!dialog) throw new NotFoundError(CHAT_ERRORS.dialogNotFound);
  return dialog;
}

/**
 * POST dialogs {recipientId} — the dialog with that person, created when there is none; a second call
 * (by either of them) answers the same dialog. Yourself, an unknown or deleted account, or a block in
 * either direction is refused and leaves nothing behind.
 */
export async function createDialog({ ctx, input }: { ctx: ServiceCtx; input: CreateDialogInput }): Promise<{ dialog: DialogDto; created: boolean }> {
  const viewer = requireViewer(ctx);
  const { recipientId } = createDialogInput.parse(input);
  if (recipientId === viewer.id) throw new BadRequestError(CHAT_ERRORS.self);
  return withTransaction(ctx, async (tx) => {
    await lockPairShared(tx, viewer.id, recipientId);
    await assertMayWrite(tx, viewer.id, recipientId);
    const { dialogId, created } = await ensureDialogRows(tx, viewer.id, recipientId);
    const dialog = await readDialogOf(tx, viewer.id, dialogId);
    if (!dialog) throw new Error(`dialog ${dialogId} has no member row for ${viewer.id}`);
    return { dialog, created };
  });
}

/**
 * GET dialogs — the viewer's dialogs, unread ones first, then by newest message. The inner scan reads
 * dialog_members_list_idx in its own order and stops after offset + size entries; only the page's rows
 * join accounts, the dialog and its last message (one query per page, never one per dialog).
 */
export async function listDialogs({ ctx, input }: { ctx: ServiceCtx; input: DialogListQuery }): Promise<Page<DialogDto>> {
  const viewer = requireViewer(ctx);
  const { page, size, sort } = dialogListQuery.parse(input);
  const db = ctx.tx ?? ctx.db;
  // "time,desc" is not index-ordered, but sorts only one account's dialogs (hundreds), never a table.
  const order = (t: string) =>
    sort === "unreadCount,desc"
      ? sql.raw(`(${t}.unread_count > 0) desc, ${t}.activity_at desc, ${t}.dialog_id desc`)
      : sql.raw(`${t}.activity_at desc, ${t}.dialog_id desc`);
  const keys = sql`(
      select k.dialog_id, k.account_id, k.partner_id, k.unread_count, k.activity_at from dialog_members k
      where k.account_id = ${viewer.id}
      order by ${order("k")}
      limit ${size} offset ${page * size}
    ) me`;
  const [rows, [total]] = await Promise.all([
    db.execute<DialogRow>(dialogSelect(keys).append(sql` order by ${order("me")}`)),
    db.execute<{ count: string }>(sql`select count(*) as count from dialog_members where account_id = ${viewer.id}`),
  ]);
  const now = new Date();
  return pageOf(
    rows.map((r) => toDialogDto(r, now)),
    Number(total.count),
    page,
    size,
  );
}

/** GET dialogs/unread — unread messages over all the viewer's dialogs. */
export async function countUnreadMessages({ ctx, input }: { ctx: ServiceCtx; input?: Record<string, unknown> }): Promise<UnreadCount> {
  const viewer = requireViewer(ctx);
  noDialogQuery.parse(input ?? {});
  const [row] = await (ctx.tx ?? ctx.db).execute<{ count: string | null }>(sql`
    select coalesce(sum(unread_count), 0) as count from dialog_members where account_id = ${viewer.id}`);
  return { count: Number(row.count ?? 0) };
}

/**
 * PUT dialogs/{id} — marks the dialog read for the viewer: its unread count becomes 0 and every message
 * of the partner so far turns READ. When that changes anything, a DIALOG_READ event tells both: the
 * partner's ticks and the viewer's other tabs. Other dialogs stay as they are.
 */
export async function markDialogRead({ ctx, input }: { ctx: ServiceCtx; input: DialogIdParams }): Promise<DialogDto> {
  const viewer = requireViewer(ctx);
  const { id: dialogId } = dialogIdParams.parse(input);
  return withTransaction(ctx, async (tx) => {
    // The row lock orders this against a concurrent send (which increments the same row).
    const member = await memberOrThrow(tx, viewer.id, dialogId, true);
    const [d] = await tx.execute<{ last_message_id: string | null }>(sql`select last_message_id from dialogs where id = ${dialogId}`);
    const lastMessageId = Number(d?.last_message_id ?? 0);
    if (member.unreadCount > 0 || member.lastReadMessageId < lastMessageId) {
      const [row] = await tx.execute<{ read_at: string }>(sql`
        update dialog_members set unread_count = 0, last_read_message_id = greatest(last_read_message_id, ${lastMessageId})
        where dialog_id = ${dialogId} and account_id = ${viewer.id}
        returning to_json(now()) #>> '{}' as read_at`);
      if (member.unreadCount > 0) {
        const data: DialogReadData = {
          dialogId,
          readerId: viewer.id,
          authorId: member.partnerId,
          lastReadMessageId: lastMessageId,
          readAt: new Date(row.read_at).toISOString(),
        };
        await appendEvent(tx, { type: CHAT_EVENT_TYPES.read, recipients: [viewer.id, member.partnerId], data });
      }
    }
    const dialog = await readDialogOf(tx, viewer.id, dialogId);
    if (!dialog) throw new NotFoundError(CHAT_ERRORS.dialogNotFound);
    return dialog;
  });
}

/** The partners of the account's most recently active dialogs (the sidecar's presence fan-out); none across a block. */
export async function dialogPartnerIds(db: DbOrTx, accountId: number, limit: number): Promise<number[]> {
  const rows = await db.execute<{ partner_id: string }>(sql`
    select m.partner_id from dialog_members m
    where m.account_id = ${accountId} and not exists (select 1 from dialogs d where d.id = m.dialog_id and d.blocked)
    order by (m.unread_count > 0) desc, m.activity_at desc, m.dialog_id desc limit ${limit}`);
  return rows.map((r) => Number(r.partner_id));
}
