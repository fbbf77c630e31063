import { z } from "zod";
import type { Paged } from "./friends";
import { storedKeyOf } from "./storage";
import { lineString, textString } from "./text";

// The dialog API's contract (spec sections 3, 7, 8; issue 11): the zod schemas of every body, path and
// query (used by the routes, the services, which re-parse, the realtime sidecar and the chat UI) and the
// TypeScript shapes of what the API and the socket send. No server imports.
// Refusal messages are keys of messages/*.json (namespace chatErrors); the API translates them.

export const CHAT_ERRORS = {
  badId: "chatErrors.badId",
  remotePerson: "chatErrors.remotePerson",
  badQuery: "chatErrors.badQuery",
  unknownParam: "chatErrors.unknownParam",
  textEmpty: "chatErrors.textEmpty",
  textTooLong: "chatErrors.textTooLong",
  badClientId: "chatErrors.badClientId",
  dialogTarget: "chatErrors.dialogTarget",
  self: "chatErrors.self",
  accountNotFound: "chatErrors.accountNotFound",
  dialogNotFound: "chatErrors.dialogNotFound",
  blocked: "chatErrors.blocked",
  youBlocked: "chatErrors.youBlocked",
  partnerDeleted: "chatErrors.partnerDeleted",
  viewerDeleted: "chatErrors.viewerDeleted",
  clientIdReused: "chatErrors.clientIdReused",
  badFrame: "chatErrors.badFrame",
  rateLimited: "chatErrors.rateLimited",
  sendFailed: "chatErrors.sendFailed",
  messageNotFound: "chatErrors.messageNotFound",
  notAuthor: "chatErrors.notAuthor",
  changeWindow: "chatErrors.changeWindow",
  messageDeleted: "chatErrors.messageDeleted",
  replyNotFound: "chatErrors.replyNotFound",
  editRateLimited: "chatErrors.editRateLimited",
  tooManyImages: "chatErrors.tooManyImages",
  imagesRepeated: "chatErrors.imagesRepeated",
  badImages: "chatErrors.badImages",
  imageNotStored: "chatErrors.imageNotStored",
  imageNotOwn: "chatErrors.imageNotOwn",
  // Group conversations (issue 41).
  titleEmpty: "chatErrors.titleEmpty",
  titleTooLong: "chatErrors.titleTooLong",
  tooManyMembers: "chatErrors.tooManyMembers",
  membersRepeated: "chatErrors.membersRepeated",
  membersEmpty: "chatErrors.membersEmpty",
  notAPerson: "chatErrors.notAPerson",
  alreadyMember: "chatErrors.alreadyMember",
  notAllowed: "chatErrors.notAllowed",
  notGroup: "chatErrors.notGroup",
  notMember: "chatErrors.notMember",
  leftGroup: "chatErrors.leftGroup",
  groupTarget: "chatErrors.groupTarget",
  cannotAdd: "chatErrors.cannotAdd",
  badRole: "chatErrors.badRole",
  groupRateLimited: "chatErrors.groupRateLimited",
  nothingToChange: "chatErrors.nothingToChange",
  badPhoto: "chatErrors.badPhoto",
  badMute: "chatErrors.badMute",
  badMentions: "chatErrors.badMentions",
} as const;
export type ChatErrorKey = (typeof CHAT_ERRORS)[keyof typeof CHAT_ERRORS];

