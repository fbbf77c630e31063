"use client";

import * as AlertDialog from "@radix-ui/react-alert-dialog";
import type { ReactNode } from "react";
import { Button } from "./button";
import { FormAlert } from "./text-field";
import styles from "./confirm-dialog.module.css";

export type ConfirmDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  text: ReactNode;
  cancelLabel: string;
  confirmLabel: string;
  onConfirm: () => void;
  /** While true the dialog can't be closed and both buttons wait. */
  busy?: boolean;
  busyLabel?: string;
  /** A refusal of the last attempt, shown above the buttons. */
  failure?: string | null;
  /** Fields the action needs (a moderation reason), below the text. */
  children?: ReactNode;
  /** The action undoes a harsh one (unblock): the confirm button is the plain primary, not the danger colour. */
  safe?: boolean;
};

/**
 * The one confirmation for irreversible or harsh actions (delete a profile, delete a post, block
 * someone): a Radix alert dialog, so focus, Escape and screen readers behave; the confirm button is
 * the danger colour.
 */
export function RadixConfirmDialog({ open, onOpenChange, title, text, cancelLabel, confirmLabel, onConfirm, busy = false, busyLabel, failure, children, safe = false }: ConfirmDialogProps) {
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={styles.overlay} />
        <AlertDialog.Content className={styles.dialog}>
          <AlertDialog.Title className={styles.title}>{title}</AlertDialog.Title>
          <AlertDialog.Description className={styles.text}>{text}</AlertDialog.Description>
          {children}
          {failure ? <FormAlert>{failure}</FormAlert> : null}
          <div className={styles.actions}>
            <AlertDialog.Cancel asChild>
              <Button variant="ghost" disabled={busy}>
                {cancelLabel}
              </Button>
            </AlertDialog.Cancel>
            <Button className={safe ? undefined : styles.danger} disabled={busy} onClick={onConfirm}>
              {busy && busyLabel ? busyLabel : confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
