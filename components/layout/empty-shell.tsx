import type { ReactNode } from "react";
import styles from "./empty-shell.module.css";

/** The empty layout of spec section 2: no bars, just the content centred on the page. */
export function EmptyShell({ children }: { children: ReactNode }) {
  return <main className={styles.shell}>{children}</main>;
}
