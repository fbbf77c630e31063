"use client";

import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { memo, type MouseEvent } from "react";
import { AlertIcon } from "@/components/ui/icons";
import type { LocalMessage } from "@/lib/client/chat/timeline";
import { Avatar } from "@/components/ui/avatar";
import Link from "@/components/ui/link";
import { splitMentions } from "@/lib/client/chat/group";
import type { MemberCard, MessageDto, MessageReplyPreview } from "@/lib/validation/dialogs";
import { ClockIcon, DoubleTickIcon, TickIcon } from "./chat-icons";
import report from "@/components/report/report.module.css";
import styles from "./chat.module.css";
import group from "./group.module.css";
import { MessageMenu, type MessageActions } from "./message-menu";
import { useChatFormat } from "./use-chat-format";
import { LinkedText } from "@/components/ui/linked-text";

/**
 * The photo grid and its viewer load with the first message that has photos (docs/adr/0134): a dialog
 * without photos does not carry them in its first load. Rendered on the server like the rest.
 */
const MessageImages = dynamic(() => import("./message-images").then((m) => m.MessageImages));

/**
 * The quote of the message a reply answers: who wrote it and the start of its text. In a sent message it
 * is a button that brings the original into view and highlights it.
 */
export function ReplyQuote({ reply, authorName, onJump }: { reply: MessageReplyPreview; authorName: string; onJump?: (id: number) => void }) {
  const t = useTranslations("im");
  const photos = reply.imageCount ?? 0;
  const text = reply.deleted ? t("messageDeleted") : reply.messageText || (photos > 1 ? t("photos", { count: photos }) : photos === 1 ? t("photo") : "");
  const body = (
    <>
      <span className={styles.quoteAuthor}>{authorName}</span>
      <span className={reply.deleted ? `${styles.quoteText} ${styles.deletedText}` : styles.quoteText}>{text}</span>
    </>
  );
  if (!onJump) return <span className={styles.quote}>{body}</span>;
  return (
    <button type="button" className={styles.quote} onClick={() => onJump(reply.id)} aria-label={t("jumpToOriginal", { text: `${authorName}: ${text}` })} data-testid="reply-quote">
      {body}
    </button>
  );
}

/**
 * A long press on a touch screen (and a right click) on a message opens its own menu instead of the
 * browser's, as in every messenger — unless text is selected, whose copy menu the person wants. The menu
 * button is told "Enter", so the menu opens (and loads, the first time) as from the keyboard.
 */
function openMenuInstead(event: MouseEvent<HTMLDivElement>) {
  if (window.getSelection()?.toString()) return;
  const trigger = event.currentTarget.querySelector<HTMLButtonElement>("button[aria-haspopup='menu']");
  if (!trigger) return;
  event.preventDefault();
  trigger.focus();
  trigger.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
}

/**
 * A group message's text with its @mentions set off (issue 41): the viewer's own as a highlight, the
 * others' in the link colour. Links in the plain parts stay links.
 */
function MentionedText({ text, people, viewerId }: { text: string; people: readonly MemberCard[]; viewerId: number }) {
  const parts = splitMentions(text, people);
  if (parts.length === 1 && parts[0].mentionOf === null) return <LinkedText text={text} inherit />;
  return (
    <>
      {parts.map((part, i) =>
        part.mentionOf === null ? (
          <LinkedText key={i} text={part.text} inherit />
        ) : part.mentionOf === viewerId ? (
          <mark key={i} className={group.mentionMe} data-testid="mention-me">
            {part.text}
          </mark>
        ) : (
          <span key={i} className={group.mention}>
            {part.text}
          </span>
        ),
      )}
    </>
  );
}

/** In a group: the sender's photo and name above the first of a run of their messages (not the viewer's own). */
function AuthorLine({ author }: { author: MemberCard }) {
  const name = `${author.firstName} ${author.lastName}`.trim();
  return (
    <Link href={`/profile/${author.id}`} className={group.author} data-testid="message-author">
      <Avatar id={author.id} firstName={author.firstName} lastName={author.lastName} photo={author.photo} size={24} alt="" />
      <span className={group.authorName}>{name}</span>
    </Link>
  );
}

/** An event line of a group's history, centred on a line of its own («Анна добавила Бориса»). */
export const EventLine = memo(function EventLine({ message, text }: { message: MessageDto; text: string }) {
  const f = useChatFormat();
  return (
    <div id={`message-${message.id}`} className={group.eventLine} data-testid="event-line" data-message-id={message.id} data-event={message.event?.type}>
      <span>
        {text}
        <time className={group.eventTime} dateTime={message.time}>
          {f.clock(message.time)}
        </time>
      </span>
    </div>
  );
});

