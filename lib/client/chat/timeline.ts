/**
 * The chat's client-side bookkeeping, free of React and browser globals so it is unit-tested: merging
 * history pages and live frames without duplicates, read receipts, optimistic (local) messages, day
 * grouping, and the dialog list's live arithmetic of spec section 4.
 */
import { MESSAGE_CHANGE_WINDOW_MS, REPLY_PREVIEW_MAX } from "@/lib/validation/dialogs-shared";
import type { DialogDto, DialogReadData, MessageDto, MessageReplyPreview } from "@/lib/validation/dialogs";

/** Ascending by (time, id): the order the server pages in, so a merge never reorders what is shown. */
export function compareMessages(a: Pick<MessageDto, "time" | "id">, b: Pick<MessageDto, "time" | "id">): number {
  const ta = Date.parse(a.time);
  const tb = Date.parse(b.time);
  return ta !== tb ? ta - tb : a.id - b.id;
}

/**
 * Adds `incoming` to `existing` (both any order), one entry per id, sorted ascending. A message seen
 * twice keeps READ if either copy says so: a late page must not turn a read tick back.
 */
export function mergeMessages(existing: readonly MessageDto[], incoming: readonly MessageDto[]): MessageDto[] {
  if (incoming.length === 0) return existing as MessageDto[];
  const byId = new Map<number, MessageDto>();
  for (const m of existing) byId.set(m.id, m);
  for (const m of incoming) {
    const old = byId.get(m.id);
    byId.set(m.id, old && old.readStatus === "READ" && m.readStatus !== "READ" ? { ...m, readStatus: "READ" } : m);
  }
  return [...byId.values()].sort(compareMessages);
}

/**
 * Whether a DIALOG_READ frame turns a message of its dialog READ: in a personal dialog the author's
 * messages up to lastReadMessageId; in a group (authorId null, issue 41) every message up to it that the
 * reader did not write — a group message counts as read once any other member read it.
 */
export function readCovers(read: DialogReadData, message: { id: number; authorId: number }): boolean {
  if (message.id > read.lastReadMessageId) return false;
  return read.authorId == null ? message.authorId !== read.readerId : message.authorId === read.authorId;
}

/** Applies a DIALOG_READ frame: the messages it covers (readCovers) become READ. */
export function applyRead(messages: readonly MessageDto[], read: DialogReadData): MessageDto[] {
  let changed = false;
  const next = messages.map((m) => {
    if (m.dialogId !== read.dialogId || m.readStatus === "READ" || !readCovers(read, m)) return m;
    changed = true;
    return { ...m, readStatus: "READ" as const };
  });
  return changed ? next : (messages as MessageDto[]);
}

/**
 * A MESSAGE_UPDATED frame (an edit, or a deletion for both): the message takes its new form where it is
 * shown, and so do the quotes of it in replies. A message not loaded yet stays unloaded.
 */
export function applyUpdate(messages: readonly MessageDto[], updated: MessageDto): MessageDto[] {
  let changed = false;
  const next = messages.map((m) => {
    if (m.id === updated.id) {
      changed = true;
      return m.readStatus === "READ" && updated.readStatus !== "READ" ? { ...updated, readStatus: "READ" as const } : updated;
    }
    if (m.replyTo?.id === updated.id) {
      changed = true;
      return { ...m, replyTo: { ...m.replyTo, messageText: updated.deleted ? "" : [...updated.messageText].slice(0, REPLY_PREVIEW_MAX).join(""), deleted: updated.deleted, imageCount: updated.deleted ? 0 : (updated.images?.length ?? 0) } };
    }
    return m;
  });
  return changed ? next : (messages as MessageDto[]);
}

/** A MESSAGE_HIDDEN frame: the viewer deleted the message for themselves. */
export function applyHidden(messages: readonly MessageDto[], messageId: number): MessageDto[] {
  const next = messages.filter((m) => m.id !== messageId);
  return next.length === messages.length ? (messages as MessageDto[]) : next;
}

