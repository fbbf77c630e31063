"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ApiError } from "@/lib/client/api";
import { messageText } from "@/lib/client/message-text";
import { dropDraft, isOffline, type Draft, type DraftKind } from "@/lib/pwa/device/drafts";
import styles from "./post-list.module.css";

/**
 * Posts or comments written without a network (docs/adr/0179), offered for sending where they were
 * written. «Отправить» sends the body as it was, with its clientId: a second tap, or a send whose answer
 * was lost, makes no second post or comment. The draft is dropped only once the server has it (`send`
 * resolved) or the person deletes it.
 */
export function DraftOffers({ kind, drafts, send, onChanged }: { kind: DraftKind; drafts: Draft[]; send: (draft: Draft) => Promise<void>; onChanged: () => void }) {
  const tPost = useTranslations("post.drafts");
  const tComment = useTranslations("comments.drafts");
  const t = kind === "post" ? tPost : tComment;
  const tAll = useTranslations();
  const [busy, setBusy] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function sendOne(draft: Draft) {
    setBusy(draft.clientId);
    setErrors((e) => ({ ...e, [draft.clientId]: "" }));
    try {
      await send(draft);
      await dropDraft(draft.clientId);
    } catch (err) {
      const text = !isOffline(err) && err instanceof ApiError ? (messageText(tAll, err.message) ?? err.message) : t("stillOffline");
      setErrors((e) => ({ ...e, [draft.clientId]: text }));
    } finally {
      setBusy(null);
      onChanged();
    }
  }

  async function discard(draft: Draft) {
    await dropDraft(draft.clientId).catch(() => {});
    onChanged();
  }

  if (drafts.length === 0) return null;
  return (
    <section className={styles.drafts} aria-label={t("label")} data-testid={`${kind}-drafts`}>
      {drafts.map((d) => (
        <div key={d.clientId} className={styles.draft} data-testid={`${kind}-draft`}>
          <p className={styles.draftText}>
            <strong>{t("offerTitle")}</strong> {t("offerText", { label: d.label })}
          </p>
          {errors[d.clientId] ? (
            <p className={styles.draftError} role="alert">
              {errors[d.clientId]}
            </p>
          ) : null}
          <div className={styles.draftActions}>
            <Button onClick={() => void sendOne(d)} disabled={busy !== null} data-testid={`${kind}-draft-send`}>
              {t("send")}
            </Button>
            <Button variant="ghost" onClick={() => void discard(d)} disabled={busy !== null} data-testid={`${kind}-draft-discard`}>
              {t("discard")}
            </Button>
          </div>
        </div>
      ))}
    </section>
  );
}
