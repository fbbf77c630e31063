"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/text-field";
import { api, ApiError } from "@/lib/client/api";
import { messageText } from "@/lib/client/message-text";
import type { DialogDto } from "@/lib/validation/dialogs";
import { GROUP_TITLE_MAX } from "@/lib/validation/dialogs-shared";
import { PeopleIcon } from "./chat-icons";
import { FriendPicker } from "./friend-picker";
import { GroupModal } from "./group-modal";
import styles from "./group.module.css";

/**
 * «Новая беседа» on /im (issue 41): a title and friends picked from the list (with a filter), then
 * POST dialogs {title, memberIds} and the new conversation's page.
 */
export function NewGroupButton() {
  const t = useTranslations("group");
  const tAll = useTranslations();
  const router = useRouter();
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState("");
  const [picked, setPicked] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const ready = title.trim().length > 0 && [...title.trim()].length <= GROUP_TITLE_MAX && picked.length > 0;

  function close() {
    if (busy) return;
    setOpen(false);
    setFailure(null);
  }

  async function create() {
    if (!ready || busy) return;
    setBusy(true);
    setFailure(null);
    try {
      const dialog = await api<DialogDto>("dialogs", { method: "POST", body: { title: title.trim(), memberIds: picked } });
      router.push(`/im/${dialog.id}`);
    } catch (err) {
      setFailure(err instanceof ApiError && err.status < 500 && err.message ? (messageText(tAll, err.message) ?? err.message) : t("createFailed"));
      setBusy(false);
    }
  }

  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)} data-testid="new-group">
        <PeopleIcon size={18} />
        <span>{t("newGroup")}</span>
      </Button>
      <GroupModal
        open={open}
        onClose={close}
        title={t("newGroupTitle")}
        closeLabel={t("close")}
        testId="new-group-dialog"
        footer={
          <>
            <Button variant="ghost" onClick={close} disabled={busy}>
              {t("cancel")}
            </Button>
            <Button onClick={() => void create()} disabled={!ready || busy} data-testid="create-group">
              {busy ? t("creating") : t("create")}
            </Button>
          </>
        }
      >
        <form
          className={styles.form}
          onSubmit={(e) => {
            e.preventDefault();
            void create();
          }}
        >
          <label htmlFor={titleId} className={styles.fieldLabel}>
            {t("titleLabel")}
          </label>
          <input
            id={titleId}
            className={styles.input}
            value={title}
            maxLength={GROUP_TITLE_MAX}
            placeholder={t("titlePlaceholder")}
            onChange={(e) => setTitle(e.target.value)}
            autoComplete="off"
            data-autofocus
          />
        </form>
        <FriendPicker picked={picked} onChange={setPicked} />
        {failure ? <FormAlert>{failure}</FormAlert> : null}
      </GroupModal>
    </>
  );
}
