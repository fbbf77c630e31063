import type { NotificationDetails, NotificationDto } from "@/lib/validation/notifications-shared";

/** A translator of the `notifications` namespace (next-intl's `t`, in the browser or on the server). */
export type NotificationsTranslate = (key: string, values?: Record<string, string | number>) => string;

/** Notices of Krug itself: shown under its name (in the reader's language, issue 40) when they have no author. */
const SYSTEM_TYPES = new Set<NotificationDto["notificationType"]>(["SEND_EMAIL_MESSAGE", "USER_BIRTHDAY", "REPORT_RESOLVED", "EXPORT_READY", "CONTENT_BLOCKED"]);

/** "the post “…”", "a message with photos", "the profile “…”": the item of a moderation notice. */
function reportItem(t: NotificationsTranslate, d: NotificationDetails): string {
  if (d.targetType === "MESSAGE" && !d.excerpt) return t("reportItem.MESSAGE_PHOTO");
  return t(`reportItem.${d.targetType}`, { excerpt: d.excerpt });
}

/**
 * Who a notification shows and the sentence for its type: the bell, the live toasts and the Web Push
 * notification (lib/server/services/push) all say the same.
 */
export function notificationText(t: NotificationsTranslate, n: NotificationDto): { name: string; sentence: string } {
  const author = n.data.author;
  // A post signed by a community (issue 42) shows the community, not the admin who wrote it.
  const single = author
    ? `${author.firstName} ${author.lastName}`.trim()
    : SYSTEM_TYPES.has(n.notificationType)
      ? t("krug")
      : n.notificationType === "COMMUNITY_POST" && n.data.community
        ? n.data.community.name
        : t("someone");
  const count = n.data.count ?? 1;
  const name = count > 1 ? t("others", { name: single, others: count - 1 }) : single;
  const content = n.content;
  const many = count > 1;
  let sentence: string;
  switch (n.notificationType) {
    case "LIKE": {
      const key = n.data.commentId ? (many ? "LIKE_COMMENT_MANY" : "LIKE_COMMENT") : many ? "LIKE_POST_MANY" : "LIKE_POST";
      sentence = t(`sentence.${key}`, { content });
      break;
    }
    case "POST_COMMENT":
    case "COMMENT_COMMENT":
      sentence = many ? t(`sentence.${n.notificationType}_MANY`, { content, count }) : t(`sentence.${n.notificationType}`, { content });
      break;
    case "SEND_EMAIL_MESSAGE": {
      const kind = ["EMAIL_CHANGE", "EMAIL_CHANGED", "PASSWORD_CHANGE"].includes(content) ? content : "PASSWORD_CHANGE";
      sentence = t(`sentence.MAIL_${kind}`);
      break;
    }
    case "MESSAGE":
      // A message of photos only has no text to quote (issue 27, docs/adr/0134).
      sentence = content ? t("sentence.MESSAGE", { content }) : t("sentence.MESSAGE_PHOTO");
      break;
    case "GROUP_ADDED":
      // Issue 41: the content is the conversation's title (a group always has one; an entry whose title
      // excerpt came out empty still reads as a sentence).
      sentence = content ? t("sentence.GROUP_ADDED", { content }) : t("sentence.GROUP_ADDED_UNTITLED");
      break;
    case "COMMUNITY_REQUEST":
    case "COMMUNITY_ACCEPTED":
    case "COMMUNITY_INVITATION": {
      // Issue 42: the community's name as it is now (an entry of a community no longer there says so as gone).
      const community = n.data.community?.name ?? "…";
      sentence = t(`sentence.${n.notificationType}${many && n.notificationType === "COMMUNITY_REQUEST" ? "_MANY" : ""}`, { community });
      break;
    }
    case "COMMUNITY_POST": {
      const community = n.data.community?.name ?? "…";
      sentence = content ? t("sentence.COMMUNITY_POST", { community, content }) : t("sentence.COMMUNITY_POST_UNTITLED", { community });
      break;
    }
    case "REPORT_RESOLVED": {
      // The content is the moderator's action (issue 26): what became of the report; details name the
      // item it was about (issue 40; a notice from before has none).
      const action = ["DISMISS", "BLOCK_CONTENT", "BLOCK_AUTHOR"].includes(content) ? content : "DISMISS";
      const d = n.data.details;
      sentence = d ? t(`sentence.REPORT_RESOLVED_${action}_ITEM`, { item: reportItem(t, d) }) : t(`sentence.REPORT_RESOLVED_${action}`);
      break;
    }
    case "CONTENT_BLOCKED": {
      // Issue 40: the author is told which post or comment a moderator blocked, and why.
      const d = n.data.details;
      const kind = d?.targetType === "COMMUNITY" ? "COMMUNITY" : n.data.commentId || d?.targetType === "COMMENT" ? "COMMENT" : "POST";
      sentence = d?.reason
        ? t(`sentence.CONTENT_BLOCKED_${kind}_REASON`, { content, reason: d.reason })
        : t(`sentence.CONTENT_BLOCKED_${kind}`, { content });
      break;
    }
    default:
      sentence = t(`sentence.${n.notificationType}`, { content });
  }
  return { name, sentence };
}

/** Where an entry leads: the post, the dialog, or the person's page. */
export function notificationHref(n: NotificationDto): string {
  if (n.data.dialogId) return `/im/${n.data.dialogId}`;
  // A blocked community is hidden from its owner too: the notice leads to their communities.
  if (n.notificationType === "CONTENT_BLOCKED" && n.data.details?.targetType === "COMMUNITY") return "/communities";
  if (n.data.postId) return n.data.commentId ? `/post/${n.data.postId}#comment-${n.data.commentId}` : `/post/${n.data.postId}`;
  // Issue 42: requests, acceptances and invitations lead to the community (its manage panel's requests, or where one accepts).
  if (n.data.communityId) return `/community/${n.data.communityId}`;
  if (n.notificationType === "SEND_EMAIL_MESSAGE") return "/settings";
  if (n.notificationType === "EXPORT_READY") return "/settings#my-data";
  if (n.data.authorId && n.data.author) return `/profile/${n.data.authorId}`;
  return "/push";
}