// The chat's numbers live in the zod-free half (./dialogs-shared) so the chat's pages don't download zod.
import { MESSAGE_IMAGES_MAX, MESSAGE_TEXT_MAX, MESSAGE_CHANGE_WINDOW_MS, REPLY_PREVIEW_MAX, DIALOG_PAGE_DEFAULT, DIALOG_PAGE_MAX, MESSAGE_PAGE_DEFAULT, MESSAGE_PAGE_MAX, TYPING_TTL_MS, TYPING_REPEAT_MS } from "./dialogs-shared";
export { MESSAGE_IMAGES_MAX, MESSAGE_TEXT_MAX, MESSAGE_CHANGE_WINDOW_MS, REPLY_PREVIEW_MAX, DIALOG_PAGE_DEFAULT, DIALOG_PAGE_MAX, MESSAGE_PAGE_DEFAULT, MESSAGE_PAGE_MAX, TYPING_TTL_MS, TYPING_REPEAT_MS };
import { GROUP_ADD_MAX, GROUP_MEMBERS_MAX, GROUP_ROLES, GROUP_TITLE_MAX, MEMBER_PAGE_DEFAULT, MEMBER_PAGE_MAX, MENTIONS_MAX, MUTE_CHOICES, type GroupEventType, type GroupRole, type MuteChoice } from "./dialogs-shared";
export { GROUP_ADD_MAX, GROUP_MEMBERS_MAX, GROUP_ROLES, GROUP_TITLE_MAX, MEMBER_PAGE_DEFAULT, MEMBER_PAGE_MAX, MENTIONS_MAX, MUTE_CHOICES, type GroupEventType, type GroupRole, type MuteChoice };

/** A positive integer id, from a path or query segment ("42") or a JSON number; "0x2a", "1e3", " 4" are refused. */
export const positiveIdSchema = z.union(
  [
    z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    z
      .string()
      .regex(/^[1-9]\d{0,15}$/)
      .transform(Number)
      .refine(Number.isSafeInteger),
  ],
  { error: CHAT_ERRORS.badId },
);

const unknownParam = {
  error: (iss: { code?: string }) => (iss.code === "unrecognized_keys" ? CHAT_ERRORS.unknownParam : undefined),
};
const pageNumber = z.coerce
  .number({ error: CHAT_ERRORS.badQuery })
  .int(CHAT_ERRORS.badQuery)
  .min(0, CHAT_ERRORS.badQuery)
  .max(1_000_000, CHAT_ERRORS.badQuery);
const pageSize = (max: number, fallback: number) =>
  z.coerce
    .number({ error: CHAT_ERRORS.badQuery })
    .int(CHAT_ERRORS.badQuery)
    .min(1, CHAT_ERRORS.badQuery)
    .max(max, CHAT_ERRORS.badQuery)
    .default(fallback);

/** The trimmed text of a message: not empty, at most MESSAGE_TEXT_MAX characters (code points). */
export const messageTextSchema = textString({ error: CHAT_ERRORS.textEmpty })
  .trim()
  .min(1, CHAT_ERRORS.textEmpty)
  .refine((s) => [...s].length <= MESSAGE_TEXT_MAX, CHAT_ERRORS.textTooLong);

/** The text of a message that may carry photos: trimmed, at most MESSAGE_TEXT_MAX characters, "" allowed (checked with the photos). */
const messageTextOrEmpty = textString({ error: CHAT_ERRORS.textEmpty })
  .trim()
  .refine((s) => [...s].length <= MESSAGE_TEXT_MAX, CHAT_ERRORS.textTooLong);

/**
 * The photos of a message (docs/adr/0134): URL paths this server's upload handed out
 * (/api/v1/storage/files/<32 hex>.webp), each once, at most MESSAGE_IMAGES_MAX; [] is none.
 * The service also checks that each file exists.
 */
export const messageImagesSchema = z
  .array(
    z
      .string({ error: CHAT_ERRORS.imageNotStored })
      .max(200, CHAT_ERRORS.imageNotStored)
      .refine((v) => storedKeyOf(v) !== null, CHAT_ERRORS.imageNotStored),
    { error: CHAT_ERRORS.badImages },
  )
  .max(MESSAGE_IMAGES_MAX, CHAT_ERRORS.tooManyImages)
  .refine((a) => new Set(a).size === a.length, CHAT_ERRORS.imagesRepeated);

