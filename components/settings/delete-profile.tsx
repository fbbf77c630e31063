"use client";

import { useTranslations } from "next-intl";
import { useHydrated } from "@/components/layout/use-hydrated";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
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
    <>
      <p className={styles.sectionText}>{t("deleteText", { days: restoreDays })}</p>
      <Button variant="secondary" className={styles.danger} disabled={!hydrated} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {t("deleteButton")}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          setFailure(null);
        }}
        title={t("deleteConfirmTitle")}
        text={t("deleteConfirmText", { days: restoreDays })}
        failure={failure}
        busy={busy}
        cancelLabel={t("deleteCancel")}
        confirmLabel={t("deleteConfirm")}
        busyLabel={t("deleting")}
        onConfirm={() => void confirm()}
      />
    </>
  );
}
