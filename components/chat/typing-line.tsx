"use client";

import { useTranslations } from "next-intl";
import styles from "./chat.module.css";

/** "Анна печатает…" above the composer; the line keeps its height so nothing jumps when it appears. */
export function TypingLine({ name, typing }: { name: string; typing: boolean }) {
  const t = useTranslations("im");
  return (
    <div className={styles.typingLine} aria-live="polite" data-testid="typing-line">
      {typing ? (
        <>
          <span className={styles.dots} aria-hidden="true">
            <span />
            <span />
            <span />
          </span>
          <span>{t("typing", { name })}…</span>
        </>
      ) : null}
    </div>
  );
}