/** Members a group message mentions (@): ids, at most MENTIONS_MAX (issue 41). Ignored in a personal dialog. */
const mentionsSchema = z
  .array(z.number({ error: CHAT_ERRORS.badMentions }).int(CHAT_ERRORS.badMentions).positive(CHAT_ERRORS.badMentions).max(Number.MAX_SAFE_INTEGER, CHAT_ERRORS.badMentions), { error: CHAT_ERRORS.badMentions })
  .max(MENTIONS_MAX, CHAT_ERRORS.badMentions);

/** A message says something: a text, photos, or both. */
const hasContent = (d: { messageText: string; images?: string[] }) => d.messageText.length > 0 || (d.images?.length ?? 0) > 0;
const contentRule = { message: CHAT_ERRORS.textEmpty, path: ["messageText"] };

/** A client-made UUID that makes a send idempotent per author (a retry with the same id stores one message). */
export const clientIdSchema = z.uuid({ error: CHAT_ERRORS.badClientId });

// ---- HTTP inputs ----

/** `{id}` of GET dialogs/recipientId/{id}: the other person's account id. */
export const dialogByRecipientParams = z.object({ id: positiveIdSchema });
export type DialogByRecipientParams = z.input<typeof dialogByRecipientParams>;

/** A group's title: trimmed, 1..GROUP_TITLE_MAX characters (code points). */
export const groupTitleSchema = lineString({ error: CHAT_ERRORS.titleEmpty })
  .trim()
  .min(1, CHAT_ERRORS.titleEmpty)
  .refine((s) => [...s].length <= GROUP_TITLE_MAX, CHAT_ERRORS.titleTooLong);

/** Account ids to add to a group: each a person's id, each once, 1..max of them. */
const accountIdList = (max: number) =>
  z
    .array(z.number({ error: CHAT_ERRORS.notAPerson }).int(CHAT_ERRORS.notAPerson).positive(CHAT_ERRORS.notAPerson).max(Number.MAX_SAFE_INTEGER, CHAT_ERRORS.notAPerson), {
      error: CHAT_ERRORS.notAPerson,
    })
    .min(1, CHAT_ERRORS.membersEmpty)
    .max(max, CHAT_ERRORS.tooManyMembers)
    .refine((a) => new Set(a).size === a.length, CHAT_ERRORS.membersRepeated);

/**
 * Body of POST dialogs: `{recipientId}` makes (or finds) the personal dialog with that person;
 * `{title, memberIds}` creates a group conversation of the caller and those people (issue 41), at most
 * GROUP_MEMBERS_MAX members with the creator.
 */
export const createDialogInput = z
  .object({
    recipientId: positiveIdSchema.optional(),
    title: groupTitleSchema.optional(),
    memberIds: accountIdList(GROUP_MEMBERS_MAX - 1).optional(),
  })
  .refine((d) => (d.recipientId !== undefined) !== (d.title !== undefined || d.memberIds !== undefined), {
    message: CHAT_ERRORS.groupTarget,
    path: ["recipientId"],
  })
  .refine((d) => d.recipientId !== undefined || (d.title !== undefined && d.memberIds !== undefined), {
    message: CHAT_ERRORS.titleEmpty,
    path: ["title"],
  });
export type CreateDialogInput = z.input<typeof createDialogInput>;

/** A group's photo: a URL path of an image this server stored, or null to remove it. */
const groupPhotoSchema = z
  .string({ error: CHAT_ERRORS.badPhoto })
  .max(200, CHAT_ERRORS.badPhoto)
  .refine((v) => storedKeyOf(v) !== null, CHAT_ERRORS.badPhoto)
  .nullable();

/** Body of PATCH dialogs/{id}: a group's new title and/or photo (null removes the photo). */
export const updateGroupInput = z
  .strictObject({ title: groupTitleSchema.optional(), photo: groupPhotoSchema.optional() }, unknownParam)
  .refine((d) => d.title !== undefined || d.photo !== undefined, { message: CHAT_ERRORS.nothingToChange, path: ["title"] });
export type UpdateGroupInput = z.input<typeof updateGroupInput>;

