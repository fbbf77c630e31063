"use client";

import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { useTranslations } from "next-intl";
import { useHydrated } from "@/components/layout/use-hydrated";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/text-field";
import { api, ApiError } from "@/lib/client/api";
import styles from "./settings-form.module.css";

/**
 * Profile deletion behind a confirmation (spec section 2). DELETE account/me flags the account; the
 * refreshed layout then shows the deleted-account screen with its restore button.
 */
export function DeleteProfile({ restoreDays }: { restoreDays: number }) {
  const t = useTranslations("settings");
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const hydrated = useHydrated();

  async function confirm() {
    setBusy(true);
    setFailure(null);
    try {
      await api("account/me", { method: "DELETE" });
      setOpen(false);
      router.refresh();
    } catch (err) {
      setFailure(err instanceof ApiError && err.message ? err.message : t("deleteFailed"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        if (busy) return;
        setOpen(next);
        setFailure(null);
      }}
    >
      <p className={styles.sectionText}>{t("deleteText", { days: restoreDays })}</p>
      <AlertDialog.Trigger asChild>
        <Button variant="secondary" className={styles.danger} disabled={!hydrated}>
          {t("deleteButton")}
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={styles.overlay} />
        <AlertDialog.Content className={styles.dialog}>
          <AlertDialog.Title className={styles.dialogTitle}>{t("deleteConfirmTitle")}</AlertDialog.Title>
          <AlertDialog.Description className={styles.dialogText}>{t("deleteConfirmText", { days: restoreDays })}</AlertDialog.Description>
          {failure ? <FormAlert>{failure}</FormAlert> : null}
          <div className={styles.dialogActions}>
            <AlertDialog.Cancel asChild>
              <Button variant="ghost" disabled={busy}>
                {t("deleteCancel")}
              </Button>
            </AlertDialog.Cancel>
            <Button className={styles.dangerSolid} disabled={busy} onClick={() => void confirm()}>
              {busy ? t("deleting") : t("deleteConfirm")}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
