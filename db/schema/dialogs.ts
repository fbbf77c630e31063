import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/**
 * A dialog is PERSONAL (one per unordered pair of accounts) or a GROUP conversation (issue 41, docs/adr/0169).
 * A personal one: one dialog per unordered pair of accounts: the pair is stored as (least, greatest) with a unique
 * index, so two concurrent "create" calls (or both people at once) end on the same row.
 * last_message_id points at the newest message (no foreign key: messages references dialogs, and the
 * pointer is only ever written in the transaction that inserts that message).
 */
export const dialogs = pgTable(
  "dialogs",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text({ enum: ["PERSONAL", "GROUP"] }).notNull().default("PERSONAL"),
    /** The pair of a personal dialog; null in a group. */
    accountLow: bigint({ mode: "number" }).references(() => accounts.id, { onDelete: "cascade" }),
    accountHigh: bigint({ mode: "number" }).references(() => accounts.id, { onDelete: "cascade" }),
    /** A group's title and photo (a stored image's URL path); null in a personal dialog. */
    title: text(),
    photo: text(),
    /** A group's present members (dialog_members rows with left_message_id null), kept with every join and leave. */
    membersCount: integer().notNull().default(2),
    /** A group's newest message time (its members' rows are not touched per message: the list orders groups by this). */
    activityAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /**
     * A group's read marks, so "read by someone else" is O(1) per message (docs/adr/0169): the furthest
     * any member has read (readTopId, by readTopBy) and the furthest any other member has read
     * (readSecondId). A message of author X is READ when readTopBy ≠ X and readTopId ≥ its id, or
     * readSecondId ≥ its id.
     */
    readTopId: bigint({ mode: "number" }).notNull().default(0),
    readTopBy: bigint({ mode: "number" }).notNull().default(0),
    readSecondId: bigint({ mode: "number" }).notNull().default(0),
    lastMessageId: bigint({ mode: "number" }),
    /** Messages in the dialog, kept in the sending transaction: the history's totalElements without a count scan. */
    messageCount: integer().notNull().default(0),
    /**
     * A block stands between the two (BLOCKED or REJECTING on either side), written by the friend action
     * that changes it, first in its transaction. A send updates this row only while it is false, so a
     * block committing during the send is re-checked on the row itself (docs/adr/0097).
     */
    blocked: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The pair's identity: GET dialogs/recipientId/{id} and the idempotent POST dialogs look it up here.
    uniqueIndex("dialogs_pair_key").on(t.accountLow, t.accountHigh),
    // Account deletion's cascade from the higher side.
    index("dialogs_account_high_idx").on(t.accountHigh),
    check(
      "dialogs_kind_shape",
      sql`(${t.kind} = 'PERSONAL' and ${t.accountLow} is not null and ${t.accountHigh} is not null and ${t.accountLow} < ${t.accountHigh})
        or (${t.kind} = 'GROUP' and ${t.accountLow} is null and ${t.accountHigh} is null and ${t.title} is not null)`,
    ),
  ],
);

/**
 * Each participant's side of a dialog: their unread count, how far they have read, and the time of the
 * dialog's newest message (copied here so the dialog list is one index range scan per account). Both
 * rows are written in the same transaction as the message that changes them.
 */
export const dialogMembers = pgTable(
  "dialog_members",
  {
    dialogId: bigint({ mode: "number" })
      .notNull()
      .references(() => dialogs.id, { onDelete: "cascade" }),
    accountId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** The other person of a personal dialog; null in a group. */
    partnerId: bigint({ mode: "number" }).references(() => accounts.id, { onDelete: "cascade" }),
    /** A group member's role (OWNER, ADMIN, MEMBER); null in a personal dialog and once they left. */
    role: text({ enum: ["OWNER", "ADMIN", "MEMBER"] }),
    /** A group member sees messages with an id above this (0: all), those sent since they joined. */
    fromMessageId: bigint({ mode: "number" }).notNull().default(0),
    /** Set when a group member left or was removed: they see messages up to this id and nothing after. */
    leftMessageId: bigint({ mode: "number" }),
    /** The group's title and photo when this member left: they see nothing of it after (a rename since is not theirs to see). */
    leftTitle: text(),
    leftPhoto: text(),
    /** A group member's window in counts: the dialog's message_count when they joined, and when they left (null while present). The history's total is the window less hidden_count. */
    fromCount: integer().notNull().default(0),
    untilCount: integer(),
    /** A group member's read point as the dialog's message_count then (unread = message_count − readCount − unreadAdjust). */
    readCount: integer().notNull().default(0),
    /** Messages after readCount that no longer count for this member (deleted for everyone, hidden by them). */
    unreadAdjust: integer().notNull().default(0),
    /** A muted group: no push and no notification until then (far future: until switched back on); mentions still notify. */
    mutedUntil: timestamp({ withTimezone: true }),
    unreadCount: integer().notNull().default(0),
    /** Every message of the partner with an id up to this one is READ for this member (0: none). */
    lastReadMessageId: bigint({ mode: "number" }).notNull().default(0),
    /** Time of the newest message, or of the dialog's creation while it has none. */
    activityAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Messages this member deleted for themselves (message_hides): the history's total is message_count minus this (docs/adr/0129). */
    hiddenCount: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.dialogId, t.accountId] }),
    // GET dialogs: the viewer's dialogs with unread ones first, then by newest message, dialog id
    // breaking ties so page N is stable. The list query's ORDER BY is exactly this key; GET
    // dialogs/unread sums unread_count over the same account range.
    // (Group rows are in it too, with their own stale keys: the list's personal half filters them out as it
    // reads in order; the index also serves the count, the export and the cascade from accounts.)
    index("dialog_members_list_idx").on(
      t.accountId,
      sql`(${t.unreadCount} > 0) desc`,
      sql`${t.activityAt} desc`,
      sql`${t.dialogId} desc`,
    ),
    // A member's group conversations (the list's and the unread count's other half, resume's channels).
    index("dialog_members_groups_idx").on(t.accountId, t.dialogId).where(sql`${t.partnerId} is null`),
    // Account deletion's cascade through partner_id.
    index("dialog_members_partner_idx").on(t.partnerId),
    check("dialog_members_unread_nonnegative", sql`${t.unreadCount} >= 0`),
  ],
);