/** Query of GET dialogs/{id}/members. */
export const memberListQuery = z.strictObject(
  { page: pageNumber.default(0), size: pageSize(MEMBER_PAGE_MAX, MEMBER_PAGE_DEFAULT) },
  unknownParam,
);
export type MemberListQuery = z.input<typeof memberListQuery>;

/** Body of POST dialogs/{id}/members. */
export const addMembersInput = z.strictObject({ accountIds: accountIdList(GROUP_ADD_MAX) }, unknownParam);
export type AddMembersInput = z.input<typeof addMembersInput>;

/** `{id}` and `{accountId}` of DELETE and PUT dialogs/{id}/members/{accountId}. */
export const memberParams = z.object({ id: positiveIdSchema, accountId: positiveIdSchema });

/** Body of PUT dialogs/{id}/members/{accountId}: ADMIN or MEMBER (the owner's), or OWNER (the owner hands ownership on). */
export const memberRoleInput = z.strictObject({ role: z.enum(GROUP_ROLES, { error: CHAT_ERRORS.badRole }) }, unknownParam);

/** Body of PUT dialogs/{id}/mute. */
export const muteInput = z.strictObject({ duration: z.enum(MUTE_CHOICES, { error: CHAT_ERRORS.badMute }) }, unknownParam);
export type MuteInput = z.input<typeof muteInput>;

/** Query of GET dialogs/{id}/messages/{messageId}/readers. */
export const readerListQuery = memberListQuery;

/** `{id}` of PUT dialogs/{id} (mark read) and POST dialogs/{id}/messages. */
export const dialogIdParams = z.object({ id: positiveIdSchema });
export type DialogIdParams = z.input<typeof dialogIdParams>;

/**
 * Sort orders of GET dialogs. Every order puts dialogs with unread messages first, then the newest
 * message (a dialog without messages by its creation time); "time,desc" only drops the unread-first rule.
 */
export const DIALOG_SORTS = ["unreadCount,desc", "time,desc"] as const;
export type DialogSort = (typeof DIALOG_SORTS)[number];

/** Query of GET dialogs (spec: page=0, sort=unreadCount,desc). */
export const dialogListQuery = z.strictObject(
  {
    page: pageNumber.default(0),
    size: pageSize(DIALOG_PAGE_MAX, DIALOG_PAGE_DEFAULT),
    sort: z.enum(DIALOG_SORTS, { error: CHAT_ERRORS.badQuery }).default("unreadCount,desc"),
  },
  unknownParam,
);
export type DialogListQuery = z.input<typeof dialogListQuery>;

export const MESSAGE_SORTS = ["time,desc", "time,asc"] as const;
export type MessageSort = (typeof MESSAGE_SORTS)[number];

/**
 * Query of GET dialogs/messages: exactly one of `dialogId` or `recipientId` (the original client sends
 * the latter), page/size/sort as in the spec. `beforeId` is an optional keyset cursor for infinite
 * scroll upwards: only messages with a smaller id, so messages arriving meanwhile never shift a page.
 * Order is (time, id), stable in both directions.
 */
export const messageListQuery = z
  .strictObject(
    {
      dialogId: positiveIdSchema.optional(),
      recipientId: positiveIdSchema.optional(),
      page: pageNumber.default(0),
      size: pageSize(MESSAGE_PAGE_MAX, MESSAGE_PAGE_DEFAULT),
      sort: z.enum(MESSAGE_SORTS, { error: CHAT_ERRORS.badQuery }).default("time,desc"),
      beforeId: positiveIdSchema.optional(),
    },
    unknownParam,
  )
  .refine((q) => (q.dialogId === undefined) !== (q.recipientId === undefined), {
    message: CHAT_ERRORS.dialogTarget,
    path: ["dialogId"],
  });
export type MessageListQuery = z.input<typeof messageListQuery>;

/**
 * Body of POST dialogs/{id}/messages; `replyTo` is a message of the same dialog the sender sees;
 * `images` are photos this server stored (docs/adr/0134). The text may be "" (or left out) only with photos.
 */
