"use client";

import { useTranslations } from "next-intl";
import { useId, useLayoutEffect, useRef, useState } from "react";
import { COLLAPSE_WORDS, COLLAPSED_HEIGHT_PX, READ_MORE_WORDS } from "@/lib/client/post-text";
import styles from "./post-card.module.css";

/**
 * The text of a post (already sanitised HTML). Spec section 2: a text beyond 100 words starts
 * collapsed; "read more" is offered only above 65 words, and a text between 65 and 100 words collapses
 * only when it is taller than 150 px. "Hide" folds it again. On the post's own page (`full`) the text is
 * always whole (issue 27).
 */
export function PostTextBlock({ html, words, full = false }: { html: string; words: number; full?: boolean }) {
  const t = useTranslations("post.card");
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const [tall, setTall] = useState(words > COLLAPSE_WORDS);
  const [expanded, setExpanded] = useState(false);
  const collapsible = !full && words > READ_MORE_WORDS && (words > COLLAPSE_WORDS || tall);

  useLayoutEffect(() => {
    if (words <= READ_MORE_WORDS || words > COLLAPSE_WORDS || !box.current) return;
    setTall(box.current.scrollHeight > COLLAPSED_HEIGHT_PX);
  }, [html, words]);

  const collapsed = collapsible && !expanded;
  return (
    <>
      <div
        id={id}
        ref={box}
        className={`${styles.text} ${collapsed ? styles.collapsed : ""}`}
        style={collapsed ? { maxHeight: COLLAPSED_HEIGHT_PX } : undefined}
        data-testid="post-text"
        // Sanitised by the one post sanitiser (lib/validation/post-html.ts) right before this render.
        dangerouslySetInnerHTML={{ __html: html }}
      />
      {collapsible ? (
        <button type="button" className={styles.more} aria-expanded={expanded} aria-controls={id} onClick={() => setExpanded(!expanded)}>
          {expanded ? t("hide") : t("readMore")}
        </button>
      ) : null}
    </>
  );
}
