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
  /**
   * A group conversation changed (title, photo, members, roles, or the viewer's own membership): data is
   * `{dialogId}`; the client reads the dialog again (issue 41). Sent to every present member and to
   * anyone the change removed.
   */
  groupChanged: "DIALOG_CHANGED",
} as const;

/** A group conversation has at most this many members, its creator included (issue 41). */
export const GROUP_MEMBERS_MAX = 500;
/** A group's title: trimmed, 1..GROUP_TITLE_MAX characters. */
export const GROUP_TITLE_MAX = 100;
/** One POST dialogs/{id}/members adds at most this many people. */
export const GROUP_ADD_MAX = 100;
/** Members mentioned in one message who are notified. */
export const MENTIONS_MAX = 10;
/** A page of a group's members. */
export const MEMBER_PAGE_DEFAULT = 50;
export const MEMBER_PAGE_MAX = 200;
/** Group roles, strongest first. */
export const GROUP_ROLES = ["OWNER", "ADMIN", "MEMBER"] as const;
export type GroupRole = (typeof GROUP_ROLES)[number];
/** Event lines of a group's history. */
export const GROUP_EVENT_TYPES = ["CREATED", "ADDED", "REMOVED", "LEFT", "RENAMED", "PHOTO", "ROLE"] as const;
export type GroupEventType = (typeof GROUP_EVENT_TYPES)[number];
/** Mute choices of PUT dialogs/{id}/mute. */
export const MUTE_CHOICES = ["HOUR", "EIGHT_HOURS", "FOREVER", "OFF"] as const;
export type MuteChoice = (typeof MUTE_CHOICES)[number];

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