export const sendMessageInput = z
  .object({
    messageText: messageTextOrEmpty.default(""),
    clientId: clientIdSchema.optional(),
    replyTo: positiveIdSchema.optional(),
    images: messageImagesSchema.optional(),
    mentions: mentionsSchema.optional(),
  })
  .refine(hasContent, contentRule);
export type SendMessageInput = z.input<typeof sendMessageInput>;

/**
 * What the send verb takes, from the POST (dialogId from the path) or a socket MESSAGE frame: a dialog
 * or a recipient (the dialog with them is created on first use); when both are given they must agree.
 */
export const sendMessageCommand = z
  .object({
    dialogId: positiveIdSchema.optional(),
    recipientId: positiveIdSchema.optional(),
    messageText: messageTextOrEmpty.default(""),
    clientId: clientIdSchema.optional(),
    replyTo: positiveIdSchema.optional(),
    images: messageImagesSchema.optional(),
    mentions: mentionsSchema.optional(),
  })
  .refine((d) => d.dialogId !== undefined || d.recipientId !== undefined, {
    message: CHAT_ERRORS.dialogTarget,
    path: ["dialogId"],
  })
  .refine(hasContent, contentRule);
export type SendMessageCommand = z.input<typeof sendMessageCommand>;

/** `{id}` and `{messageId}` of PUT and DELETE dialogs/{id}/messages/{messageId}. */
export const messageIdParams = z.object({ id: positiveIdSchema, messageId: positiveIdSchema });
export type MessageIdParams = z.input<typeof messageIdParams>;

/** Body of PUT dialogs/{id}/messages/{messageId}: the new text, under the same rules as a new message. */
export const editMessageInput = z.strictObject({ messageText: messageTextSchema }, unknownParam);
export type EditMessageInput = z.input<typeof editMessageInput>;

/** Query of DELETE dialogs/{id}/messages/{messageId}: for both (the author, within the window) or only for the viewer (default). */
export const deleteMessageQuery = z.strictObject(
  {
    forEveryone: z
      .enum(["true", "false"], { error: CHAT_ERRORS.badQuery })
      .default("false")
      .transform((v) => v === "true"),
  },
  unknownParam,
);
export type DeleteMessageQuery = z.input<typeof deleteMessageQuery>;

/** GET dialogs/unread takes no parameters. */
export const noDialogQuery = z.strictObject({}, unknownParam);

// ---- Response shapes ----

export const READ_STATUSES = ["SENT", "READ"] as const;
export type ReadStatus = (typeof READ_STATUSES)[number];

/** A message as POST dialogs/{id}/messages, GET dialogs/messages and the MESSAGE frame carry it. */
export type MessageDto = {
  id: number;
  dialogId: number;
  /** ISO 8601 (UTC) time the server stored it. */
  time: string;
  /** The author's account id. */
  conversationPartner1: number;
  /** The recipient's account id; null in a group conversation, where every member is a recipient (issue 41). */
  conversationPartner2: number | null;
  /** Same as conversationPartner1, for readable client code. */
  authorId: number;
  /** Same as conversationPartner2. */
  recipientId: number | null;
  messageText: string;
  /** READ once the recipient opened the dialog after it arrived (PUT dialogs/{id}). */
  readStatus: ReadStatus;
  /** The author's clientId when one was sent (lets the author's tabs reconcile an optimistic bubble); null otherwise. */
  clientId: string | null;
  /** The spec's entity type (section 3). */
  type: "MESSAGE";
  /** ISO 8601 of the author's last edit ("edited"), null when never edited. */
  editedAt: string | null;
  /** Deleted for both by its author: messageText is "" and the bubble says "Message deleted". */
  deleted: boolean;
  /** The message this one answers, as a short preview; null when it answers none. */
  replyTo: MessageReplyPreview | null;
  /** Photos (URL paths of stored images, in the author's order); [] when none or deleted for both (docs/adr/0134). */
  images: string[];
  /** In a group: the author's card (their name and photo stand above their messages); null in a personal dialog. */
  author?: MemberCard | null;
  /** In a group: an event line (someone added, removed, left; renamed; new photo; a new role), with its people's cards; its text is "". */
  event?: GroupEvent | null;
  /** In a group: the members this message mentions (@). */
  mentions?: number[];
};

