"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { Avatar } from "@/components/ui/avatar";
import Link from "@/components/ui/link";
import { Spinner } from "@/components/ui/spinner";
import { api } from "@/lib/client/api";
import type { MessageDto, MessageReaderDto } from "@/lib/validation/dialogs";
import type { Paged } from "@/lib/validation/friends-shared";
import { MEMBER_PAGE_MAX } from "@/lib/validation/dialogs-shared";
import { GroupModal } from "./group-modal";
import styles from "./group.module.css";

type Readers = { message: number; list: MessageReaderDto[]; total: number; state: "ready" | "error" } | null;

/** «Кто прочитал» of the viewer's own group message (GET dialogs/{id}/messages/{messageId}/readers; issue 41). */
export function ReadersDialog({ dialogId, message, onClose }: { dialogId: number; message: MessageDto | null; onClose: () => void }) {
  const t = useTranslations("group");
  const [readers, setReaders] = useState<Readers>(null);
  const [page, setPage] = useState(0);
  const messageId = message?.id ?? null;

  useEffect(() => {
    if (messageId === null) return;
    let cancelled = false;
    api<Paged<MessageReaderDto>>(`dialogs/${dialogId}/messages/${messageId}/readers?page=${page}&size=${MEMBER_PAGE_MAX}`)
      .then((answer) => {
        if (cancelled) return;
        setReaders((prev) => ({
          message: messageId,
          list: page > 0 && prev?.message === messageId ? [...prev.list, ...answer.content] : answer.content,
          total: answer.totalElements,
          state: "ready",
        }));
      })
      .catch((err: unknown) => {
        console.error("loading the readers failed", err);
        if (!cancelled) setReaders({ message: messageId, list: [], total: 0, state: "error" });
      });
    return () => {
      cancelled = true;
    };
  }, [dialogId, messageId, page]);

  const shown = readers && readers.message === messageId ? readers : null;
  return (
    <GroupModal
      open={message !== null}
      onClose={() => {
        setPage(0);
        setReaders(null);
        onClose();
      }}
      title={shown && shown.total > 0 ? `${t("readersTitle")} · ${shown.total}` : t("readersTitle")}
      closeLabel={t("close")}
      testId="readers-dialog"
    >
      {!shown ? (
        <div className={styles.loading}>
          <Spinner label={t("readers")} />
        </div>
      ) : shown.state === "error" ? (
        <p className={styles.note} role="alert">
          {t("readersFailed")}
        </p>
      ) : shown.list.length === 0 ? (
        <p className={styles.note}>{t("readersNone")}</p>
      ) : (
        <>
          <ul className={styles.people}>
            {shown.list.map((r) => (
              <li key={r.id}>
                <Link href={`/profile/${r.id}`} className={styles.person} data-testid="reader">
                  <Avatar id={r.id} firstName={r.firstName} lastName={r.lastName} photo={r.photo} size={36} alt="" />
                  <span className={styles.personName}>{`${r.firstName} ${r.lastName}`.trim()}</span>
                </Link>
              </li>
            ))}
          </ul>
          {shown.list.length < shown.total ? (
            <button type="button" className={styles.textButton} onClick={() => setPage((p) => p + 1)}>
              {t("loadMore")}
            </button>
          ) : null}
        </>
      )}
    </GroupModal>
  );
}
