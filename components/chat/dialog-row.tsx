"use client";

import { useTranslations } from "next-intl";
import Link from "@/components/ui/link";
import { memo } from "react";
import { Avatar } from "@/components/ui/avatar";
import { dialogName } from "@/lib/client/chat/group";
import type { DialogDto } from "@/lib/validation/dialogs";
import { BellOffIcon } from "./chat-icons";
import { GroupAvatar } from "./group-avatar";
import styles from "./dialog-list.module.css";
import { useChatFormat } from "./use-chat-format";
import { useGroupText } from "./use-group-text";

/**
 * One dialog: the partner's photo (with the online dot) and name, or a group's photo (a collage of its
 * members' when it has none) and title; the last message (in a group «Анна: …», an event line as its
 * text) and its time, the unread count, and a muted group's bell.
 */
export const DialogRow = memo(function DialogRow({
  dialog,
  viewerId,
  typing,
  now,
}: {
  dialog: DialogDto;
  viewerId: number;
  /** Who types in it now (an account id; 0 when unknown), or null when nobody does. */
  typing: number | null;
  now: number;
}) {
  const t = useTranslations("im");
  const tg = useTranslations("group");
  const f = useChatFormat();
  const { eventText } = useGroupText(viewerId);
  const p = dialog.partner;
  const group = dialog.type === "GROUP" || !p;
  const name = dialogName(dialog);
  const last = dialog.lastMessage;
  const mine = !!last && last.authorId === viewerId;
  const unread = dialog.unreadCount;
  // The server sends mutedUntil only while muted; the clock (0 until hydrated) drops a mute that ran out on screen.
  const muted = !!dialog.mutedUntil && (!now || Date.parse(dialog.mutedUntil) > now);
  // A group's row names who types when the row knows them (its collage, the last message's sender).
  const typistName =
    typing === null || !group ? null : (dialog.collage.find((c) => c.id === typing)?.firstName ?? (last && last.authorId === typing ? last.authorFirstName : null) ?? null);
  const sender = !last || last.event ? null : mine ? t("you") : group && last.authorFirstName ? `${last.authorFirstName}:` : null;
  return (
    <Link
      href={`/im/${dialog.id}`}
      className={unread > 0 ? `${styles.row} ${styles.unread}` : styles.row}
      data-testid="dialog-row"
      data-dialog-id={dialog.id}
      data-unread={unread}
      data-type={dialog.type}
      data-muted={muted || undefined}
    >
      <span className={styles.avatar}>
        {!group && p ? (
          <>
            <Avatar id={p.id} firstName={p.firstName} lastName={p.lastName} photo={p.photo} size={52} alt="" />
            {p.isOnline ? <span className={styles.online} role="img" aria-label={t("online")} /> : null}
          </>
        ) : (
          <GroupAvatar photo={dialog.photo} collage={dialog.collage} title={name} size={52} />
        )}
      </span>
      <span className={styles.body}>
        <span className={styles.top}>
          <span className={styles.name}>{name}</span>
          {muted ? (
            <span className={styles.mutedMark} role="img" aria-label={tg("muted")} title={tg("muted")} data-testid="dialog-muted">
              <BellOffIcon size={15} />
            </span>
          ) : null}
          {last ? (
            <time className={styles.time} dateTime={last.time}>
              {f.listStamp(last.time, now)}
            </time>
          ) : null}
        </span>
        <span className={styles.bottom}>
          <span className={styles.preview} data-testid="dialog-preview">
            {typing !== null ? (
              <span className={styles.typing}>{typistName ? `${t("typing", { name: typistName })}…` : t("typingShort")}</span>
            ) : last ? (
              last.event ? (
                <span className={styles.eventPreview}>{eventText(last.event)}</span>
              ) : (
                <>
                  {sender ? <span className={styles.you}>{sender} </span> : null}
                  {last.messageText ||
                    (last.imageCount > 0 ? <span className={styles.photoMark}>{last.imageCount > 1 ? t("photos", { count: last.imageCount }) : t("photo")}</span> : null)}
                </>
              )
            ) : (
              <span className={styles.none}>{t("noMessagesPreview")}</span>
            )}
          </span>
          {unread > 0 ? (
            <span className={muted ? `${styles.count} ${styles.countMuted}` : styles.count} data-testid="dialog-unread">
              <span aria-hidden="true">{unread > 99 ? "99+" : unread}</span>
              <span className="visually-hidden">{t("unreadTotal", { count: unread })}</span>
            </span>
          ) : mine && last.readStatus === "SENT" && !last.event ? (
            <span className={styles.notRead} role="img" aria-label={t("sent")} />
          ) : null}
        </span>
      </span>
    </Link>
  );
});
