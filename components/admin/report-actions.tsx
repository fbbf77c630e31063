"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { mutate } from "swr";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CheckCircleIcon, LockIcon, UserMinusIcon } from "@/components/ui/icons-more";
import { api, ApiError } from "@/lib/client/api";
import { notify } from "@/lib/client/notify";
import type { ReportAction, ReportTargetType } from "@/lib/validation/reports-shared";
import { OPEN_REPORTS_COUNT_KEY } from "./open-reports-badge";
import styles from "./admin-ui.module.css";
import { ReasonField } from "./reason-field";
import queue from "./reports-queue.module.css";

/** Periods of BLOCK_AUTHOR offered in the dialog; "" is for good. */
const PERIODS = ["1", "7", "30", ""] as const;

/**
 * The three resolutions of a queue row (issue 26): dismiss, block the content (posts, comments and, issue 42,
 * communities), block the author (of a community: its owner; for a period or for good). Each asks in the confirmation dialog of ADR 0118 with a
 * required reason, which goes to the audit log and the blocked person's sign-in refusal.
 */
export function ReportActions({ groupId, targetType, authorName }: { groupId: number; targetType: ReportTargetType; authorName: string | null }) {
  const t = useTranslations("reports");
  const router = useRouter();
  const id = useId();
  const [asking, setAsking] = useState<ReportAction | null>(null);
  const [reason, setReason] = useState("");
  const [period, setPeriod] = useState<(typeof PERIODS)[number]>("7");
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  function open(action: ReportAction) {
    setReason("");
    setMissing(false);
    setFailure(null);
    setPeriod("7");
    setAsking(action);
  }

  async function run() {
    if (!asking) return;
    if (!reason.trim()) {
      setMissing(true);
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      const days = asking === "BLOCK_AUTHOR" && period ? Number(period) : undefined;
      await api(`admin/reports/${groupId}`, { method: "PUT", body: { action: asking, reason: reason.trim(), days } });
      setAsking(null);
      notify({ status: "success", message: t(`done${named(asking)}`) });
      void mutate(OPEN_REPORTS_COUNT_KEY);
      router.refresh();
    } catch (err) {
      setFailure(err instanceof ApiError && err.status < 500 && err.message ? err.message : t("actionFailed"));
    } finally {
      setBusy(false);
    }
  }

  const contentBlockable = targetType === "POST" || targetType === "COMMENT" || targetType === "COMMUNITY";
  // A community's two blocks are named as what they block: the community, its owner.
  const named = (action: ReportAction) =>
    targetType !== "COMMUNITY" || action === "DISMISS" ? action : action === "BLOCK_CONTENT" ? "BLOCK_COMMUNITY" : "BLOCK_OWNER";
  return (
    <div className={queue.actions}>
      <button type="button" className={`${styles.action} ${styles.actionUnblock}`} aria-haspopup="dialog" onClick={() => open("DISMISS")} data-testid={`dismiss-${groupId}`}>
        <CheckCircleIcon size={18} />
        <span>{t("DISMISS")}</span>
      </button>
      {contentBlockable ? (
        <button type="button" className={`${styles.action} ${styles.actionBlock}`} aria-haspopup="dialog" onClick={() => open("BLOCK_CONTENT")} data-testid={`block-content-${groupId}`}>
          <LockIcon size={18} />
          <span>{t(named("BLOCK_CONTENT"))}</span>
        </button>
      ) : null}
      {authorName ? (
        <button type="button" className={`${styles.action} ${styles.actionBlock}`} aria-haspopup="dialog" onClick={() => open("BLOCK_AUTHOR")} data-testid={`block-author-${groupId}`}>
          <UserMinusIcon size={18} />
          <span>{t(named("BLOCK_AUTHOR"))}</span>
        </button>
      ) : null}
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(next) => !next && setAsking(null)}
        title={asking ? t(`confirm${named(asking)}Title`) : ""}
        text={asking ? t(`confirm${named(asking)}Text`, { name: authorName ?? "" }) : ""}
        busy={busy}
        failure={failure}
        cancelLabel={t("cancel")}
        confirmLabel={asking ? t(named(asking)) : ""}
        safe={asking === "DISMISS"}
        onConfirm={() => void run()}
      >
        {asking === "BLOCK_AUTHOR" ? (
          <div className={queue.period}>
            <label htmlFor={`${id}-period`}>{t("period")}</label>
            <select id={`${id}-period`} className={styles.select} value={period} onChange={(event) => setPeriod(event.target.value as (typeof PERIODS)[number])}>
              {PERIODS.map((p) => (
                <option key={p} value={p}>
                  {p ? t("periodDays", { days: Number(p) }) : t("periodForever")}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <ReasonField value={reason} missing={missing} onChange={setReason} onEnter={() => void run()} />
      </ConfirmDialog>
    </div>
  );
}
