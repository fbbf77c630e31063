import type { NotificationDto } from "@/lib/validation/notifications-shared";

/** A translator of the `notifications` namespace (next-intl's `t`, in the browser or on the server). */
export type NotificationsTranslate = (key: string, values?: Record<string, string | number>) => string;

/**
 * Who a notification shows and the sentence for its type: the bell, the live toasts and the Web Push
 * notification (lib/server/services/push) all say the same.
 */
export function notificationText(t: NotificationsTranslate, n: NotificationDto): { name: string; sentence: string } {
  const author = n.data.author;
  const single = author ? `${author.firstName} ${author.lastName}`.trim() : n.notificationType === "SEND_EMAIL_MESSAGE" || n.notificationType === "USER_BIRTHDAY" || n.notificationType === "REPORT_RESOLVED" || n.notificationType === "EXPORT_READY" ? t("krug") : t("someone");
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
    case "REPORT_RESOLVED": {
      // The content is the moderator's action (issue 26): what became of the report.
      const action = ["DISMISS", "BLOCK_CONTENT", "BLOCK_AUTHOR"].includes(content) ? content : "DISMISS";
      sentence = t(`sentence.REPORT_RESOLVED_${action}`);
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
  if (n.data.postId) return n.data.commentId ? `/post/${n.data.postId}#comment-${n.data.commentId}` : `/post/${n.data.postId}`;
  if (n.notificationType === "SEND_EMAIL_MESSAGE") return "/settings";
  if (n.notificationType === "EXPORT_READY") return "/settings#my-data";
  if (n.data.authorId && n.data.author) return `/profile/${n.data.authorId}`;
  return "/push";
}
