"use client";

import { useFormatter, useTranslations } from "next-intl";
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
  const tn = useTranslations("notifications");
  const a = n.data.author;
  const gone = n.data.gone ?? null;
  const className = n.isRead ? styles.entry : `${styles.entry} ${styles.unread}`;
  const inner = (
    <>
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
        {gone ? (
          <span className={styles.gone} data-testid="notification-gone">
            {tn(`gone.${gone}`)}
          </span>
        ) : null}
        <time className={styles.time} dateTime={n.sentTime}>
          {now ? format.relativeTime(new Date(n.sentTime), now) : null}
        </time>
      </span>
    </>
  );
  // What it is about no longer exists (issue 27): it says so and leads nowhere, instead of to a 404.
  if (gone) {
    return (
      <div className={`${className} ${styles.goneEntry}`} data-testid="notification" data-type={n.notificationType} data-read={n.isRead} data-gone={gone}>
        {inner}
      </div>
    );
  }
  return (
    <Link href={notificationHref(n)} className={className} onClick={onOpen} data-testid="notification" data-type={n.notificationType} data-read={n.isRead}>
      {inner}
    </Link>
  );
});
