"use client";

import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from "react";
import { AlertIcon } from "./icons";
import styles from "./field.module.css";

/** A labelled input with its error message tied to it for screen readers (aria-describedby). */
export function TextField({
  label,
  error,
  addon,
  ref,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string; addon?: ReactNode; ref?: Ref<HTMLInputElement> }) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <div className={styles.control}>
        <input
          id={id}
          ref={ref}
          className={`${styles.input} ${addon ? styles.withAddon : ""}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          {...input}
        />
        {addon}
      </div>
      {error ? (
        <p id={errorId} className={styles.error}>
          <AlertIcon size={16} />
          <span>{error}</span>
        </p>
      ) : null}
    </div>
  );
}

/** A form-level error (the server refused): announced at once. */
export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <div className={styles.alert} role="alert">
      <AlertIcon size={18} />
      <span>{children}</span>
    </div>
  );
}

export const fieldStyles = styles;