/** Whether the author may still edit a message or delete it for both (MESSAGE_CHANGE_WINDOW_MS after sending). */
export function isChangeable(message: Pick<MessageDto, "time" | "deleted">, now = Date.now()): boolean {
  return !message.deleted && now - Date.parse(message.time) < MESSAGE_CHANGE_WINDOW_MS;
}

/** A message typed here and not yet confirmed by the server. */
export type LocalMessage = {
  clientId: string;
  text: string;
  /** When it was typed (ISO), for the day separator and the order among local messages. */
  time: string;
  state: "pending" | "failed";
  /** The message it answers, shown as the quote while it travels. */
  replyTo?: MessageReplyPreview | null;
  /** Its photos (stored paths, uploaded before the send: docs/adr/0134). */
  images?: string[];
  /** In a group: the members it mentions (@), sent again with a retry (issue 41). */
  mentions?: number[];
  /** The refusal to show when it failed (already translated), or null for "not sent" (network). */
  error: string | null;
};

/** Drops local messages the server has confirmed (same clientId, on this author's message). */
export function withoutConfirmed(local: readonly LocalMessage[], confirmed: readonly MessageDto[]): LocalMessage[] {
  if (local.length === 0) return local as LocalMessage[];
  const ids = new Set(confirmed.map((m) => m.clientId).filter((id): id is string => !!id));
  const next = local.filter((l) => !ids.has(l.clientId));
  return next.length === local.length ? (local as LocalMessage[]) : next;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day of a time in `timeZone`, as "YYYY-MM-DD" (separators follow the reader's day). */
export function dayKey(time: string | Date, timeZone: string): string {
  let f = dayFormats.get(timeZone);
  if (!f) dayFormats.set(timeZone, (f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })));
  return f.format(typeof time === "string" ? new Date(time) : time);
}

export type DayGroup<T> = { day: string; items: T[] };

/** Splits an ascending list into runs of the same local day. */
export function groupByDay<T>(items: readonly T[], timeOf: (item: T) => string, timeZone: string): DayGroup<T>[] {
  const groups: DayGroup<T>[] = [];
  for (const item of items) {
    const day = dayKey(timeOf(item), timeZone);
    const last = groups.at(-1);
    if (last && last.day === day) last.items.push(item);
    else groups.push({ day, items: [item] });
  }
  return groups;
}

// ---- the dialog list (spec section 4) ----

/** Unread first, then the newest message (a dialog without messages by its creation), then the newer dialog. */
export function compareDialogs(a: DialogDto, b: DialogDto): number {
  const ua = a.unreadCount > 0 ? 1 : 0;
  const ub = b.unreadCount > 0 ? 1 : 0;
  if (ua !== ub) return ub - ua;
  const ta = Date.parse(a.lastMessage?.time ?? a.createdAt);
  const tb = Date.parse(b.lastMessage?.time ?? b.createdAt);
  if (ta !== tb) return tb - ta;
  return b.id - a.id;
}

/** Adds a page (or a refreshed first page) to the list: one entry per dialog, the newer copy wins. */
export function mergeDialogs(existing: readonly DialogDto[], incoming: readonly DialogDto[]): DialogDto[] {
  const byId = new Map<number, DialogDto>();
  for (const d of existing) byId.set(d.id, d);
  for (const d of incoming) byId.set(d.id, d);
  return [...byId.values()].sort(compareDialogs);
}

/**
 * A new message in the list: it becomes the dialog's last message, and one more unread when the
 * viewer received it outside the active dialog (spec section 4). `known` is false when the dialog is
 * not in the list yet (the caller fetches it).
 */