/**
 * How many dialogs each account's list holds (its dialog_members rows): the dialog list's total, one
 * primary-key probe instead of counting the member's rows on every page (docs/adr/0190). Kept by
 * statement-level triggers on dialog_members in the writer's transaction, whatever path writes; an
 * account with no row has none.
 */
export const dialogCounts = pgTable(
  "dialog_counts",
  {
    accountId: bigint({ mode: "number" })
      .primaryKey()
      .references(() => accounts.id, { onDelete: "cascade" }),
    dialogs: integer().notNull().default(0),
  },
  (t) => [check("dialog_counts_not_negative", sql`${t.dialogs} >= 0`)],
);

/**
 * A message of a dialog. read status is not stored per row: a message is READ when its id is at most
 * the recipient's dialog_members.last_read_message_id, so marking a dialog read is one row update however
 * many messages it covers (docs/adr/0030).
 */
export const messages = pgTable(
  "messages",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    dialogId: bigint({ mode: "number" })
      .notNull()
      .references(() => dialogs.id, { onDelete: "cascade" }),
    authorId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** The other person of a personal dialog; null in a group (every member is a recipient). */
    recipientId: bigint({ mode: "number" }).references(() => accounts.id, { onDelete: "cascade" }),
    /**
     * A group's event line (created, added, removed, left, renamed, new photo, role): {type, actorId,
     * targetIds?, title?}; its text is "". Null for a message a person wrote.
     */
    event: jsonb().$type<{ type: string; actorId: number; targetIds?: number[]; title?: string }>(),
    /** Members a group message mentions (@), at most a few: they are notified even in a muted group. */
    mentions: bigint({ mode: "number" }).array(),
    messageText: text().notNull(),
    /** The author's client-made id: a retry with the same one stores nothing new. */
    clientId: uuid(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Set by the author's last edit (PUT dialogs/{id}/messages/{messageId}, docs/adr/0129): shown as "edited". */
    editedAt: timestamp({ withTimezone: true }),
    /** Deleted for both by its author: the row stays as a "message deleted" mark, its text is never served again. */
    deletedAt: timestamp({ withTimezone: true }),
    /**
     * The message of the same dialog this one answers (no foreign key: both live and go with the dialog;
     * the preview is read by primary key, so no index is needed).
     */
    replyToId: bigint({ mode: "number" }),
    /**
     * Photos of the message (issue 27, docs/adr/0134): URL paths of images this server stored, 1..10 in
     * the author's order, or null for none. A message with photos may have an empty text.
     */
    images: text().array(),
  },
  (t) => [
    // History: one dialog's messages by (time, id) in either direction, and the keyset cursor.
    index("messages_dialog_time_idx").on(t.dialogId, t.createdAt.desc(), t.id.desc()),
    // Idempotent sends: (author, clientId) is unique; rows without a clientId never collide (NULLs differ).
    uniqueIndex("messages_author_client_key").on(t.authorId, t.clientId),
    // Account deletion's cascade from the recipient side.
    index("messages_recipient_idx").on(t.recipientId),
    // A message deleted for both keeps its row (the "message deleted" mark) and loses its text; a message
    // with photos may have none.
    check(
      "messages_text_length",
      sql`char_length(${t.messageText}) between 1 and 4000 or (${t.messageText} = '' and (${t.deletedAt} is not null or ${t.images} is not null or ${t.event} is not null))`,
    ),
    check("messages_images_count", sql`${t.images} is null or cardinality(${t.images}) between 1 and 10`),
  ],
);

/**
 * A message one member deleted for themselves (docs/adr/0129): it is left out of that member's history
 * and dialog preview only. Keyed by message first (the history's anti-join probes it per row, and the
 * cascade from messages uses it); by account for the cascade from accounts.
 */
export const messageHides = pgTable(
  "message_hides",
  {
    messageId: bigint({ mode: "number" })
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    accountId: bigint({ mode: "number" })
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.accountId] }), index("message_hides_account_idx").on(t.accountId)],
);
