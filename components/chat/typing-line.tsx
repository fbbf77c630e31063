"use client";

import styles from "./chat.module.css";

/**
 * «Анна печатает…» («Анна и Борис печатают…», «Несколько человек печатают…» in a group) above the
 * composer; "" shows nothing. The line keeps its height so nothing jumps when it appears.
 */
export function TypingLine({ text }: { text: string }) {
  return (
    <div className={styles.typingLine} aria-live="polite" data-testid="typing-line">
      {text ? (
        <>
          <span className={styles.dots} aria-hidden="true">
            <span />
            <span />
            <span />
          </span>
          <span>{text}…</span>
        </>
      ) : null}
    </div>
  );
}
