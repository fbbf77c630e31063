import Link from "@/components/ui/link";
import type { ButtonHTMLAttributes, ComponentProps } from "react";
import styles from "./button.module.css";

type Look = { variant?: "primary" | "secondary" | "ghost"; block?: boolean; large?: boolean };

function classOf({ variant = "primary", block, large }: Look, extra?: string) {
  return [styles.button, styles[variant], block && styles.block, large && styles.large, extra].filter(Boolean).join(" ");
}

export function Button({ variant, block, large, className, type = "button", ...rest }: ButtonHTMLAttributes<HTMLButtonElement> & Look) {
  return <button type={type} className={classOf({ variant, block, large }, className)} {...rest} />;
}

/** A link that looks like a button (navigation, not an action). */
export function ButtonLink({ variant, block, large, className, ...rest }: ComponentProps<typeof Link> & Look) {
  return <Link className={classOf({ variant, block, large }, className)} {...rest} />;
}
