"use client";

import { useTranslations } from "next-intl";
import { useCallback, useEffect, useMemo, useState } from "react";
import { ApiError } from "@/lib/client/api";
import { notify } from "@/lib/client/notify";
import { useChat } from "@/lib/client/chat/use-chat";
import { messageText } from "@/lib/client/message-text";
import { useRealtimeStatus } from "@/lib/client/use-realtime";
import type { DialogDto, MessageDto, MessagePage } from "@/lib/validation/dialogs";
import { REPLY_PREVIEW_MAX } from "@/lib/validation/dialogs-shared";
import { ChatHeader } from "./chat-header";
import styles from "./chat.module.css";
import { Composer, type ComposerContext } from "./composer";
import { DeleteMessageDialog, type MessageActions } from "./message-menu";
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
  const partner = dialog.partner;
  const me = dialog.viewer;
  const [context, setContext] = useState<ComposerContext>(null);
  const [deleting, setDeleting] = useState<MessageDto | null>(null);
  const [highlightedId, setHighlightedId] = useState<number | null>(null);
  const nameOf = useCallback((id: number) => (id === me.id ? me.firstName : partner.firstName), [me.id, me.firstName, partner.firstName]);

  // The highlight of a jumped-to message fades by itself; the mark is cleared after it.
  useEffect(() => {
    if (highlightedId === null) return;
    const timer = window.setTimeout(() => setHighlightedId(null), 1600);
    return () => window.clearTimeout(timer);
  }, [highlightedId]);

  const actions = useMemo<MessageActions>(
    () => ({
      viewerId,
      canWrite: dialog.canWrite,
      reply: (message) => setContext({ kind: "reply", message, authorName: nameOf(message.authorId) }),
      edit: (message) => setContext({ kind: "edit", message, authorName: nameOf(message.authorId) }),
      askDelete: setDeleting,
      jumpTo: (id) => {
        const el = document.getElementById(`message-${id}`);
        if (!el) {
          notify({ status: "info", message: t("im.originalGone") });
          return;
        }
        el.scrollIntoView({ block: "center", behavior: window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
        setHighlightedId(id);
      },
    }),
    [viewerId, dialog.canWrite, nameOf, t],
  );

  // A message that went away (deleted for both, or hidden) is no longer answered or edited.
  const current = context ? chat.messages.find((m) => m.id === context.message.id) : null;
  const liveContext = context && current && !current.deleted ? context : null;

  const { send, edit, remove } = chat;
  const onSend = useCallback(
    (text: string, images: string[]) => {
      if (liveContext?.kind === "edit") {
        const id = liveContext.message.id;
        setContext(null);
        if (text === liveContext.message.messageText) return;
        edit(id, text).catch((err: unknown) => notify({ status: "error", message: describeError(err) ?? t("im.changeFailed") }));
        return;
      }
      const reply = liveContext?.kind === "reply" ? liveContext.message : null;
      send(
        text,
        reply ? { id: reply.id, authorId: reply.authorId, messageText: [...reply.messageText].slice(0, REPLY_PREVIEW_MAX).join(""), deleted: false, imageCount: reply.images?.length ?? 0 } : null,
        images,
      );
      setContext(null);
    },
    [liveContext, edit, send, describeError, t],
  );

  const onDelete = useCallback(
    async (message: MessageDto, forEveryone: boolean) => {
      try {
        await remove(message.id, forEveryone);
      } catch (err) {
        throw new Error(describeError(err) ?? t("im.changeFailed"));
      }
      if (context?.message.id === message.id) setContext(null);
    },
    [remove, describeError, t, context],
  );

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
        actions={actions}
        nameOf={nameOf}
        highlightedId={highlightedId}
      />
      <TypingLine name={partner.firstName} typing={chat.typing} />
      {dialog.canWrite ? (
        <Composer onSend={onSend} onTyping={chat.notifyTyping} context={liveContext} onCancelContext={() => setContext(null)} />
      ) : (
        <p className={styles.cannotWrite} data-testid="cannot-write">
          {partner.isDeleted
            ? t("im.cannotWriteDeleted")
            : dialog.messagesFriendsOnly
              ? t("im.cannotWriteFriendsOnly", { name: `${partner.firstName} ${partner.lastName}`.trim() })
              : t("im.cannotWrite")}
        </p>
      )}
      <DeleteMessageDialog message={deleting} viewerId={viewerId} onClose={() => setDeleting(null)} onDelete={onDelete} />
    </section>
  );
}
