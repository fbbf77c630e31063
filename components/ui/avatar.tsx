import type { CSSProperties } from "react";
import styles from "./avatar.module.css";

// Muted hues, each at least 4.5:1 against the white initials (WCAG AA for small text).
const HUES = ["#3b6bbf", "#3f7d52", "#9c5233", "#7048b0", "#2f7480", "#a8425f", "#5f6e23", "#4c5a96"];

export function initialsOf(firstName: string, lastName: string): string {
  return `${firstName.trim().charAt(0)}${lastName.trim().charAt(0)}`.toUpperCase() || "?";
}

/** The account photo, or its initials on a colour derived from the id (stable across pages). */
export function Avatar({
  id,
  firstName,
  lastName,
  photo,
  size = 36,
  alt,
}: {
  id: number;
  firstName: string;
  lastName: string;
  photo: string | null;
  size?: number;
  /** Text alternative; empty when the name is printed right beside the avatar. */
  alt: string;
}) {
  const style = { width: size, height: size, fontSize: Math.round(size * 0.38), "--avatar-bg": HUES[id % HUES.length] } as CSSProperties;
  return (
    <span className={styles.avatar} style={style} role={alt && !photo ? "img" : undefined} aria-label={alt && !photo ? alt : undefined}>
      {photo ? (
        // Photos come from our own storage in any size; next/image would need a loader for S3 too.
        // eslint-disable-next-line @next/next/no-img-element
        <img src={photo} alt={alt} width={size} height={size} />
      ) : (
        <span aria-hidden="true">{initialsOf(firstName, lastName)}</span>
      )}
    </span>
  );
}
