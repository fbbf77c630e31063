import { Fragment } from "react";
import { linkParts, TEXT_LINK_REL } from "@/lib/validation/linkify";
import styles from "./linked-text.module.css";

/**
 * Plain user text (a comment, a chat message) with its http(s) URLs as links that open in a new tab
 * (rel nofollow ugc noopener noreferrer); everything else is text that React escapes — no
 * dangerouslySetInnerHTML (issue 27, ADR 0131). Returns the runs without a wrapper; `inherit` links
 * take the text's colour (chat bubbles).
 */
export function LinkedText({ text, inherit = false }: { text: string; inherit?: boolean }) {
  return linkParts(text).map((p, i) =>
    typeof p === "string" ? (
      <Fragment key={i}>{p}</Fragment>
    ) : (
      <a key={i} href={p.href} target="_blank" rel={TEXT_LINK_REL} className={inherit ? `${styles.link} ${styles.inherit}` : styles.link}>
        {p.href}
      </a>
    ),
  );
}
