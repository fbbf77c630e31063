import { LinkedText } from "@/components/ui/linked-text";
import styles from "./post-comments.module.css";

// http(s) links only, by the one linear scanner of lib/validation/linkify.ts (issue 27, ADR 0131).
export { linkParts } from "@/lib/validation/linkify";

/** Plain text with its links made clickable; nothing else is interpreted (React escapes the rest). */
export function CommentText({ text }: { text: string }) {
  return (
    <p className={styles.text} data-testid="comment-text">
      <LinkedText text={text} />
    </p>
  );
}
