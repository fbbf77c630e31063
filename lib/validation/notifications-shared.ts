// Notification shapes shared by the server, the bell, /push and the socket client (zod-free: the header
// bundle imports it). Issue 12; spec section 3.

export const NOTIFICATION_TYPES = [
  "POST",
  "POST_COMMENT",
  "COMMENT_COMMENT",
  "FRIEND_REQUEST",
  "MESSAGE",
  "FRIEND_BIRTHDAY",
  "SEND_EMAIL_MESSAGE",
  "FRIEND_APPROVE",
  "FRIEND_BLOCKED",
  "FRIEND_UNBLOCKED",
  "FRIEND_SUBSCRIBE",
  "USER_BIRTHDAY",
  "LIKE",
  "REPORT_RESOLVED",
  "EXPORT_READY",
  // Issue 27: someone shared your post on their wall.
  "REPOST",
  // Issue 40: a moderator blocked my post or comment (with the reason).
  "CONTENT_BLOCKED",
  // Issue 41: someone added you to a group conversation (dialogId; content = its title).
  "GROUP_ADDED",
  // Issue 42: someone asked to join a closed community I own or administer (communityId; grouped per community).
  "COMMUNITY_REQUEST",
  // Issue 42: an admin accepted my request to join (communityId).
  "COMMUNITY_ACCEPTED",
  // Issue 42: a member invited me to a community (communityId).
  "COMMUNITY_INVITATION",
  // Issue 42: a new post on the wall of a community whose posts I asked to hear of (postId, communityId; content = its title).
  "COMMUNITY_POST",
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** The bell shows 3, then loads pages of 20 (spec section 9). */
export const BELL_SHOWN = 3;
export const NOTIFICATION_PAGE_SIZE = 20;
export const NOTIFICATION_PAGE_SIZE_MAX = 100;

export type NotificationPerson = { id: number; firstName: string; lastName: string; photo: string | null };

/** One notification as GET notifications/page lists it and the NOTIFICATION frame carries it. */
export type NotificationDto = {
  id: number;
  notificationType: NotificationType;
  /** ISO time of the newest event behind it. */
  sentTime: string;
  /** Plain-text excerpt: post title, comment or message start; for SEND_EMAIL_MESSAGE the mail kind. */
  content: string;
  isRead: boolean;
  data: {
    /** The original client reads these four from data: the same values as above (issue 29 §3). */
    id: number;
    notificationType: NotificationType;
    content: string;
    sentTime: string;
    authorId: number | null;
    receiverId: number;
    /** null when the author is gone (deleted account) or for a system notification. */
    author: NotificationPerson | null;
    postId: number | null;
    commentId: number | null;
    dialogId: number | null;
    /** Issue 42: the community a COMMUNITY_* entry is about (absent on other types). */
    communityId?: number;
    /** Issue 42: that community's name and photo now; null when it is no longer there. */
    community?: NotificationCommunity | null;
    /** Issue 27: what it leads to no longer exists (a deleted comment, post or account), else null. */
    gone?: NotificationGone | null;
    /** Issue 27: a FRIEND_REQUEST still waiting for the receiver's answer. */
    requestPending?: boolean;
    /** How many people a grouped entry stands for (1 when not grouped). */
    count: number;
    /** The newest people of a grouped entry (at most 3), newest first. */
    authors: NotificationPerson[];
    /** Issue 40: what a moderation notice (REPORT_RESOLVED, CONTENT_BLOCKED) is about; absent on other types. */
    details?: NotificationDetails;
  };
};

/**
 * The item a moderation notice names (issue 40, docs/adr/0164): its kind and a short quote (a post's title,
 * a comment's or message's start, a profile's name; empty for a message of photos only), and for
 * CONTENT_BLOCKED the moderator's reason.
 */
export type NotificationDetails = {
  targetType: "POST" | "COMMENT" | "MESSAGE" | "ACCOUNT" | "COMMUNITY";
  excerpt: string;
  reason?: string | null;
};

export type NotificationGone = "COMMENT" | "POST" | "ACCOUNT" | "COMMUNITY";

/** Issue 42: the community of a COMMUNITY_* entry. */
export type NotificationCommunity = { id: number; name: string; photo: string | null };

/** PUT notifications/readed {ids}: at most this many at once (the bell marks what it shows). */
export const READ_IDS_MAX = 100;

/** GET notifications: `notifications` and, for the original client, the same items again as `content` (issue 29 §3). */
export type NotificationList = { notifications: NotificationDto[]; content: NotificationDto[]; totalElements: number; totalPages: number };

/** A live NOTIFICATION frame's data: the item as the list shows it, with `timestamp` (= sentTime; the spec's live field). */
export type NotificationFrameData = NotificationDto & { timestamp: string };

/** GET notifications/count: `count`, and `data.count` (the same number) for the original client (issue 29 §3). */
export type NotificationCount = { count: number; data: { count: number } };

/** The mail kinds of SEND_EMAIL_MESSAGE (its content). */
export const MAIL_KINDS = ["EMAIL_CHANGE", "EMAIL_CHANGED", "PASSWORD_CHANGE"] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export const NOTIFICATION_ERRORS = {
  badQuery: "notifications.errors.badQuery",
} as const;

/** A frame's data is a notification when it has the fields the bell needs; anything else is ignored. */
export function isNotificationDto(value: unknown): value is NotificationDto {
  if (!value || typeof value !== "object") return false;
  const v = value as Partial<NotificationDto>;
  return (
    typeof v.id === "number" &&
    typeof v.notificationType === "string" &&
    (NOTIFICATION_TYPES as readonly string[]).includes(v.notificationType) &&
    typeof v.sentTime === "string" &&
    !!v.data &&
    typeof v.data === "object"
  );
}
