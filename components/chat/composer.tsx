"use client";

import { useTranslations } from "next-intl";
import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import { MESSAGE_TEXT_MAX } from "@/lib/validation/dialogs";
import { SendIcon } from "./chat-icons";
import styles from "./chat.module.css";

/** Show the counter from here on: nobody needs it for a short message. */
const COUNTER_FROM = MESSAGE_TEXT_MAX - 500;
const MAX_HEIGHT_PX = 168;

/**
 * The message box: Enter sends, Shift+Enter breaks the line (and an IME composition is never cut
 * short). Text beyond the limit is refused with a note, never cut.
 */
export function Composer({ onSend, onTyping }: { onSend: (text: string) => void; onTyping: () => void }) {
  const t = useTranslations("im");
  const [text, setText] = useState("");
  const box = useRef<HTMLTextAreaElement>(null);
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
    setText("");
    box.current?.focus();
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
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
      <button type="submit" className={styles.send} disabled={!length || tooLong} aria-label={t("send")} title={t("send")}>
        <SendIcon size={20} />
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
