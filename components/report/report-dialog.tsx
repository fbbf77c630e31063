"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { api, ApiError } from "@/lib/client/api";
import { notify } from "@/lib/client/notify";
import { REPORT_CATEGORIES, REPORT_COMMENT_MAX, type ReportCategory, type ReportTargetType } from "@/lib/validation/reports-shared";
import styles from "./report.module.css";

export type ReportTarget = { type: ReportTargetType; id: number };

/**
 * «Пожаловаться» (issue 26 section 1): the six categories, an optional comment with its counter, for a
 * message the warning that moderators will read it and up to five messages before it, and "also block this
 * person" (one step: the server blocks in the report's transaction). A repeat is answered in the dialog
 * (409: "you have already reported this"); success closes it with a toast.
 */
export function ReportDialog({ target, open, onOpenChange, canBlock = true }: { target: ReportTarget; open: boolean; onOpenChange: (open: boolean) => void; canBlock?: boolean }) {
  const t = useTranslations("report");
  const id = useId();
  const [category, setCategory] = useState<ReportCategory | null>(null);
  const [comment, setComment] = useState("");
  const [block, setBlock] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  function change(next: boolean) {
    if (next) {
      setCategory(null);
      setComment("");
      setBlock(false);
      setFailure(null);
    }
    onOpenChange(next);
  }

  async function send() {
    if (!category) {
      setFailure(t("chooseCategory"));
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      await api("reports", {
        method: "POST",
        body: { targetType: target.type, targetId: target.id, category, comment: comment.trim() || undefined, block: canBlock && block ? true : undefined },
      });
      onOpenChange(false);
      notify({ status: "success", message: block && canBlock ? t("sentAndBlocked") : t("sent") });
    } catch (err) {
      setFailure(err instanceof ApiError && err.status < 500 && err.message ? err.message : t("failed"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={change}
      title={t(`title${target.type}`)}
      text={target.type === "MESSAGE" ? t("messageWarning") : t("text")}
      busy={busy}
      busyLabel={t("sending")}
      failure={failure}
      cancelLabel={t("cancel")}
      confirmLabel={t("send")}
      safe
      onConfirm={() => void send()}
    >
      <fieldset className={styles.categories} data-testid="report-categories">
        <legend className={styles.legend}>{t("category")}</legend>
        {REPORT_CATEGORIES.map((c) => (
          <label key={c} className={styles.option}>
            <input type="radio" name={`${id}-category`} value={c} checked={category === c} onChange={() => setCategory(c)} />
            <span>{t(`categories.${c}`)}</span>
          </label>
        ))}
      </fieldset>
      <label className={styles.commentLabel} htmlFor={`${id}-comment`}>
        {t("comment")}
      </label>
      <textarea
        id={`${id}-comment`}
        className={styles.comment}
        value={comment}
        maxLength={REPORT_COMMENT_MAX}
        rows={3}
        aria-describedby={`${id}-counter`}
        onChange={(event) => setComment(event.target.value)}
      />
      <p id={`${id}-counter`} className={styles.counter}>
        {t("counter", { count: comment.length, max: REPORT_COMMENT_MAX })}
      </p>
      {canBlock ? (
        <label className={styles.option}>
          <input type="checkbox" checked={block} onChange={(event) => setBlock(event.target.checked)} />
          <span>{t("alsoBlock")}</span>
        </label>
      ) : null}
    </ConfirmDialog>
  );
}
