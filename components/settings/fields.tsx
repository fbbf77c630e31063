"use client";

import { useId, type ReactNode, type Ref, type SelectHTMLAttributes, type TextareaHTMLAttributes } from "react";
import { AlertIcon } from "@/components/ui/icons";
import { fieldStyles } from "@/components/ui/text-field";
import styles from "./settings-form.module.css";

function FieldError({ id, error }: { id: string; error?: string }) {
  if (!error) return null;
  return (
    <p id={id} className={fieldStyles.error}>
      <AlertIcon size={16} />
      <span>{error}</span>
    </p>
  );
}

/** A labelled native select (keyboard type-ahead and the phone's own picker come for free). */
export function SelectField({
  label,
  error,
  hint,
  ref,
  children,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; error?: string; hint?: string; ref?: Ref<HTMLSelectElement>; children: ReactNode }) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={fieldStyles.field}>
      <label htmlFor={id} className={fieldStyles.label}>
        {label}
      </label>
      <select
        id={id}
        ref={ref}
        className={`${fieldStyles.input} ${styles.select}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...select}
      >
        {children}
      </select>
      {hint ? (
        <p id={`${id}-hint`} className={styles.fieldHint}>
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}

/** A labelled textarea with a live character count. */
export function TextAreaField({
  label,
  error,
  count,
  ref,
  ...area
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; error?: string; count?: string; ref?: Ref<HTMLTextAreaElement> }) {
  const id = useId();
  return (
    <div className={fieldStyles.field}>
      <label htmlFor={id} className={fieldStyles.label}>
        {label}
      </label>
      <textarea
        id={id}
        ref={ref}
        className={`${fieldStyles.input} ${styles.textarea}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-count`}
        {...area}
      />
      {count ? (
        <p id={`${id}-count`} className={styles.counter}>
          {count}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} error={error} />
    </div>
  );
}
