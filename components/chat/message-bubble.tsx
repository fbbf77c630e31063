"use client";

import { useTranslations } from "next-intl";
import { memo } from "react";
import { AlertIcon } from "@/components/ui/icons";
import type { LocalMessage } from "@/lib/client/chat/timeline";
import type { MessageDto } from "@/lib/validation/dialogs";
import { ClockIcon, DoubleTickIcon, TickIcon } from "./chat-icons";
import { ReportMenu } from "@/components/report/report-menu";
import report from "@/components/report/report.module.css";
import styles from "./chat.module.css";
import { useChatFormat } from "./use-chat-format";

/** A stored message: text, time, and for the viewer's own one the tick (one: sent, two: read). */
export const MessageBubble = memo(function MessageBubble({ message, mine }: { message: MessageDto; mine: boolean }) {
  const t = useTranslations("im");
  const tr = useTranslations("report");
  const f = useChatFormat();
  const read = message.readStatus === "READ";
  const bubble = (
      <div className={styles.bubble}>
        <p className={styles.text}>{message.messageText}</p>
        <span className={styles.meta}>
          <time dateTime={message.time}>{f.clock(message.time)}</time>
          {mine ? (
            <span className={read ? `${styles.tick} ${styles.read}` : styles.tick} role="img" aria-label={read ? t("read") : t("sent")} data-testid="tick">
              {read ? <DoubleTickIcon size={16} /> : <TickIcon size={16} />}
            </span>
          ) : null}
        </span>
      </div>
  );
  return (
    <div className={mine ? `${styles.row} ${styles.mine}` : styles.row} data-testid="message" data-mine={mine || undefined} data-read-status={message.readStatus}>
      {mine ? (
        bubble
      ) : (
        // Only the partner's messages can be reported (issue 26): the one way staff ever read a message.
        <div className={report.withMenu}>
          {bubble}
          <ReportMenu target={{ type: "MESSAGE", id: message.id }} triggerClassName={report.more} label={tr("messageActions")} />
        </div>
      )}
    </div>
  );
});

/** The viewer's message on its way (a clock) or refused/lost (the reason, Retry and Delete). */
export function LocalBubble({
  message,
  onRetry,
  onDiscard,
}: {
  message: LocalMessage;
  onRetry: (clientId: string) => void;
  onDiscard: (clientId: string) => void;
}) {
  const t = useTranslations("im");
  const f = useChatFormat();
  const failed = message.state === "failed";
  return (
    <div className={`${styles.row} ${styles.mine}`} data-testid="message" data-mine data-state={message.state}>
      <div className={failed ? `${styles.bubble} ${styles.failed}` : `${styles.bubble} ${styles.pending}`}>
        <p className={styles.text}>{message.text}</p>
        <span className={styles.meta}>
          <time dateTime={message.time}>{f.clock(message.time)}</time>
          {failed ? (
            <span className={`${styles.tick} ${styles.error}`} role="img" aria-label={t("failed")}>
              <AlertIcon size={15} />
            </span>
          ) : (
            <span className={styles.tick} role="img" aria-label={t("pending")}>
              <ClockIcon size={14} />
            </span>
          )}
        </span>
      </div>
      {failed ? (
        <div className={styles.failure} role="alert">
          <span>{message.error ?? t("failed")}</span>
          <button type="button" className={styles.textButton} onClick={() => onRetry(message.clientId)}>
            {t("retry")}
          </button>
          <button type="button" className={styles.textButton} onClick={() => onDiscard(message.clientId)}>
            {t("discard")}
          </button>
        </div>
      ) : null}
    </div>
  );
}