/** A person as a group shows them: above their messages, in event lines, in the members list. */
export type MemberCard = { id: number; firstName: string; lastName: string; photo: string | null };

/** An event line of a group's history. `people` holds the cards of the actor and the targets. */
export type GroupEvent = {
  type: GroupEventType;
  actorId: number;
  targetIds: number[];
  /** RENAMED: the new title; ROLE: the new role. */
  title: string | null;
  people: MemberCard[];
};

/** A member of a group as GET dialogs/{id}/members lists them. */
export type GroupMemberDto = MemberCard & {
  role: GroupRole;
  isOnline: boolean;
  lastOnlineTime: string | null;
  isDeleted: boolean;
  /** Whether the viewer and this member are friends (the list shows friends first after the owner and admins). */
  isFriend: boolean;
};

/** A reader of a group message (GET dialogs/{id}/messages/{messageId}/readers). */
export type MessageReaderDto = MemberCard;

/** The quoted message of a reply (its text cut to REPLY_PREVIEW_MAX; "" when deleted or not visible to the viewer). */
export type MessageReplyPreview = {
  id: number;
  authorId: number;
  messageText: string;
  deleted: boolean;
  /** Photos of the quoted message (0 when deleted): the quote says «Фотография» when its text is empty. */
  imageCount: number;
};

/** MESSAGE_HIDDEN: the viewer deleted a message for themselves (sent to the viewer's tabs only). */
export type MessageHiddenData = { dialogId: number; messageId: number; accountId: number };

/** The other person of a dialog (and the viewer) as the dialog list shows them. */
export type DialogPartner = {
  id: number;
  firstName: string;
  lastName: string;
  photo: string | null;
  isOnline: boolean;
  /** ISO 8601 of the last sign of life ("был(а) в сети …"), null when never seen. */
  lastOnlineTime: string | null;
  /** A deleted account keeps its dialogs readable but cannot be written to. */
  isDeleted: boolean;
};

export type DialogLastMessage = {
  id: number;
  messageText: string;
  time: string;
  authorId: number;
  readStatus: ReadStatus;
  /** How many photos it carries: the list says «Фотография» when the text is empty (docs/adr/0134). */
  imageCount: number;
  /** In a group: the sender's first name (the list says «Анна: …»); an event line's preview names its actor. */
  authorFirstName?: string | null;
  /** In a group: the event this line is, when it is one. */
  event?: GroupEvent | null;
};

/**
 * A dialog as seen by the viewer. conversationPartner1 is always the viewer's id, conversationPartner2
 * the other person's, whoever created the dialog: ids, as in messages and MESSAGE frames (the spec's
 * fields, one meaning everywhere; docs/adr/0142). The two people's cards ride beside them in `viewer`
 * and `partner`. unreadCount (and unread_count, the spec's other spelling, the same number) counts the
 * viewer's unread messages in it.
 */
