"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { mutate as mutateGlobal } from "swr";
import { FRIEND_REQUESTS_COUNT_KEY } from "@/components/layout/friend-requests-badge";
import { Button } from "@/components/ui/button";
import { CheckIcon } from "@/components/ui/icons";
import { api, ApiError } from "@/lib/client/api";
import { notify } from "@/lib/client/notify";
import type { NotificationDto } from "@/lib/validation/notifications-shared";
import styles from "./notifications.module.css";

type Answer = "accepted" | "declined";

/**
 * «Принять» / «Отклонить» under a friend request in the bell (issue 27): the existing friend calls
 * (PUT friends/{id}/approve, DELETE friends/{id}); once answered, the row says what was done.
 */
export function FriendRequestAnswer({ n }: { n: NotificationDto }) {
  const t = useTranslations("bell");
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const id = n.data.authorId;
  if (n.notificationType !== "FRIEND_REQUEST" || !n.data.requestPending || !n.data.author || id === null) return null;

  async function run(next: Answer) {
    if (busy) return;
    setBusy(true);
    try {
      await api(next === "accepted" ? `friends/${id}/approve` : `friends/${id}`, { method: next === "accepted" ? "PUT" : "DELETE" });
      setAnswer(next);
      void mutateGlobal(FRIEND_REQUESTS_COUNT_KEY);
    } catch (err) {
      notify({ status: "error", message: err instanceof ApiError && err.status < 500 ? err.message : t("answerFailed") });
    } finally {
      setBusy(false);
    }
  }

  if (answer) {
    return (
      <p className={styles.answered} role="status" data-testid="bell-request-answered">
        {t(answer)}
      </p>
    );
  }
  return (
    <div className={styles.answer} data-testid="bell-request-actions">
      <Button className={styles.answerButton} disabled={busy} onClick={() => void run("accepted")} data-testid="bell-accept">
        <CheckIcon size={16} />
        {t("accept")}
      </Button>
      <Button className={styles.answerButton} variant="secondary" disabled={busy} onClick={() => void run("declined")} data-testid="bell-decline">
        {t("decline")}
      </Button>
    </div>
  );
}
