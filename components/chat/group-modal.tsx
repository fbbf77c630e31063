"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { CloseIcon } from "@/components/ui/icons";
import styles from "./group.module.css";

/**
 * A modal <dialog> of the group screens (issue 41): the browser traps focus, Escape and a press on the
 * backdrop close it, and focus goes back to what opened it. Rendered only while open.
 */
export function GroupModal({
  open,
  onClose,
  title,
  closeLabel,
  children,
  footer,
  testId,
  wide = false,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  closeLabel: string;
  children: ReactNode;
  footer?: ReactNode;
  testId?: string;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const el = ref.current;
    if (!open || !el || el.open) return;
    el.showModal();
    // The field the person starts with (a new conversation's title), as the house's dialogs do.
    el.querySelector<HTMLElement>("[data-autofocus]")?.focus();
  }, [open]);

  if (!open || typeof document === "undefined") return null;
  return createPortal(
    <dialog
      ref={ref}
      className={wide ? `${styles.modal} ${styles.modalWide}` : styles.modal}
      aria-labelledby={titleId}
      data-testid={testId}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current) onClose();
      }}
    >
      <div className={styles.modalContent}>
        <div className={styles.modalHead}>
          <h2 id={titleId} className={styles.modalTitle}>
            {title}
          </h2>
          <button type="button" className={styles.modalClose} onClick={onClose} aria-label={closeLabel} title={closeLabel}>
            <CloseIcon size={18} />
          </button>
        </div>
        <div className={styles.modalBody}>{children}</div>
        {footer ? <div className={styles.modalFooter}>{footer}</div> : null}
      </div>
    </dialog>,
    document.body,
  );
}
