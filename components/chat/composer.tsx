"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import { CheckIcon, CloseIcon } from "@/components/ui/icons";
import type { MessageDto } from "@/lib/validation/dialogs";
import { MESSAGE_TEXT_MAX } from "@/lib/validation/dialogs-shared";
import { SendIcon } from "./chat-icons";
import styles from "./chat.module.css";
import { ReplyQuote } from "./message-bubble";

/** What the composer is doing besides writing a new message: answering one, or editing the viewer's own. */
export type ComposerContext = { kind: "reply" | "edit"; message: MessageDto; authorName: string } | null;

/** Show the counter from here on: nobody needs it for a short message. */
const COUNTER_FROM = MESSAGE_TEXT_MAX - 500;
const MAX_HEIGHT_PX = 168;

/**
 * The message box: Enter sends, Shift+Enter breaks the line (and an IME composition is never cut
 * short). Text beyond the limit is refused with a note, never cut. Answering a message shows its quote
 * above the field; editing one puts its text in the field (the draft comes back afterwards). Escape
 * leaves either.
 */
export function Composer({
  onSend,
  onTyping,
  context = null,
  onCancelContext,
}: {
  onSend: (text: string) => void;
  onTyping: () => void;
  context?: ComposerContext;
  onCancelContext?: () => void;
}) {
  const t = useTranslations("im");
  const [text, setText] = useState("");
  const box = useRef<HTMLTextAreaElement>(null);
  const [draft, setDraft] = useState<string | null>(null);
  const editingId = context?.kind === "edit" ? context.message.id : null;
  const replyId = context?.kind === "reply" ? context.message.id : null;

  // Editing starts: the message's text in the field, the draft kept; it ends: the draft back.
  const [shownEditing, setShownEditing] = useState<number | null>(null);
  if (editingId !== shownEditing) {
    setShownEditing(editingId);
    if (editingId !== null) {
      if (draft === null) setDraft(text);
      setText(context?.message.messageText ?? "");
    } else if (draft !== null) {
      setText(draft);
      setDraft(null);
    }
  }

  useEffect(() => {
    if (editingId !== null || replyId !== null) box.current?.focus();
  }, [editingId, replyId]);
  const hintId = useId();
  const counterId = useId();
  const length = [...text.trim()].length;
  const tooLong = length > MESSAGE_TEXT_MAX;

  // Grow with the text up to a few lines, then scroll inside.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [text]);

  function submit() {
    const value = text.trim();
    if (!value || tooLong) return;
    onSend(value);
    if (editingId === null) setText("");
    box.current?.focus();
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === "Escape" && context && !e.nativeEvent.isComposing) {
      e.preventDefault();
      onCancelContext?.();
      return;
    }
    if (e.key !== "Enter" || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    submit();
  }

  return (
    <form
      className={styles.composer}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {context ? (
        <div className={styles.composerBar} data-testid={context.kind === "edit" ? "composer-editing" : "composer-reply"}>
          <ReplyQuote
            reply={{ id: context.message.id, authorId: context.message.authorId, messageText: context.message.messageText, deleted: false }}
            authorName={context.kind === "edit" ? t("editing") : t("replyingTo", { name: context.authorName })}
          />
          <button type="button" className={styles.barClose} onClick={onCancelContext} aria-label={context.kind === "edit" ? t("cancelEdit") : t("cancelReply")} title={context.kind === "edit" ? t("cancelEdit") : t("cancelReply")}>
            <CloseIcon size={18} />
          </button>
        </div>
      ) : null}
      <label htmlFor="chat-composer" className="visually-hidden">
        {t("composerLabel")}
      </label>
      <textarea
        id="chat-composer"
        ref={box}
        className={styles.input}
        rows={1}
        value={text}
        placeholder={t("composerPlaceholder")}
        aria-describedby={`${hintId} ${counterId}`}
        aria-invalid={tooLong || undefined}
        enterKeyHint="send"
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value.trim()) onTyping();
        }}
        onKeyDown={onKeyDown}
      />
      <button type="submit" className={styles.send} disabled={!length || tooLong} aria-label={editingId !== null ? t("save") : t("send")} title={editingId !== null ? t("save") : t("send")}>
        {editingId !== null ? <CheckIcon size={20} /> : <SendIcon size={20} />}
      </button>
      <p id={hintId} className="visually-hidden">
        {t("composerHint")}
      </p>
      <p id={counterId} className={tooLong ? `${styles.counter} ${styles.over}` : styles.counter} aria-live="polite">
        {tooLong ? t("tooLong", { max: MESSAGE_TEXT_MAX }) : length >= COUNTER_FROM ? t("counter", { length, max: MESSAGE_TEXT_MAX }) : ""}
      </p>
    </form>
  );
}
