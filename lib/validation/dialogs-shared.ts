// The zod-free half of the chat contract that the shell imports on every page (the unread badge), so
// that pages which validate nothing don't download zod (issue 14 item 11). lib/validation/dialogs.ts
// re-exports it.

/** Outbox event types of the chat that clients act on. */
export const CHAT_EVENT_TYPES = {
  message: "MESSAGE",
  read: "DIALOG_READ",
  /** A message edited or deleted for both: data is the whole MessageDto as it is now (docs/adr/0129). */
  updated: "MESSAGE_UPDATED",
  /** A message deleted for oneself: MessageHiddenData, to that account's tabs only. */
  hidden: "MESSAGE_HIDDEN",
} as const;

/** How long after sending its author may edit a message or delete it for both (docs/adr/0129). */
export const MESSAGE_CHANGE_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A reply's quoted preview carries at most this many characters of the original. */
export const REPLY_PREVIEW_MAX = 200;

/** A message carries at most this many photos (issue 27, docs/adr/0134); with photos its text may be empty. */
export const MESSAGE_IMAGES_MAX = 10;

/** A message's text is trimmed and must keep 1..4000 characters; longer text is refused, never cut. */
export const MESSAGE_TEXT_MAX = 4000;
/** Page sizes: the dialog list and a page of history. */
export const DIALOG_PAGE_DEFAULT = 20;
export const DIALOG_PAGE_MAX = 100;
export const MESSAGE_PAGE_DEFAULT = 30;
export const MESSAGE_PAGE_MAX = 100;
/** How long a TYPING indication stays on screen without a new TYPING frame, and how often a client should repeat it. */
export const TYPING_TTL_MS = 6_000;
export const TYPING_REPEAT_MS = 3_000;
