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
import { createGroup, presentMemberIds } from "./groups";
import {
  activitySql,
  unreadSql,
  type MemberRow,
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
  const parsed = createDialogInput.parse(input);
  if (parsed.recipientId === undefined) return { dialog: await createGroup({ ctx, input: { title: parsed.title!, memberIds: parsed.memberIds! } }), created: true };
  const recipientId = parsed.recipientId;
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
  // A group's unread count and time come from its dialog row (docs/adr/0169). Two halves: the personal
  // dialogs read dialog_members_list_idx in its own order (skipping group rows) and stop after offset + size
  // entries, as before groups; the group rows (dialog_members_groups_idx) each join their group. Only the page's rows then
  // join accounts, the dialog and its last message.
  // The page's order is on columns the keys subquery puts out (sort_has_unread rather than an expression
  // over sort_unread), so Postgres sees the page rows come out of the joins in it already and does not
  // sort the finished rows again.
  const order = (t: string) =>
    sort === "unreadCount,desc"
      ? sql.raw(`${t}sort_has_unread desc, ${t}sort_time desc, ${t}dialog_id desc`)
      : sql.raw(`${t}sort_time desc, ${t}dialog_id desc`);
  const personalOrder =
    sort === "unreadCount,desc" ? sql.raw(`(k.unread_count > 0) desc, k.activity_at desc, k.dialog_id desc`) : sql.raw(`k.activity_at desc, k.dialog_id desc`);
  // Limits as literals (validated integers), as the feed's (home-timeline.ts): as parameters, Postgres
  // planned this statement again on every call, its generic plan's estimate never beating the custom ones.
  const int = (v: number) => sql.raw(String(Math.trunc(v)));
  const keys = sql`(
      select k2.*, k2.sort_unread > 0 as sort_has_unread from (
        (select k.*, k.unread_count as sort_unread, k.activity_at as sort_time from dialog_members k
         -- (Written so that it filters the index's rows in order: "partner_id is not null" would invite a
         -- bitmap of dialog_members_partner_idx and a sort of every row.)
         where k.account_id = ${viewer.id} and coalesce(k.partner_id, 0) > 0
         order by ${personalOrder}
         limit ${int((page + 1) * size)})
        union all
        (select k.*, ${unreadSql("k", "g")} as sort_unread, ${activitySql("k", "g")} as sort_time from dialog_members k
         join dialogs g on g.id = k.dialog_id
         where k.account_id = ${viewer.id} and k.partner_id is null)) k2
      order by ${order("")}
      limit ${int(size)} offset ${int(page * size)}
    ) me`;
  // The total rides along as a column (an InitPlan, once per statement): one statement per page. A page
  // past the end has no row to carry it, and asks for it on its own. It is the member's kept count of
  // their dialog_members rows, one probe (docs/adr/0190).
  const count = sql`coalesce((select c.dialogs from dialog_counts c where c.account_id = ${viewer.id}), 0)`;
  const rows = await db.execute<DialogRow & { extra: string }>(dialogSelect(keys, viewer.id, count).append(sql` order by ${order("me.")}`));
  const total = rows.length > 0 ? Number(rows[0].extra) : Number((await db.execute<{ count: string }>(sql`select ${count} as count`))[0].count);
  const now = new Date();
  return pageOf(
    rows.map((r) => toDialogDto(r, now)),
    total,
    page,
    size,
  );
}

/** GET dialogs/unread — unread messages over all the viewer's dialogs. */
export async function countUnreadMessages({ ctx, input }: { ctx: ServiceCtx; input?: Record<string, unknown> }): Promise<UnreadCount> {
  const viewer = requireViewer(ctx);
  noDialogQuery.parse(input ?? {});
  const [row] = await (ctx.tx ?? ctx.db).execute<{ count: string | null }>(sql`
    select (select coalesce(sum(k.unread_count), 0) from dialog_members k where k.account_id = ${viewer.id} and k.partner_id is not null)
      + (select coalesce(sum(${unreadSql("me", "d")}), 0) from dialog_members me join dialogs d on d.id = me.dialog_id
         where me.account_id = ${viewer.id} and me.partner_id is null) as count`);
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
    if (member.group) {
      await markGroupRead(tx, viewer.id, dialogId, member);
    } else {
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
          await appendEvent(tx, { type: CHAT_EVENT_TYPES.read, recipients: [viewer.id, member.partnerId!], data });
        }
      }
    }
    const dialog = await readDialogOf(tx, viewer.id, dialogId);
    if (!dialog) throw new NotFoundError(CHAT_ERRORS.dialogNotFound);
    return dialog;
  });
}

