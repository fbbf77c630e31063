"use client";

import { useFormatter } from "next-intl";
import Link from "@/components/ui/link";
import { memo } from "react";
import { Avatar } from "@/components/ui/avatar";
import { BellIcon } from "@/components/ui/icons";
import { useNow } from "@/lib/client/clock";
import type { NotificationDto } from "@/lib/validation/notifications-shared";
import styles from "./notifications.module.css";
import { notificationHref, useNotificationText } from "./use-notification-text";

/**
 * One notification: the author's photo and name, the sentence of its type, how long ago; the whole row
 * links to its target. `renderedAt` is the server's "now" of a list it rendered (see useNow).
 */
export const NotificationEntry = memo(function NotificationEntry({ n, onOpen, renderedAt }: { n: NotificationDto; onOpen?: () => void; renderedAt?: number }) {
  const text = useNotificationText();
  const format = useFormatter();
  const now = useNow(renderedAt);
  const { name, sentence } = text(n);
  const a = n.data.author;
  return (
    <Link
      href={notificationHref(n)}
      className={n.isRead ? styles.entry : `${styles.entry} ${styles.unread}`}
      onClick={onOpen}
      data-testid="notification"
      data-type={n.notificationType}
      data-read={n.isRead}
    >
      <span className={styles.avatar}>
        {a ? (
          <Avatar id={a.id} firstName={a.firstName} lastName={a.lastName} photo={a.photo} size={40} alt="" />
        ) : (
          <span className={styles.system} aria-hidden="true">
            <BellIcon size={20} />
          </span>
        )}
      </span>
      <span className={styles.body}>
        <span className={styles.name}>{name}</span>
        <span className={styles.sentence}>{sentence}</span>
        <time className={styles.time} dateTime={n.sentTime}>
          {now ? format.relativeTime(new Date(n.sentTime), now) : null}
        </time>
      </span>
    </Link>
  );
});
