"use client";

import { useTranslations } from "next-intl";
import { useCallback, useEffect, useMemo, useState } from "react";
import { ApiError } from "@/lib/client/api";
import { notify } from "@/lib/client/notify";
import { dialogName, howLeft } from "@/lib/client/chat/group";
import { useChat } from "@/lib/client/chat/use-chat";
import { useGroup } from "@/lib/client/chat/use-group";
import { messageText } from "@/lib/client/message-text";
import { useNow } from "@/lib/client/clock";
import { useOnline } from "@/lib/client/use-online";
import { useRealtimeStatus } from "@/lib/client/use-realtime";
import type { DialogDto, MemberCard, MessageDto, MessagePage } from "@/lib/validation/dialogs";
import { REPLY_PREVIEW_MAX } from "@/lib/validation/dialogs-shared";
import { ChatHeader } from "./chat-header";
import styles from "./chat.module.css";
import { Composer, type ComposerContext } from "./composer";
import { GroupHeader } from "./group-header";
import { MembersPanel } from "./members-panel";
import { DeleteMessageDialog, type MessageActions } from "./message-menu";
import { MessageList, type GroupView } from "./message-list";
import { ReadersDialog } from "./readers-dialog";
import { TypingLine } from "./typing-line";
import { useGroupText } from "./use-group-text";

/**
 * /im/{id}: the partner's header (a group's: its title and members, issue 41), the history, the typing
 * line and the composer in one full-height card.
 */