export function applyMessageToDialogs(
  dialogs: readonly DialogDto[],
  message: MessageDto,
  viewerId: number,
  activeDialogId: number | null,
): { dialogs: DialogDto[]; known: boolean } {
  const index = dialogs.findIndex((d) => d.id === message.dialogId);
  if (index < 0) return { dialogs: dialogs as DialogDto[], known: false };
  const d = dialogs[index];
  // A replayed frame (resume) or one older than what the list already shows changes nothing.
  if (d.lastMessage && compareMessages(d.lastMessage, message) >= 0) return { dialogs: dialogs as DialogDto[], known: true };
  const counts = message.authorId !== viewerId && message.dialogId !== activeDialogId;
  const unread = counts ? d.unreadCount + 1 : d.unreadCount;
  const next: DialogDto = {
    ...d,
    unreadCount: unread,
    unread_count: unread,
    lastMessage: {
      id: message.id,
      messageText: message.messageText,
      time: message.time,
      authorId: message.authorId,
      readStatus: message.readStatus,
      imageCount: message.images?.length ?? 0,
      authorFirstName: message.author?.firstName ?? null,
      event: message.event ?? null,
    },
  };
  return { dialogs: [...dialogs.slice(0, index), next, ...dialogs.slice(index + 1)].sort(compareDialogs), known: true };
}

/** A DIALOG_READ frame in the list: the reader's unread goes to 0; the viewer's last message turns READ when the read covers it. */
export function applyReadToDialogs(dialogs: readonly DialogDto[], read: DialogReadData, viewerId: number): DialogDto[] {
  let changed = false;
  const next = dialogs.map((d) => {
    if (d.id !== read.dialogId) return d;
    let out = d;
    if (read.readerId === viewerId && d.unreadCount !== 0) out = { ...out, unreadCount: 0, unread_count: 0 };
    const last = d.lastMessage;
    if (read.readerId !== viewerId && last && last.authorId === viewerId && last.readStatus !== "READ" && readCovers(read, last)) {
      out = { ...out, lastMessage: { ...last, readStatus: "READ" } };
    }
    if (out !== d) changed = true;
    return out;
  });
  return changed ? next.sort(compareDialogs) : (dialogs as DialogDto[]);
}

/**
 * A MESSAGE_UPDATED frame in the list: an edit of the shown last message changes its text. A deletion
 * changes which message is the preview and may change the unread count: `refresh` asks the caller to
 * read the list again (the server knows the message before it and the count).
 */
export function applyUpdateToDialogs(dialogs: readonly DialogDto[], message: MessageDto): { dialogs: DialogDto[]; refresh: boolean } {
  const index = dialogs.findIndex((d) => d.id === message.dialogId);
  if (index < 0) return { dialogs: dialogs as DialogDto[], refresh: false };
  const d = dialogs[index];
  if (message.deleted) return { dialogs: dialogs as DialogDto[], refresh: true };
  if (d.lastMessage?.id !== message.id || d.lastMessage.messageText === message.messageText) return { dialogs: dialogs as DialogDto[], refresh: false };
  const next: DialogDto = { ...d, lastMessage: { ...d.lastMessage, messageText: message.messageText } };
  return { dialogs: [...dialogs.slice(0, index), next, ...dialogs.slice(index + 1)], refresh: false };
}

/** Opening a dialog resets its unread count (spec section 4). */
export function markDialogRead(dialogs: readonly DialogDto[], dialogId: number): DialogDto[] {
  return dialogs.map((d) => (d.id === dialogId && d.unreadCount !== 0 ? { ...d, unreadCount: 0, unread_count: 0 } : d)).sort(compareDialogs);
}

/** The same partner fields everywhere they appear in the list (a PRESENCE frame). */
export function applyPresenceToDialogs(
  dialogs: readonly DialogDto[],
  presence: { accountId: number; isOnline: boolean; lastOnlineTime: string | null },
): DialogDto[] {
  let changed = false;
  const next = dialogs.map((d) => {
    const p = d.partner;
    if (!p || p.id !== presence.accountId || (p.isOnline === presence.isOnline && p.lastOnlineTime === presence.lastOnlineTime)) return d;
    changed = true;
    return { ...d, partner: { ...p, isOnline: presence.isOnline, lastOnlineTime: presence.lastOnlineTime ?? p.lastOnlineTime } };
  });
  return changed ? next : (dialogs as DialogDto[]);
}
