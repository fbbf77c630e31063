import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { notifyAppended, recipientArray, wakeSidecarsNow } from "@/lib/server/events/outbox";
import { messageNotification } from "@/lib/server/services/notifications/producers";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, ValidationError } from "@/lib/server/http/errors";
import { excerpt, notificationWrite } from "@/lib/server/services/notifications/produce";
import { consumeAccountLimits } from "@/lib/server/http/rate-limit";
import { isUniqueViolation } from "@/lib/server/services/auth/lookup";
import { pageOf, type Page } from "@/lib/server/http/response";
import { getBlobStore } from "@/lib/server/storage/blob-store";
import { STORED_FILES_BASE, storedKeyOf } from "@/lib/validation/storage";
import {
  CHAT_ERRORS,
  CHAT_EVENT_TYPES,
  messageListQuery,
  sendMessageCommand,
  type MemberCard,
  type MessageDto,
  type MessageListQuery,
  type MessageReplyPreview,
  type SendMessageCommand,
} from "@/lib/validation/dialogs";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { messagesAllowedSql } from "../privacy/rules";
import {
  assertMayWrite,
  dialogIdOfPair,
  lockPairShared,
  memberOrThrow,
  memberCardJson,
  messageColumns,
  visibleWindowSql,
  type MemberRow,
  replyPreviewJson,
  toMemberCard,
  toMessageDto,
  toReplyPreview,
  type MessageRow,
} from "./access";
import { ensureDialogRows } from "./dialogs";

/**
 * GET dialogs/messages — one page of the viewer's dialog (by dialogId, or by recipientId as the original
 * client asks), ordered by (time, id) so equal times keep a stable order. `beforeId` pages by keyset
 * (messages older than that one), so new messages arriving never shift what the next page returns.
 * Each page is one range scan of messages_dialog_time_idx; totalElements comes from dialogs.message_count
 * less the viewer's hidden_count. Messages the viewer deleted for themselves are left out (one
 * primary-key probe of message_hides per row read, docs/adr/0129).
 */
