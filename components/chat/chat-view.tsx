"use client";

import { useTranslations } from "next-intl";
import { useCallback } from "react";
import { ApiError } from "@/lib/client/api";
import { useChat } from "@/lib/client/chat/use-chat";
import { messageText } from "@/lib/client/message-text";
import { useRealtimeStatus } from "@/lib/client/use-realtime";
import type { DialogDto, MessagePage } from "@/lib/validation/dialogs";
import { ChatHeader } from "./chat-header";
import styles from "./chat.module.css";
import { Composer } from "./composer";
import { MessageList } from "./message-list";
import { TypingLine } from "./typing-line";

/** /im/{id}: the partner's header, the history, the typing line and the composer in one full-height card. */
export function ChatView({ dialog, initialPage, viewerId }: { dialog: DialogDto; initialPage: MessagePage; viewerId: number }) {
  const t = useTranslations();
  const describeError = useCallback(
    (err: unknown) => (err instanceof ApiError ? (messageText(t, err.message) ?? err.message) : null),
    [t],
  );
  const chat = useChat({ dialog, initialPage, viewerId, describeError });
  const status = useRealtimeStatus();
  const partner = dialog.conversationPartner2;

  return (
    <section className={styles.chat} aria-labelledby="chat-partner-name" data-testid="chat">
      <h1 className="visually-hidden">{`${partner.firstName} ${partner.lastName}`.trim()}</h1>
      <ChatHeader partner={partner} presence={dialog.canWrite ? chat.presence : null} typing={chat.typing} />
      {status === "reconnecting" ? (
        <p className={styles.banner} role="status">
          {t("im.connectionLost")}
        </p>
      ) : null}
      <MessageList
        partner={partner}
        viewerId={viewerId}
        messages={chat.messages}
        local={chat.local}
        hasOlder={chat.hasOlder}
        older={chat.older}
        onLoadOlder={chat.loadOlder}
        onRetry={chat.retry}
        onDiscard={chat.discard}
        canWrite={dialog.canWrite}
      />
      <TypingLine name={partner.firstName} typing={chat.typing} />
      {dialog.canWrite ? (
        <Composer onSend={chat.send} onTyping={chat.notifyTyping} />
      ) : (
        <p className={styles.cannotWrite} data-testid="cannot-write">
          {partner.isDeleted
            ? t("im.cannotWriteDeleted")
            : dialog.messagesFriendsOnly
              ? t("im.cannotWriteFriendsOnly", { name: `${partner.firstName} ${partner.lastName}`.trim() })
              : t("im.cannotWrite")}
        </p>
      )}
    </section>
  );
}
