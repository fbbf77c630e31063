"use client";

import { useTranslations } from "next-intl";
import { useRef, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { useHydrated } from "@/components/layout/use-hydrated";
import { Button } from "@/components/ui/button";
import { CloseIcon } from "@/components/ui/icons";
import styles from "./policy-dialog.module.css";

export type PolicyKind = "privacy" | "transfer";

const PARAGRAPHS: Record<PolicyKind, readonly string[]> = {
  privacy: ["privacy1", "privacy2", "privacy3", "privacy4"],
  transfer: ["transfer1", "transfer2", "transfer3"],
};

/**
 * A link-looking button in the consent line that opens the document in a modal <dialog> (the
 * browser traps focus, closes on Escape and returns focus to the button). The dialog lives in
 * document.body, outside the form's layout (and any label a caller may wrap around the link).
 */
export function PolicyLink({ kind, children }: { kind: PolicyKind; children: ReactNode }) {
  const t = useTranslations("identity");
  const tc = useTranslations("common");
  const dialog = useRef<HTMLDialogElement>(null);
  const hydrated = useHydrated();
  const titleId = `policy-${kind}-title`;
  const content = (
    <dialog
      ref={dialog}
      className={styles.dialog}
      aria-labelledby={titleId}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself, outside its content) closes it.
        if (event.target === dialog.current) dialog.current.close();
      }}
    >
      <div className={styles.content}>
        <div className={styles.head}>
          <h2 id={titleId} className={styles.title}>
            {t(`${kind}Title`)}
          </h2>
          <button type="button" className={styles.close} onClick={() => dialog.current?.close()} aria-label={tc("close")}>
            <CloseIcon size={18} />
          </button>
        </div>
        <div className={styles.body}>
          {PARAGRAPHS[kind].map((key) => (
            <p key={key}>{t(key)}</p>
          ))}
        </div>
        <div className={styles.actions}>
          <Button onClick={() => dialog.current?.close()}>{t("policyRead")}</Button>
        </div>
      </div>
    </dialog>
  );
  return (
    <>
      <button type="button" className={styles.link} onClick={() => dialog.current?.showModal()}>
        {children}
      </button>
      {hydrated ? createPortal(content, document.body) : null}
    </>
  );
}