export type DialogDto = {
  id: number;
  /** PERSONAL: one-to-one; GROUP: a conversation of up to 500 people (issue 41). */
  type: "PERSONAL" | "GROUP";
  /** The viewer's account id. */
  conversationPartner1: number;
  /** The other person's account id; null in a group. */
  conversationPartner2: number | null;
  /** The viewer's card. */
  viewer: DialogPartner;
  /** The other person's card (presence hidden across a block); null in a group. */
  partner: DialogPartner | null;
  /** A group's title; null in a personal dialog. */
  title: string | null;
  /** A group's photo (URL path); null when it has none (the list then shows `collage`) and in a personal dialog. */
  photo: string | null;
  /** Present members (2 in a personal dialog). */
  membersCount: number;
  /** The viewer's role in a group; null in a personal dialog and once the viewer left or was removed. */
  role: GroupRole | null;
  /** A group the viewer left or was removed from: its history up to then stays readable, nothing can be sent. */
  left: boolean;
  /** Until when the viewer muted this group (ISO 8601), null when not muted. */
  mutedUntil: string | null;
  /** A group without a photo: up to four members' cards for a collage (the viewer last). */
  collage: MemberCard[];
  unreadCount: number;
  unread_count: number;
  lastMessage: DialogLastMessage | null;
  /**
   * Whether the viewer can write here now: false when either blocked the other, either account is
   * deleted, or the partner takes messages from friends only (sending would be refused with the matching message).
   */
  canWrite: boolean;
  /**
   * The partner takes messages from friends only and the viewer is not one (docs/adr/0125): canWrite is
   * false and the composer says why before anything is typed.
   */
  messagesFriendsOnly: boolean;
  /** ISO 8601 creation time (orders dialogs without messages). */
  createdAt: string;
};

export type DialogPage = Paged<DialogDto>;
export type MessagePage = Paged<MessageDto>;
/** GET dialogs/unread. */
export type UnreadCount = { count: number };

// ---- Realtime frames (ADR 0005 stays the protocol; these ride along) ----

/** Outbox event types of the chat. Event frames are `{id, type, data}`; `id` is the outbox id. */
export { CHAT_EVENT_TYPES } from "./dialogs-shared";

/** Both partners' sockets (every tab), exactly once, in order, also after a resume. */
export type MessageEventFrame = { id: number; type: "MESSAGE"; data: MessageDto };

/**
 * Sent to both partners when one marks the dialog read: the author's ticks turn to READ for every
 * message of theirs up to lastReadMessageId; the reader's other tabs reset that dialog's unread to 0.
 */
export type DialogReadData = {
  dialogId: number;
  /** Who read. */
  readerId: number;
  /** The reader's partner, whose messages became READ; null in a group: every message up to lastReadMessageId not written by readerId is READ. */
  authorId: number | null;
  /** Every message of authorId in the dialog with id ≤ this is READ. */
  lastReadMessageId: number;
  readAt: string;
};
export type DialogReadEventFrame = { id: number; type: "DIALOG_READ"; data: DialogReadData };

/** Short-lived, not stored, no id, may be lost: the partner is typing in the dialog. */
export type TypingFrame = { type: "TYPING"; data: { dialogId: number; accountId: number } };

/** Short-lived, not stored: a partner of one of the viewer's dialogs came online or went offline. */
export type PresenceFrame = {
  type: "PRESENCE";
  data: { accountId: number; isOnline: boolean; lastOnlineTime: string | null };
};

/** The sidecar's answer to a client MESSAGE frame it refused (not stored, only to that socket). */
export type MessageRejectedFrame = {
  type: "MESSAGE_REJECTED";
  data: {
    clientId: string | null;
    dialogId: number | null;
    recipientId: number | null;
    /** HTTP-like status the same refusal gets from POST (400, 403, 404, 409, 422, 429). */
    status: number;
    /** Machine code as in the HTTP error envelope. */
    code: string;
    /** Message key (chatErrors.*), translatable with next-intl. */
    messageKey: string;
  };
};

/** What the sidecar may send for the chat (besides READY and the other event types). */
export type ChatServerFrame =
  | MessageEventFrame
  | DialogReadEventFrame
  | TypingFrame
  | PresenceFrame
  | MessageRejectedFrame;

/** A client frame sending a message, as the original client does; the sidecar calls the POST's verb. */
export const clientMessageFrame = z.object({ type: z.literal("MESSAGE"), data: sendMessageCommand });
export type ClientMessageFrame = z.input<typeof clientMessageFrame>;

/** A client frame "I am typing in this dialog"; the sidecar relays it to the partner only. */
export const clientTypingFrame = z.object({ type: z.literal("TYPING"), dialogId: positiveIdSchema });
export type ClientTypingFrame = z.input<typeof clientTypingFrame>;
