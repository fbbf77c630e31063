"use client";

import { useTranslations } from "next-intl";
import { useUnreadTotal } from "@/lib/client/chat/unread";
import styles from "./unread-badge.module.css";

/**
 * The total of unread messages on the "messages" item (sidebar: a pill at the end of the row; phone
 * bar: a dot-badge on the icon). Hidden at 0; the number is spoken as part of the link's name.
 */
export function UnreadBadge({ viewerId, initial, corner }: { viewerId: number; initial: number; corner?: boolean }) {
  const t = useTranslations("im");
  const total = useUnreadTotal(viewerId, initial);
  if (total <= 0) return null;
  return (
    <>
      <span className={corner ? `${styles.badge} ${styles.corner}` : styles.badge} aria-hidden="true" data-testid="im-unread-badge">
        {total > 99 ? "99+" : total}
      </span>
      <span className="visually-hidden">{t("unreadTotal", { count: total })}</span>
    </>
  );
}
