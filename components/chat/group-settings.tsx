"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/text-field";
import { api, ApiError } from "@/lib/client/api";
import { messageText } from "@/lib/client/message-text";
import { useNow } from "@/lib/client/clock";
import { notify } from "@/lib/client/notify";
import { useReaderTimeZone } from "@/components/layout/time-zone";
import type { DialogDto } from "@/lib/validation/dialogs";
import { GROUP_TITLE_MAX, type MuteChoice } from "@/lib/validation/dialogs-shared";
import { GroupAvatar } from "./group-avatar";
import styles from "./group.module.css";

const ACCEPT = "image/jpeg,image/png,image/webp,image/gif,image/avif";

/** A refusal's text (the API's, already translated, or a chatErrors key), else the generic one. */
export function useFailureText() {
  const t = useTranslations("group");
  const tAll = useTranslations();
  return (err: unknown) => (err instanceof ApiError && err.status < 500 && err.message ? (messageText(tAll, err.message) ?? err.message) : t("actionFailed"));
}

/**
 * The top of the members panel (issue 41): the group's photo and title, which its owner and admins
 * change (PATCH dialogs/{id}), and the viewer's notifications: muted for an hour, eight hours, until
 * switched on, or on again (PUT dialogs/{id}/mute).
 */
export function GroupSettings({ dialog, muted, onApplied }: { dialog: DialogDto; muted: boolean; onApplied: (next: DialogDto) => void }) {
  const t = useTranslations("group");
  const format = useFormatter();
  const { zone: timeZone } = useReaderTimeZone();
  const now = useNow();
  const failureText = useFailureText();
  const titleId = useId();
  const file = useRef<HTMLInputElement>(null);
  const [title, setTitle] = useState(dialog.title ?? "");
  const [busy, setBusy] = useState<"title" | "photo" | "mute" | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const canEdit = !dialog.left && (dialog.role === "OWNER" || dialog.role === "ADMIN");
  const trimmed = title.trim();
  const titleChanged = trimmed.length > 0 && [...trimmed].length <= GROUP_TITLE_MAX && trimmed !== (dialog.title ?? "");

  async function patch(body: { title?: string; photo?: string | null }, kind: "title" | "photo", done: string) {
    setBusy(kind);
    setFailure(null);
    try {
      const next = await api<DialogDto>(`dialogs/${dialog.id}`, { method: "PATCH", body });
      onApplied(next);
      notify({ status: "success", message: done });
    } catch (err) {
      setFailure(failureText(err));
    } finally {
      setBusy(null);
    }
  }

  async function pickPhoto(picked: File | undefined) {
    if (!picked) return;
    setBusy("photo");
    setFailure(null);
    try {
      const { uploadImage } = await import("@/components/settings/upload-image");
      const path = await uploadImage(picked, () => {});
      await patch({ photo: path }, "photo", t("photoChanged"));
    } catch (err) {
      setFailure(failureText(err));
      setBusy(null);
    }
  }

  async function mute(duration: MuteChoice) {
    setBusy("mute");
    setFailure(null);
    try {
      onApplied(await api<DialogDto>(`dialogs/${dialog.id}/mute`, { method: "PUT", body: { duration } }));
    } catch (err) {
      setFailure(failureText(err));
    } finally {
      setBusy(null);
    }
  }

  const until = dialog.mutedUntil ? Date.parse(dialog.mutedUntil) : null;
  // "Until switched on" is stored as a time far ahead; anything beyond a month reads as that.
  const forever = until !== null && (!now || until - now > 31 * 86_400_000);
  const muteState = !muted
    ? t("notMuted")
    : forever || until === null
      ? t("mutedForever")
      : t("mutedUntil", { when: format.dateTime(new Date(until), { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZone }) });

  return (
    <div className={styles.settings} data-testid="group-settings">
      <div className={styles.identity}>
        <GroupAvatar photo={dialog.photo} collage={dialog.collage} title={dialog.title ?? ""} size={64} />
        {canEdit ? (
          <form
            className={styles.renameForm}
            onSubmit={(e) => {
              e.preventDefault();
              if (titleChanged) void patch({ title: trimmed }, "title", t("renamed"));
            }}
          >
            <label htmlFor={titleId} className={styles.fieldLabel}>
              {t("rename")}
            </label>
            <div className={styles.renameRow}>
              <input id={titleId} className={styles.input} value={title} maxLength={GROUP_TITLE_MAX} onChange={(e) => setTitle(e.target.value)} autoComplete="off" data-testid="group-title-input" />
              <Button type="submit" variant="secondary" disabled={!titleChanged || busy !== null}>
                {t("save")}
              </Button>
            </div>
          </form>
        ) : (
          <p className={styles.identityTitle}>{dialog.title}</p>
        )}
      </div>
      {canEdit ? (
        <div className={styles.actionsRow}>
          <input ref={file} type="file" accept={ACCEPT} className="visually-hidden" tabIndex={-1} aria-hidden="true" onChange={(e) => {
            const picked = e.target.files?.[0];
            e.target.value = "";
            void pickPhoto(picked);
          }} data-testid="group-photo-file" />
          <Button variant="secondary" onClick={() => file.current?.click()} disabled={busy !== null}>
            {busy === "photo" ? t("photoUploading") : t("changePhoto")}
          </Button>
          {dialog.photo ? (
            <Button variant="secondary" onClick={() => void patch({ photo: null }, "photo", t("photoChanged"))} disabled={busy !== null}>
              {t("removePhoto")}
            </Button>
          ) : null}
        </div>
      ) : null}
      {!dialog.left ? (
        <fieldset className={styles.mute} disabled={busy !== null} data-testid="group-mute">
          <legend className={styles.fieldLabel}>{t("notifications")}</legend>
          <p className={styles.muteState} data-testid="mute-state">
            {muteState}
          </p>
          <div className={styles.actionsRow}>
            {muted ? (
              <Button onClick={() => void mute("OFF")}>
                {t("unmute")}
              </Button>
            ) : null}
            <Button variant="secondary" onClick={() => void mute("HOUR")}>
              {t("muteHour")}
            </Button>
            <Button variant="secondary" onClick={() => void mute("EIGHT_HOURS")}>
              {t("muteEightHours")}
            </Button>
            <Button variant="secondary" onClick={() => void mute("FOREVER")}>
              {t("muteForever")}
            </Button>
          </div>
        </fieldset>
      ) : null}
      {failure ? <FormAlert>{failure}</FormAlert> : null}
    </div>
  );
}