/**
 * A group read by a member: their read point moves to the group's newest message (for a member who
 * left, nothing is unread any more), and the group's two read marks move with it (docs/adr/0169). When
 * that turned someone's message READ, DIALOG_READ (authorId null) tells every present member: each
 * message up to lastReadMessageId not written by the reader is READ. Otherwise only the reader's tabs hear it.
 */
async function markGroupRead(tx: Tx, readerId: number, dialogId: number, member: MemberRow): Promise<void> {
  if (member.leftMessageId !== null) return;
  // The group row first (a send locks it first too), then the member row.
  const [g] = await tx.execute<{ message_count: number; last_message_id: string | null; read_top_id: string; read_top_by: string; read_second_id: string }>(sql`
    select message_count, last_message_id, read_top_id, read_top_by, read_second_id from dialogs where id = ${dialogId} for update`);
  const v = Number(g.last_message_id ?? 0);
  const [me] = await tx.execute<{ read_count: number; unread_adjust: number }>(sql`
    select read_count, unread_adjust from dialog_members where dialog_id = ${dialogId} and account_id = ${readerId}`);
  const unread = g.message_count - me.read_count - me.unread_adjust;
  if (unread <= 0 && member.lastReadMessageId >= v) return;
  const [row] = await tx.execute<{ read_at: string }>(sql`
    update dialog_members set read_count = ${g.message_count}, unread_adjust = 0, last_read_message_id = greatest(last_read_message_id, ${v})
    where dialog_id = ${dialogId} and account_id = ${readerId}
    returning to_json(now()) #>> '{}' as read_at`);
  const top = Number(g.read_top_id);
  const topBy = Number(g.read_top_by);
  const second = Number(g.read_second_id);
  // Who has read furthest, and furthest among the others: only ever grows.
  const next =
    topBy === readerId
      ? { top: Math.max(top, v), by: readerId, second }
      : v > top
        ? { top: v, by: readerId, second: top }
        : { top, by: topBy, second: Math.max(second, v) };
  const moved = next.top !== top || next.by !== topBy || next.second !== second;
  if (moved) {
    await tx.execute(sql`update dialogs set read_top_id = ${next.top}, read_top_by = ${next.by}, read_second_id = ${next.second} where id = ${dialogId}`);
  }
  // A message's state depends only on the marks: when they moved, someone's messages turned READ.
  const othersTurned = moved;
  const data: DialogReadData = { dialogId, readerId, authorId: null, lastReadMessageId: v, readAt: new Date(row.read_at).toISOString() };
  if (othersTurned) await appendEvent(tx, { type: CHAT_EVENT_TYPES.read, recipients: await presentMemberIds(tx, dialogId), data, channel: dialogId });
  else await appendEvent(tx, { type: CHAT_EVENT_TYPES.read, recipients: [readerId], data });
}

/** The partners of the account's most recently active dialogs (the sidecar's presence fan-out); none across a block. */
export async function dialogPartnerIds(db: DbOrTx, accountId: number, limit: number): Promise<number[]> {
  const rows = await db.execute<{ partner_id: string }>(sql`
    select m.partner_id from dialog_members m
    where m.account_id = ${accountId} and m.partner_id is not null and not exists (select 1 from dialogs d where d.id = m.dialog_id and d.blocked)
    order by (m.unread_count > 0) desc, m.activity_at desc, m.dialog_id desc limit ${limit}`);
  return rows.map((r) => Number(r.partner_id));
}
