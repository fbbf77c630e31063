import type { ReactNode } from "react";
import styles from "./auth-frame.module.css";

/** One auth page inside the form layout's card: heading, one explanatory sentence, the form area, links. */
export function AuthFrame({
  heading,
  text,
  icon,
  children,
  footer,
}: {
  heading: string;
  text?: string;
  icon?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className={styles.frame}>
      {icon ? <div className={styles.icon}>{icon}</div> : null}
      <h1 className={styles.heading}>{heading}</h1>
      {text ? <p className={styles.text}>{text}</p> : null}
      {children ? <div className={styles.body}>{children}</div> : null}
      {footer ? <div className={styles.footer}>{footer}</div> : null}
    </div>
  );
}
