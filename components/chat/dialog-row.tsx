"use client";

import { useTranslations } from "next-intl";
import Link from "@/components/ui/link";
import { memo } from "react";
import { Avatar } from "@/components/ui/avatar";
import type { DialogDto } from "@/lib/validation/dialogs";
import styles from "./dialog-list.module.css";
import { useChatFormat } from "./use-chat-format";

/** One dialog: the partner's photo (with the online dot) and name, the last message and its time, the unread count. */
export const DialogRow = memo(function DialogRow({ dialog, viewerId, typing, now }: { dialog: DialogDto; viewerId: number; typing: boolean; now: number }) {
  const t = useTranslations("im");
  const f = useChatFormat();
  const p = dialog.partner;
  const name = `${p.firstName} ${p.lastName}`.trim();
  const last = dialog.lastMessage;
  const mine = !!last && last.authorId === viewerId;
  const unread = dialog.unreadCount;
  return (
    <Link
      href={`/im/${dialog.id}`}
      className={unread > 0 ? `${styles.row} ${styles.unread}` : styles.row}
      data-testid="dialog-row"
      data-dialog-id={dialog.id}
      data-unread={unread}
    >
      <span className={styles.avatar}>
        <Avatar id={p.id} firstName={p.firstName} lastName={p.lastName} photo={p.photo} size={52} alt="" />
        {p.isOnline ? <span className={styles.online} role="img" aria-label={t("online")} /> : null}
      </span>
      <span className={styles.body}>
        <span className={styles.top}>
          <span className={styles.name}>{name}</span>
          {last ? (
            <time className={styles.time} dateTime={last.time}>
              {f.listStamp(last.time, now)}
            </time>
          ) : null}
        </span>
        <span className={styles.bottom}>
          <span className={styles.preview} data-testid="dialog-preview">
            {typing ? (
              <span className={styles.typing}>{t("typingShort")}</span>
            ) : last ? (
              <>
                {mine ? <span className={styles.you}>{t("you")} </span> : null}
                {last.messageText ||
                  (last.imageCount > 0 ? <span className={styles.photoMark}>{last.imageCount > 1 ? t("photos", { count: last.imageCount }) : t("photo")}</span> : null)}
              </>
            ) : (
              <span className={styles.none}>{t("noMessagesPreview")}</span>
            )}
          </span>
          {unread > 0 ? (
            <span className={styles.count} data-testid="dialog-unread">
              <span aria-hidden="true">{unread > 99 ? "99+" : unread}</span>
              <span className="visually-hidden">{t("unreadTotal", { count: unread })}</span>
            </span>
          ) : mine && last.readStatus === "SENT" ? (
            <span className={styles.notRead} role="img" aria-label={t("sent")} />
          ) : null}
        </span>
      </span>
    </Link>
  );
});