export async function listMessages({ ctx, input }: { ctx: ServiceCtx; input: MessageListQuery }): Promise<Page<MessageDto>> {
  const viewer = requireViewer(ctx);
  const q = messageListQuery.parse(input);
  const db = ctx.tx ?? ctx.db;
  let dialogId: number | null;
  let member: MemberRow | null = null;
  if (q.dialogId !== undefined) {
    member = await memberOrThrow(db, viewer.id, q.dialogId);
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
  // A group member sees the messages from their joining to their leaving (docs/adr/0169).
  const window = member ? visibleWindowSql(member) : sql``;
  const visible = sql`${window} and not exists (select 1 from message_hides h where h.message_id = m.id and h.account_id = ${viewer.id})`;
  // The number of messages the viewer sees, from the counters: a group member's window of counts.
  const seen = sql`(case when me.partner_id is null then coalesce(me.until_count, d.message_count) - me.from_count else d.message_count end) - me.hidden_count`;
  let cursor = sql``;
  let total: number;
  if (q.beforeId !== undefined) {
    const [c] = await db.execute<{ created_at: string }>(sql`
      select created_at::text from messages m where m.id = ${q.beforeId} and m.dialog_id = ${dialogId}${window}`);
    if (!c) throw new BadRequestError(CHAT_ERRORS.badQuery);
    cursor = sql` and (m.created_at, m.id) < (${c.created_at}::timestamptz, ${q.beforeId})`;
    // Older = all − (the cursor and newer), the newer part being the short stretch already on screen.
    const [row] = await db.execute<{ total: string }>(sql`
      select ${seen} - (select count(*) from messages m
        where m.dialog_id = d.id and (m.created_at, m.id) >= (${c.created_at}::timestamptz, ${q.beforeId})${visible}) as total
      from dialogs d join dialog_members me on me.dialog_id = d.id and me.account_id = ${viewer.id} where d.id = ${dialogId}`);
    total = Number(row.total);
  } else {
    const [row] = await db.execute<{ message_count: number }>(sql`
      select ${seen} as message_count
      from dialogs d join dialog_members me on me.dialog_id = d.id and me.account_id = ${viewer.id} where d.id = ${dialogId}`);
    total = Number(row?.message_count ?? 0);
  }
  const rows = await db.execute<MessageRow>(sql`
    select ${messageColumns} from messages m
    where m.dialog_id = ${dialogId}${cursor}${visible}
    order by m.created_at ${sql.raw(dir)}, m.id ${sql.raw(dir)}
    limit ${q.size} offset ${q.page * q.size}`);
  return pageOf(rows.map(toMessageDto), Math.max(total, 0), q.page, q.size);
}

async function readMessage(db: DbOrTx, where: ReturnType<typeof sql>): Promise<MessageDto | null> {
  const rows = await db.execute<MessageRow>(sql`select ${messageColumns} from messages m where ${where}`);
  return rows[0] ? toMessageDto(rows[0]) : null;
}

/** A retry with a clientId already used: the same message again, or a conflict when it was a different one. */
function replayOrConflict(existing: MessageDto, dialogId: number, text: string, images: string[]): { message: MessageDto; created: false } {
  const sameImages = existing.images.length === images.length && existing.images.every((p, i) => p === images[i]);
  if (existing.dialogId !== dialogId || existing.messageText !== text || !sameImages) throw new ConflictError(CHAT_ERRORS.clientIdReused);
  return { message: existing, created: false };
}

type ParsedSend = ReturnType<typeof sendMessageCommand.parse>;

/** The viewer's message stored under `clientId`, if any. */
const storedByClientId = (db: DbOrTx, viewerId: number, clientId: string) =>
  readMessage(db, sql`m.author_id = ${viewerId} and m.client_id = ${clientId}::uuid`);

/** The insert met the viewer's earlier message with the same clientId (a retry racing its first attempt). */
function isClientIdConflict(err: unknown): boolean {
  if (!isUniqueViolation(err)) return false;
  // postgres.js names the index; drizzle wraps its error as `cause`.
  const pg = ((err as { cause?: unknown }).cause ?? err) as { constraint_name?: string };
  return pg.constraint_name === "messages_author_client_key";
}

/**
 * Who the viewer writes to in a dialog. Members never change (a dialog is one pair for good), so the
 * answer is kept per process once read; the write re-checks it on the member row, and a dialog removed
 * since (an account erased) simply writes nothing. Bounded: the oldest entries go first.
 */
const partners = new Map<string, number>();
const PARTNERS_KEPT = 50_000;

async function partnerOf(db: DbOrTx, dialogId: number, viewerId: number): Promise<number | null> {
  const key = `${dialogId}:${viewerId}`;
  const known = partners.get(key);
  if (known !== undefined) return known;
  const [row] = await db.execute<{ partner_id: string | null }>(sql`
    select partner_id from dialog_members where dialog_id = ${dialogId} and account_id = ${viewerId}`);
  if (!row) return null;
  // 0: a group (its membership can change: the write checks it on the member row every time).
  const partner = row.partner_id === null ? 0 : Number(row.partner_id);
  if (partners.size >= PARTNERS_KEPT) partners.delete(partners.keys().next().value!);
  partners.set(key, partner);
  return partner;
}

/**
 * The members a group message mentions who will hear of it: present members other than the sender,
 * with no block either way between them (blocks govern mentions, issue 41). At most MENTIONS_MAX.
 */
async function mentionTargets(db: DbOrTx, dialogId: number, viewerId: number, mentions: number[] | undefined): Promise<number[]> {
  const wanted = [...new Set(mentions ?? [])].filter((id) => id !== viewerId);
  if (wanted.length === 0) return [];
  const rows = await db.execute<{ account_id: string }>(sql`
    select c.account_id from dialog_members c
    where c.dialog_id = ${dialogId} and c.left_message_id is null and c.account_id = any(${`{${wanted.join(",")}}`}::bigint[])
      and not exists (select 1 from friendships f
                      where ((f.account_id = c.account_id and f.friend_id = ${viewerId}) or (f.account_id = ${viewerId} and f.friend_id = c.account_id))
                        and f.status_code in ('BLOCKED', 'REJECTING'))
    order by c.account_id`);
  return rows.map((r) => Number(r.account_id));
}

/**
 * The write of one group message: one statement, like a personal one (ADR 0097), and its cost does not
 * grow with the group (docs/adr/0169): the group row (count, last message, time, read marks), the
 * message, the sender's own member row (they have read up to their message), the mentioned members'
 * MESSAGE notifications, and one MESSAGE event whose recipients are the present members — never a row
 * per member. Written only while the sender is a present member with a live account; null otherwise.
 */
async function writeGroupMessage(
  db: DbOrTx,
  w: { viewerId: number; dialogId: number; text: string; clientId: string | null; reply: MessageReplyPreview | null; images: string[]; mentions: number[] },
): Promise<MessageDto | null> {
  const time = sql`to_char(ins.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const fields = {
    dialogId: w.dialogId,
    conversationPartner1: w.viewerId,
    conversationPartner2: null,
    authorId: w.viewerId,
    recipientId: null,
    messageText: w.text,
    readStatus: "SENT" as const,
    clientId: w.clientId,
    type: "MESSAGE" as const,
    editedAt: null,
    deleted: false,
    replyTo: w.reply,
    images: w.images,
    event: null,
    mentions: w.mentions,
  };
  const notice =
    w.mentions.length > 0
      ? notificationWrite(
          { type: "MESSAGE", actorId: w.viewerId, recipients: w.mentions, dialogId: w.dialogId, content: excerpt(w.text), groupKey: `MESSAGE:${w.dialogId}` },
          "notice",
          sql`exists (select 1 from ins)`,
        )
      : null;
  const [written] = await db.execute<{ id: string | null; time: string | null; author: MemberCard | string | null }>(sql`
    with author as (select ${memberCardJson("a")} as card from accounts a where a.id = ${w.viewerId}),
    gate as (
      update dialogs d
      set message_count = d.message_count + 1, last_message_id = nid.id, activity_at = now(),
          read_second_id = case when d.read_top_by = ${w.viewerId} then d.read_second_id else d.read_top_id end,
          read_top_id = nid.id, read_top_by = ${w.viewerId}
      from (select nextval(pg_get_serial_sequence('messages', 'id')) as id) nid
      where d.id = ${w.dialogId} and d.kind = 'GROUP'
        and exists (select 1 from dialog_members me
                    where me.dialog_id = d.id and me.account_id = ${w.viewerId} and me.left_message_id is null)
        and exists (select 1 from accounts a where a.id = ${w.viewerId} and not a.is_deleted)
      returning nid.id, d.message_count),
    ins as (
      insert into messages (id, dialog_id, author_id, recipient_id, message_text, client_id, reply_to_id, images, mentions) overriding system value
      select gate.id, ${w.dialogId}, ${w.viewerId}, null, ${w.text}, ${w.clientId}::uuid, ${w.reply?.id ?? null}::bigint,
             ${w.images.length > 0 ? sql`array[${sql.join(w.images.map((p) => sql`${p}`), sql`, `)}]::text[]` : sql`null::text[]`},
             ${w.mentions.length > 0 ? sql`${`{${w.mentions.join(",")}}`}::bigint[]` : sql`null::bigint[]`} from gate
      returning id, created_at),
    mine as (
      update dialog_members set read_count = gate.message_count, unread_adjust = 0, last_read_message_id = gate.id, activity_at = ins.created_at
      from gate, ins where dialog_members.dialog_id = ${w.dialogId} and dialog_members.account_id = ${w.viewerId}),
    ${notice ? sql`${notice.cte},` : sql``}
    event as (
      insert into events (type, payload, recipients, subjects, channel)
      (select ${CHAT_EVENT_TYPES.message},
              jsonb_build_object('id', ins.id, 'time', ${time}, 'author', (select card from author)) || ${JSON.stringify(fields)}::jsonb,
              (select array_agg(c.account_id order by c.account_id) from dialog_members c where c.dialog_id = ${w.dialogId} and c.left_message_id is null),
              null::bigint[], ${w.dialogId}::bigint
       from ins)
      ${notice ? sql`union all (select n.*, null::bigint from (${notice.events}) n)` : sql``})
    select ins.id, ${time} as time, (select card from author) as author from (select 1) one left join ins on true`);
  if (written?.id == null) return null;
  // The author's card came back with the write (the event carries the same): no second round trip.
  return Object.assign({ id: Number(written.id), dialogId: w.dialogId, time: written.time! }, fields, { author: toMemberCard(written.author) });
}

/**
 * The write of one message: one statement (ADR 0097). It moves the dialog row, but only while the
 * viewer is its member, both accounts are live and the row says no block stands between them; the
 * message, both member rows, the recipient's MESSAGE notification and both events are written only
 * with it. A block writes that same row first in its transaction, so a send that meets a block in
 * progress waits for it and re-checks the flag on the row the block committed (READ COMMITTED's
 * re-check of an updated row): a message is stored wholly before a block or not at all.
 * The id is drawn first so the dialog can point at it in the same statement. Returns null when
 * nothing was written; throws a unique violation (messages_author_client_key) when the clientId is
 * already stored, which rolls the whole statement back.
 */
async function writeMessage(
  db: DbOrTx,
  w: { viewerId: number; dialogId: number; partnerId: number; text: string; clientId: string | null; reply: MessageReplyPreview | null; images: string[] },
): Promise<MessageDto | null> {
  const fields = {
    dialogId: w.dialogId,
    conversationPartner1: w.viewerId,
    conversationPartner2: w.partnerId,
    authorId: w.viewerId,
    recipientId: w.partnerId,
    messageText: w.text,
    readStatus: "SENT" as const,
    clientId: w.clientId,
    type: "MESSAGE" as const,
    editedAt: null,
    deleted: false,
    replyTo: w.reply,
    images: w.images,
  };
  const time = sql`to_char(ins.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  // The recipient's MESSAGE notification, written only with the message.
  const notice = messageNotification({ actorId: w.viewerId, recipientId: w.partnerId, dialogId: w.dialogId, text: w.text }, "notice", sql`exists (select 1 from ins)`);
  const [written] = await db.execute<{ id: string | null; time: string | null }>(sql`
    with gate as (
      update dialogs d
      set message_count = d.message_count + 1, last_message_id = greatest(d.last_message_id, nid.id)
      from (select nextval(pg_get_serial_sequence('messages', 'id')) as id) nid
      where d.id = ${w.dialogId} and not d.blocked
        and exists (select 1 from dialog_members me
                    where me.dialog_id = d.id and me.account_id = ${w.viewerId} and me.partner_id = ${w.partnerId})
        and exists (select 1 from accounts a join accounts p on p.id = ${w.partnerId} and not p.is_deleted
                    where a.id = ${w.viewerId} and not a.is_deleted)
        and ${messagesAllowedSql(w.viewerId, w.partnerId)}
      returning nid.id),
    ins as (
      insert into messages (id, dialog_id, author_id, recipient_id, message_text, client_id, reply_to_id, images) overriding system value
      select gate.id, ${w.dialogId}, ${w.viewerId}, ${w.partnerId}, ${w.text}, ${w.clientId}::uuid, ${w.reply?.id ?? null}::bigint,
             ${w.images.length > 0 ? sql`array[${sql.join(w.images.map((p) => sql`${p}`), sql`, `)}]::text[]` : sql`null::text[]`} from gate
      returning id, created_at),
    members as (
      update dialog_members
      set activity_at = ins.created_at,
          unread_count = unread_count + (case when account_id = ${w.partnerId} then 1 else 0 end)
      from ins where dialog_members.dialog_id = ${w.dialogId}),
    ${notice.cte},
    -- One INSERT for both events, the message's first: the ids keep the order a client hears them in.
    event as (
      insert into events (type, payload, recipients, subjects)
      (select ${CHAT_EVENT_TYPES.message}, jsonb_build_object('id', ins.id, 'time', ${time}) || ${JSON.stringify(fields)}::jsonb,
              ${recipientArray([w.viewerId, w.partnerId])}::bigint[], null::bigint[]
       from ins)
      union all
      (${notice.events}))
    select ins.id, ${time} as time from (select 1) one left join ins on true`);
  if (written?.id == null) return null;
  // In the order of the other reads: id, dialogId, time, then the rest.
  return Object.assign({ id: Number(written.id), dialogId: w.dialogId, time: written.time! }, fields);
}

/**
 * The preview of the message a new one answers: a message of the same dialog the sender still sees
 * (not deleted for both, not deleted for themselves); otherwise 422, nothing stored.
 */
async function replyPreviewFor(db: DbOrTx, dialogId: number, viewerId: number, replyTo: number | undefined): Promise<MessageReplyPreview | null> {
  if (replyTo === undefined) return null;
  const [row] = await db.execute<{ preview: MessageReplyPreview | string }>(sql`
    select ${replyPreviewJson("q")} as preview from messages q
    where q.id = ${replyTo} and q.dialog_id = ${dialogId} and q.deleted_at is null and q.event is null
      and not exists (select 1 from message_hides h where h.message_id = q.id and h.account_id = ${viewerId})
      -- Within what the sender sees of a group (from joining to leaving); all of a personal dialog.
      and exists (select 1 from dialog_members w where w.dialog_id = q.dialog_id and w.account_id = ${viewerId}
                  and q.id > w.from_message_id and (w.left_message_id is null or q.id <= w.left_message_id))`);
  if (!row) throw new ValidationError(CHAT_ERRORS.replyNotFound, [{ path: "replyTo", message: CHAT_ERRORS.replyNotFound }]);
  return toReplyPreview(row.preview);
}

/**
 * Photos of a new message must be the sender's own uploads (the uploads table) or photos already in that
 * dialog (a photo sent back): anyone else's image key — a stranger's post image, another chat's photo —
 * is refused with 422 on `images.N`, nothing stored (issue 40 item 6, docs/adr/0161). One statement:
 * the uploads primary key per photo, and for the rest one scan of the dialog's photo messages.
 */
async function assertOwnImages(db: DbOrTx, viewerId: number, cmd: ParsedSend): Promise<void> {
  const images = cmd.images ?? [];
  if (images.length === 0) return;
  const dialogId = cmd.dialogId ?? (cmd.recipientId !== undefined ? await dialogIdOfPair(db, viewerId, cmd.recipientId) : null);
  const keys = images.map((p) => storedKeyOf(p)!);
  const rows = await db.execute<{ i: number }>(sql`
    select i::int from unnest(${sql`array[${sql.join(keys.map((k) => sql`${k}`), sql`, `)}]::text[]`}) with ordinality as k(key, i)
    where not exists (select 1 from uploads u where u.key = k.key and u.account_id = ${viewerId})
      and not exists (select 1 from messages m
                      where ${dialogId ?? null}::bigint is not null and m.dialog_id = ${dialogId ?? null}::bigint and m.images is not null
                        and m.images @> array['${sql.raw(STORED_FILES_BASE)}' || k.key])
    order by i limit 1`);
  if (rows.length > 0) {
    const at = `images.${rows[0].i - 1}`;
    throw new ValidationError(CHAT_ERRORS.imageNotOwn, [{ path: at, message: CHAT_ERRORS.imageNotOwn }]);
  }
}

/**
 * Photos of a new message must be files this server stored and still has (the path's form was checked
 * by the schema): otherwise 422 on `images.N`, nothing stored. At most MESSAGE_IMAGES_MAX look-ups, in
 * parallel (a stat on disk, a HEAD on S3).
 */
async function assertStoredImages(images: string[] | undefined): Promise<void> {
  if (!images || images.length === 0) return;
  const store = getBlobStore();
  const found = await Promise.all(images.map((p) => store.exists(storedKeyOf(p)!)));
  const missing = found.indexOf(false);
  if (missing >= 0) throw new ValidationError(CHAT_ERRORS.imageNotStored, [{ path: `images.${missing}`, message: CHAT_ERRORS.imageNotStored }]);
}

/** After a write outside a transaction the sidecars are woken at once; inside one, after its commit. */
async function wake(ctx: ServiceCtx): Promise<void> {
  if (ctx.tx) await notifyAppended(ctx.tx);
  else wakeSidecarsNow(ctx.db);
}

/**
 * Nothing was stored: says why, under the pair's shared lock (so a block is seen whole). A retry of a
 * message already stored answers it, even if writing has become impossible since; otherwise the refusal
 * that applies (404 not a member, 400 the wrong recipient, 403 a block or a deleted account). Null when
 * no reason stands any more (a block lifted meanwhile): the caller tries once more.
 */
async function whyNotSent(tx: Tx, viewerId: number, cmd: ParsedSend, clientId: string | null): Promise<{ message: MessageDto; created: false } | null> {
  const existing = clientId ? await storedByClientId(tx, viewerId, clientId) : null;
  if (existing) {
    if (cmd.recipientId !== undefined && cmd.recipientId !== existing.recipientId) throw new ConflictError(CHAT_ERRORS.clientIdReused);
    return replayOrConflict(existing, cmd.dialogId ?? existing.dialogId, cmd.messageText, cmd.images ?? []);
  }
  let partnerId = cmd.recipientId!;
  if (cmd.dialogId !== undefined) {
    const member = await memberOrThrow(tx, viewerId, cmd.dialogId);
    if (member.group) {
      // A group: no recipient; someone who left or was removed cannot send; a deleted account cannot.
      if (cmd.recipientId !== undefined) throw new BadRequestError(CHAT_ERRORS.dialogTarget);
      if (!member.present) throw new ForbiddenError(CHAT_ERRORS.leftGroup);
      const [me] = await tx.execute<{ is_deleted: boolean }>(sql`select is_deleted from accounts where id = ${viewerId}`);
      if (!me || me.is_deleted) throw new ForbiddenError(CHAT_ERRORS.viewerDeleted);
      return null;
    }
    partnerId = member.partnerId!;
    if (cmd.recipientId !== undefined && cmd.recipientId !== partnerId) throw new BadRequestError(CHAT_ERRORS.dialogTarget);
  }
  await lockPairShared(tx, viewerId, partnerId);
  await assertMayWrite(tx, viewerId, partnerId); // throws the refusal that applies
  return null;
}

/**
 * POST dialogs/{id}/messages, and a socket MESSAGE frame — stores a message from the viewer and appends
 * its MESSAGE event for both partners in the same transaction; the recipient's unread count, the
 * dialog's last message and both members' activity time change with it. With a clientId, a retry
 * stores nothing new and answers the message stored the first time (created: false, no second event).
 * Refused when the viewer is not a partner (404), for a block either way, a deleted account or the
 * partner's messages from friends only (403, privacy/rules.ts).
 *
 * A message to a dialog is one statement, one round trip (ADR 0097; the partner is read once per
 * dialog and process). Only when nothing was written does a transaction find out why.
 */
export async function sendMessage({ ctx, input }: { ctx: ServiceCtx; input: SendMessageCommand }): Promise<{ message: MessageDto; created: boolean }> {
  const viewer = requireViewer(ctx);
  const cmd = sendMessageCommand.parse(input);
  if (cmd.recipientId === viewer.id) throw new BadRequestError(CHAT_ERRORS.self);
  // One budget per account for POST and the socket's MESSAGE frame (both come here): a minute and a
  // short burst, counted in parallel beside the write's one statement (ADR 0109).
  await consumeAccountLimits(["message", "messageBurst"], viewer.id);
  await assertStoredImages(cmd.images);
  await assertOwnImages(ctx.tx ?? ctx.db, viewer.id, cmd);
  const clientId = cmd.clientId ?? null;
  for (let attempt = 0; ; attempt++) {
    try {
      const message = cmd.dialogId !== undefined ? await sendToDialog(ctx, viewer.id, cmd.dialogId, cmd, clientId) : await sendToPerson(ctx, viewer.id, cmd, clientId);
      if (message) {
        await wake(ctx);
        return { message, created: true };
      }
    } catch (err) {
      // Outside a caller's transaction the conflict rolled back only its own statement or transaction.
      if (ctx.tx || !isClientIdConflict(err)) throw err;
    }
    const answer = await withTransaction(ctx, (tx) => whyNotSent(tx, viewer.id, cmd, clientId));
    if (answer) return answer;
    if (attempt > 0) throw new Error(`message from ${viewer.id} refused without a reason`);
  }
}

async function sendToDialog(ctx: ServiceCtx, viewerId: number, dialogId: number, cmd: ParsedSend, clientId: string | null): Promise<MessageDto | null> {
  const db = ctx.tx ?? ctx.db;
  // Inside a caller's transaction a conflicting insert would abort it: a retry is looked for first.
  if (ctx.tx && clientId && (await storedByClientId(ctx.tx, viewerId, clientId))) return null;
  const partnerId = await partnerOf(db, dialogId, viewerId);
  if (partnerId === null || (cmd.recipientId !== undefined && cmd.recipientId !== partnerId)) return null;
  const reply = await replyPreviewFor(db, dialogId, viewerId, cmd.replyTo);
  if (partnerId === 0) {
    const mentions = await mentionTargets(db, dialogId, viewerId, cmd.mentions);
    return writeGroupMessage(db, { viewerId, dialogId, text: cmd.messageText, clientId, reply, images: cmd.images ?? [], mentions });
  }
  return writeMessage(db, { viewerId, dialogId, partnerId, text: cmd.messageText, clientId, reply, images: cmd.images ?? [] });
}

/** The original client's form, by recipient: the dialog may not exist yet, so it is made under the pair's lock. */
async function sendToPerson(ctx: ServiceCtx, viewerId: number, cmd: ParsedSend, clientId: string | null): Promise<MessageDto | null> {
  const partnerId = cmd.recipientId!;
  return withTransaction(ctx, async (tx) => {
    if (clientId && (await storedByClientId(tx, viewerId, clientId))) return null; // a retry: answered by whyNotSent
    await lockPairShared(tx, viewerId, partnerId);
    await assertMayWrite(tx, viewerId, partnerId);
    const { dialogId } = await ensureDialogRows(tx, viewerId, partnerId);
    const reply = await replyPreviewFor(tx, dialogId, viewerId, cmd.replyTo);
    return writeMessage(tx, { viewerId, dialogId, partnerId, text: cmd.messageText, clientId, reply, images: cmd.images ?? [] });
  });
}

/**
 * Whom `accountId` tells that they type in `dialogId` (the sidecar's TYPING check): the partner of a
 * personal dialog (`partner`, checked for blocks by the caller), or a group's other present members; null
 * when the account is no present member.
 */
export async function typingAudience(db: DbOrTx, accountId: number, dialogId: number): Promise<{ partner: number | null; members: number[] } | null> {
  let member: MemberRow;
  try {
    member = await memberOrThrow(db, accountId, dialogId);
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
  if (!member.group) return { partner: member.partnerId, members: [member.partnerId!] };
  if (!member.present) return null;
  const rows = await db.execute<{ account_id: string }>(sql`
    select account_id from dialog_members where dialog_id = ${dialogId} and left_message_id is null and account_id <> ${accountId}`);
  return { partner: null, members: rows.map((r) => Number(r.account_id)) };
}
