/**
 * Narrowing of the chat's socket frames (lib/validation/dialogs.ts). A frame whose data does not look
 * like ours is ignored rather than trusted: the socket carries other features' events too.
 */
import type { DialogReadData, MessageDto, MessageHiddenData, PresenceFrame, TypingFrame } from "@/lib/validation/dialogs";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null;
const isId = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v > 0;

export function asMessage(data: unknown): MessageDto | null {
  if (!isObj(data)) return null;
  const ok =
    isId(data.id) &&
    isId(data.dialogId) &&
    isId(data.authorId) &&
    // null in a group conversation (issue 41), where every member is a recipient.
    (isId(data.recipientId) || data.recipientId === null) &&
    typeof data.messageText === "string" &&
    typeof data.time === "string" &&
    (data.readStatus === "SENT" || data.readStatus === "READ");
  return ok ? (data as MessageDto) : null;
}

export function asRead(data: unknown): DialogReadData | null {
  if (!isObj(data)) return null;
  // authorId is null in a group: every member's message up to lastReadMessageId but the reader's is read.
  return isId(data.dialogId) && isId(data.readerId) && (isId(data.authorId) || data.authorId === null) && typeof data.lastReadMessageId === "number"
    ? (data as DialogReadData)
    : null;
}

export function asTyping(data: unknown): TypingFrame["data"] | null {
  if (!isObj(data)) return null;
  return isId(data.dialogId) && isId(data.accountId) ? (data as TypingFrame["data"]) : null;
}

export function asPresence(data: unknown): PresenceFrame["data"] | null {
  if (!isObj(data)) return null;
  return isId(data.accountId) && typeof data.isOnline === "boolean" ? (data as PresenceFrame["data"]) : null;
}

/** DIALOG_CHANGED: a group conversation changed; the client reads it again (issue 41). */
export function asDialogChanged(data: unknown): { dialogId: number } | null {
  if (!isObj(data)) return null;
  return isId(data.dialogId) ? { dialogId: data.dialogId } : null;
}

export function asHidden(data: unknown): MessageHiddenData | null {
  if (!isObj(data)) return null;
  return isId(data.dialogId) && isId(data.messageId) && isId(data.accountId) ? (data as MessageHiddenData) : null;
}
