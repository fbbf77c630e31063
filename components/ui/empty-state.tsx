import type { ReactNode } from "react";
import styles from "./empty-state.module.css";

/** The designed "nothing here yet" block: an icon badge, a title, one sentence and the next step. */
export function EmptyState({
  icon,
  title,
  text,
  children,
  compact,
  headingLevel = 2,
}: {
  icon: ReactNode;
  title: ReactNode;
  text?: ReactNode;
  children?: ReactNode;
  compact?: boolean;
  headingLevel?: 1 | 2 | 3;
}) {
  const Heading = (["h1", "h2", "h3"] as const)[headingLevel - 1];
  return (
    <div className={[styles.empty, compact && styles.compact].filter(Boolean).join(" ")}>
      <div className={styles.badge}>{icon}</div>
      <Heading className={styles.title}>{title}</Heading>
      {text ? <p className={styles.text}>{text}</p> : null}
      {children ? <div className={styles.actions}>{children}</div> : null}
    </div>
  );
}
