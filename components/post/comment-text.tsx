import { Fragment } from "react";
import styles from "./post-comments.module.css";

// http(s) links only; trailing punctuation stays text ("see https://x.ru." links https://x.ru).
const URL_RE = /\bhttps?:\/\/[^\s<>"']+/gi;
const TRAILING = /[.,;:!?)\]}»"']+$/;

/** The text split into plain runs and http(s) links, in order. */
export function linkParts(text: string): (string | { href: string })[] {
  const parts: (string | { href: string })[] = [];
  let at = 0;
  for (const match of text.matchAll(URL_RE)) {
    const raw = match[0];
    const href = raw.replace(TRAILING, "");
    const start = match.index;
    if (start > at) parts.push(text.slice(at, start));
    parts.push({ href });
    at = start + href.length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/** Plain text with its links made clickable; nothing else is interpreted (React escapes the rest). */
export function CommentText({ text }: { text: string }) {
  const parts = linkParts(text);
  return (
    <p className={styles.text} data-testid="comment-text">
      {parts.map((p, i) =>
        typeof p === "string" ? (
          <Fragment key={i}>{p}</Fragment>
        ) : (
          <a key={i} href={p.href} target="_blank" rel="noopener noreferrer nofollow ugc">
            {p.href}
          </a>
        ),
      )}
    </p>
  );
}
