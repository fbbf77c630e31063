import styles from "./spinner.module.css";

/** A spinner with what is being waited for; `inline`: a small one on a line of text, not a block of its own. */
export function Spinner({ label, inline }: { label: string; inline?: boolean }) {
  return (
    <div className={inline ? `${styles.wrap} ${styles.inline}` : styles.wrap} role="status" aria-live="polite">
      <span className={styles.spinner} aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