export function ChatView({ dialog: initialDialog, initialPage, viewerId }: { dialog: DialogDto; initialPage: MessagePage; viewerId: number }) {
  const t = useTranslations();
  const describeError = useCallback(
    (err: unknown) => (err instanceof ApiError ? (messageText(t, err.message) ?? err.message) : null),
    [t],
  );
  const { dialog, members, reloadMembers, applied } = useGroup(initialDialog);
  const chat = useChat({ dialog, initialPage, viewerId, describeError });
  const status = useRealtimeStatus();
  // Offline, the chat says so at once, and shows no presence it cannot know (issue 44 item 6).
  const online = useOnline();
  const connected = online && status !== "reconnecting";
  const now = useNow();
  const { eventText, typingText } = useGroupText(viewerId);
  const partner = dialog.partner;
  const isGroup = dialog.type === "GROUP" || !partner;
  const me = dialog.viewer;
  const [context, setContext] = useState<ComposerContext>(null);
  const [deleting, setDeleting] = useState<MessageDto | null>(null);
  const [readersOf, setReadersOf] = useState<MessageDto | null>(null);
  const [membersOpen, setMembersOpen] = useState(false);
  const [highlightedId, setHighlightedId] = useState<number | null>(null);

  // Everyone this group's screen can name: its members, and the authors and people of what is loaded
  // (a member who left still signs their old messages).
  const people = useMemo(() => {
    const map = new Map<number, MemberCard>();
    if (!isGroup) return map;
    for (const m of chat.messages) {
      if (m.author) map.set(m.author.id, m.author);
      for (const p of m.event?.people ?? []) map.set(p.id, p);
    }
    for (const m of members.list) map.set(m.id, { id: m.id, firstName: m.firstName, lastName: m.lastName, photo: m.photo });
    map.set(me.id, { id: me.id, firstName: me.firstName, lastName: me.lastName, photo: me.photo });
    return map;
  }, [isGroup, chat.messages, members.list, me]);

  const nameOf = useCallback(
    (id: number) => (id === me.id ? me.firstName : partner && id === partner.id ? partner.firstName : (people.get(id)?.firstName ?? t("group.someone"))),
    [me.id, me.firstName, partner, people, t],
  );

  // The highlight of a jumped-to message fades by itself; the mark is cleared after it.
  useEffect(() => {
    if (highlightedId === null) return;
    const timer = window.setTimeout(() => setHighlightedId(null), 1600);
    return () => window.clearTimeout(timer);
  }, [highlightedId]);

  const moderator = isGroup && (dialog.role === "OWNER" || dialog.role === "ADMIN") && !dialog.left;
  const actions = useMemo<MessageActions>(
    () => ({
      viewerId,
      canWrite: dialog.canWrite,
      reply: (message) => setContext({ kind: "reply", message, authorName: nameOf(message.authorId) }),
      edit: (message) => setContext({ kind: "edit", message, authorName: nameOf(message.authorId) }),
      askDelete: setDeleting,
      showReaders: isGroup ? setReadersOf : undefined,
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
    [viewerId, dialog.canWrite, nameOf, t, isGroup],
  );

  const mentionPeople = useMemo(() => [...people.values()], [people]);
  const groupView = useMemo<GroupView | null>(
    () => (isGroup ? { eventText, authorOf: (m) => m.author ?? people.get(m.authorId) ?? null, mentionPeople } : null),
    [isGroup, eventText, people, mentionPeople],
  );

  // A message that went away (deleted for both, or hidden) is no longer answered or edited.
  const current = context ? chat.messages.find((m) => m.id === context.message.id) : null;
  const liveContext = context && current && !current.deleted ? context : null;

  const { send, edit, remove } = chat;
  const onSend = useCallback(
    (text: string, images: string[], mentions: number[]) => {
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
        mentions,
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

  const name = dialogName(dialog);
  const typing = isGroup ? typingText(chat.typers.map(nameOf)) : chat.typing && partner ? typingText([partner.firstName]) : "";
  // The server sends mutedUntil only while muted; the clock (0 until hydrated) drops a mute that ran out on screen.
  const muted = !!dialog.mutedUntil && (!now || Date.parse(dialog.mutedUntil) > now);
  const gone = isGroup && dialog.left ? (howLeft(chat.messages, viewerId) ?? "unknown") : null;

  return (
    <section className={styles.chat} aria-labelledby="chat-partner-name" data-testid="chat" data-type={dialog.type}>
      <h1 className="visually-hidden">{name}</h1>
      {!isGroup && partner ? (
        <ChatHeader partner={partner} presence={dialog.canWrite && connected ? chat.presence : null} typing={connected && chat.typing} />
      ) : (
        <GroupHeader dialog={dialog} typingText={typing} muted={muted} onOpenMembers={() => setMembersOpen(true)} />
      )}
      {!connected ? (
        <p className={styles.banner} role="status" data-testid="chat-offline">
          {t("im.connectionLost")}
        </p>
      ) : null}
      <MessageList
        name={name}
        hintName={!isGroup && partner ? partner.firstName : null}
        groupView={groupView}
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
      <TypingLine text={typing} />
      {dialog.canWrite ? (
        <Composer
          onSend={onSend}
          onTyping={chat.notifyTyping}
          context={liveContext}
          onCancelContext={() => setContext(null)}
          mentionable={isGroup ? members.list : null}
          viewerId={viewerId}
        />
      ) : (
        <p className={styles.cannotWrite} data-testid="cannot-write">
          {gone === "left"
            ? t("group.leftLine")
            : gone === "removed"
              ? t("group.removedLine")
              : gone === "unknown"
                ? t("group.notMemberLine")
                : partner?.isDeleted
                  ? t("im.cannotWriteDeleted")
                  : dialog.messagesFriendsOnly && partner
                    ? t("im.cannotWriteFriendsOnly", { name: `${partner.firstName} ${partner.lastName}`.trim() })
                    : t("im.cannotWrite")}
        </p>
      )}
      <DeleteMessageDialog message={deleting} viewerId={viewerId} moderator={moderator} inGroup={isGroup} onClose={() => setDeleting(null)} onDelete={onDelete} />
      {isGroup ? (
        <>
          <MembersPanel
            open={membersOpen}
            onClose={() => setMembersOpen(false)}
            dialog={dialog}
            members={members}
            viewerId={viewerId}
            onReloadMembers={reloadMembers}
            onApplied={applied}
            muted={muted}
          />
          <ReadersDialog dialogId={dialog.id} message={readersOf} onClose={() => setReadersOf(null)} />
        </>
      ) : null}
    </section>
  );
}