/**
 * A stored message: its quote when it answers another, the text (or «Сообщение удалено»), «изменено»
 * after an edit, the time, and for the viewer's own one the tick (one: sent, two: read); beside it the
 * message's own menu (Reply, Edit, Delete, Report).
 */
export const MessageBubble = memo(function MessageBubble({
  message,
  mine,
  actions,
  nameOf,
  highlighted,
  author = null,
  mentionPeople = null,
}: {
  message: MessageDto;
  mine: boolean;
  actions: MessageActions;
  nameOf: (accountId: number) => string;
  highlighted: boolean;
  /** In a group, the first of a run of someone else's messages: their card above it. */
  author?: MemberCard | null;
  /** In a group: the members whose "@Name" the text may hold (its mentions). */
  mentionPeople?: readonly MemberCard[] | null;
}) {
  const t = useTranslations("im");
  const f = useChatFormat();
  const read = message.readStatus === "READ";
  const images = message.deleted ? [] : (message.images ?? []);
  const mentionsMe = !mine && !message.deleted && !!message.mentions?.includes(actions.viewerId);
  const mentioned = mentionPeople && message.mentions?.length ? mentionPeople.filter((p) => message.mentions!.includes(p.id)) : null;
  const bubble = (
    <div
      className={[styles.bubble, message.deleted ? styles.deletedBubble : "", images.length > 0 ? styles.withImages : "", mentionsMe ? group.mentionsMe : ""].filter(Boolean).join(" ")}
      data-mentions-me={mentionsMe || undefined}
    >
      {message.replyTo && !message.deleted ? <ReplyQuote reply={message.replyTo} authorName={nameOf(message.replyTo.authorId)} onJump={actions.jumpTo} /> : null}
      {images.length > 0 ? <MessageImages images={images} /> : null}
      {message.deleted || message.messageText ? (
        <p className={message.deleted ? `${styles.text} ${styles.deletedText}` : styles.text}>{message.deleted ? (
            t("messageDeleted")
          ) : mentioned && mentioned.length > 0 ? (
            <MentionedText text={message.messageText} people={mentioned} viewerId={actions.viewerId} />
          ) : (
            <LinkedText text={message.messageText} inherit />
          )}</p>
      ) : null}
      <span className={styles.meta}>
        {message.editedAt && !message.deleted ? (
          <span className={styles.edited} title={t("editedAt", { when: f.clock(message.editedAt) })} data-testid="edited">
            {t("edited")}
          </span>
        ) : null}
        <time dateTime={message.time}>{f.clock(message.time)}</time>
        {mine && !message.deleted ? (
          <span className={read ? `${styles.tick} ${styles.read}` : styles.tick} role="img" aria-label={read ? t("read") : t("sent")} data-testid="tick">
            {read ? <DoubleTickIcon size={16} /> : <TickIcon size={16} />}
          </span>
        ) : null}
      </span>
    </div>
  );
  return (
    <div
      id={`message-${message.id}`}
      className={[styles.row, mine ? styles.mine : "", highlighted ? styles.highlight : ""].filter(Boolean).join(" ")}
      data-testid="message"
      data-message-id={message.id}
      data-mine={mine || undefined}
      data-read-status={message.readStatus}
      data-deleted={message.deleted || undefined}
      data-highlighted={highlighted || undefined}
      data-author-id={message.authorId}
    >
      {author ? <AuthorLine author={author} /> : null}
      <div className={mine ? `${report.withMenu} ${styles.withMenuMine}` : report.withMenu} onContextMenu={openMenuInstead}>
        {bubble}
        <MessageMenu message={message} actions={actions} />
      </div>
    </div>
  );
});

/** The viewer's message on its way (a clock) or refused/lost (the reason, Retry and Delete). */
export function LocalBubble({
  message,
  onRetry,
  onDiscard,
  nameOf,
}: {
  message: LocalMessage;
  onRetry: (clientId: string) => void;
  onDiscard: (clientId: string) => void;
  nameOf: (accountId: number) => string;
}) {
  const t = useTranslations("im");
  const f = useChatFormat();
  const failed = message.state === "failed";
  return (
    <div className={`${styles.row} ${styles.mine}`} data-testid="message" data-mine data-state={message.state}>
      <div className={[styles.bubble, failed ? styles.failed : styles.pending, message.images?.length ? styles.withImages : ""].filter(Boolean).join(" ")}>
        {message.replyTo ? <ReplyQuote reply={message.replyTo} authorName={nameOf(message.replyTo.authorId)} /> : null}
        {message.images?.length ? <MessageImages images={message.images} /> : null}
        {message.text ? (
          <p className={styles.text}>
            <LinkedText text={message.text} inherit />
          </p>
        ) : null}
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
