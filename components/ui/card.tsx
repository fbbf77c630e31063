import type { HTMLAttributes, ReactNode } from "react";
import styles from "./card.module.css";

export function Card({ padded, className, ...rest }: HTMLAttributes<HTMLElement> & { padded?: boolean }) {
  return <section className={[styles.card, padded && styles.padded, className].filter(Boolean).join(" ")} {...rest} />;
}

/** A card's title row; `as` keeps the document outline right (h1 on a page's first card). */
export function CardHeader({ title, as: Heading = "h2", children }: { title: ReactNode; as?: "h1" | "h2"; children?: ReactNode }) {
  return (
    <div className={styles.header}>
      <Heading className={styles.title}>{title}</Heading>
      {children}
    </div>
  );
}
