"use client";

import { useTranslations } from "next-intl";
import { useHydrated } from "@/components/layout/use-hydrated";
import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState, type ChangeEvent } from "react";
import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { ImageIcon } from "@/components/ui/icons-more";
import { FormAlert } from "@/components/ui/text-field";
import { api, ApiError } from "@/lib/client/api";
import { messageText } from "@/lib/client/message-text";
import { notify } from "@/lib/client/notify";
import { MAX_UPLOAD_BYTES } from "@/lib/validation/storage";
import styles from "./settings-form.module.css";
import { uploadImage } from "./upload-image";

type Kind = "photo" | "profileCover";
type Owner = { id: number; firstName: string; lastName: string };

const TEXT = {
  photo: { title: "photo", hint: "photoText", alt: "photoAlt", choose: "choosePhoto", change: "changePhoto", remove: "removePhoto" },
  profileCover: { title: "cover", hint: "coverText", alt: "coverAlt", choose: "chooseCover", change: "changeCover", remove: "removeCover" },
} as const;

/**
 * The photo or the cover: pick a file, see it at once (a local preview) with the upload's progress,
 * then it is stored (POST /storage) and set on the account (PUT account/me). A refused file shows the
 * server's reason and leaves the account as it was.
 */
export function ImageSetting({ kind, owner, initial }: { kind: Kind; owner: Owner; initial: string | null }) {
  const t = useTranslations("settings");
  const tAll = useTranslations();
  const router = useRouter();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [saved, setSaved] = useState(initial);
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const text = TEXT[kind];
  const uploading = progress !== null;
  // Until hydration a click would do nothing; the controls say so by being disabled.
  const hydrated = useHydrated();
  const busy = uploading || !hydrated;

  // The local preview lives only while its upload runs.
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  async function save(path: string | null) {
    await api("account/me", { method: "PUT", body: { [kind]: path } });
    setSaved(path);
    notify({ status: "success", message: t("saved") });
    router.refresh(); // the top bar and the profile menu show the new photo
  }

  async function onPick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = ""; // picking the same file again must fire change again
    if (!file) return;
    setError(null);
    if (file.size > MAX_UPLOAD_BYTES) {
      setError(tAll("uploadErrors.tooLarge"));
      return;
    }
    setPreview(URL.createObjectURL(file));
    setProgress(0);
    try {
      const path = await uploadImage(file, setProgress);
      await save(path);
    } catch (err) {
      setError(err instanceof ApiError && err.message ? (messageText(tAll, err.message) ?? err.message) : t("uploadFailed"));
    } finally {
      setPreview(null);
      setProgress(null);
    }
  }

  async function onRemove() {
    setError(null);
    setProgress(0);
    try {
      await save(null);
    } catch (err) {
      setError(err instanceof ApiError && err.message ? err.message : t("saveFailed"));
    } finally {
      setProgress(null);
    }
  }

  const shown = preview ?? saved;
  return (
    <div className={kind === "photo" ? styles.photoSetting : styles.coverSetting} data-testid={`${kind}-setting`}>
      <div className={kind === "photo" ? styles.photoPreview : styles.coverPreview} aria-busy={uploading}>
        {kind === "photo" ? (
          <Avatar {...owner} photo={shown} size={96} alt={shown ? t(text.alt) : ""} />
        ) : shown ? (
          // Stored images are served in any size from our own storage (see components/ui/avatar.tsx).
          // eslint-disable-next-line @next/next/no-img-element
          <img src={shown} alt={t(text.alt)} className={styles.coverImage} />
        ) : (
          <span className={styles.coverEmpty}>
            <ImageIcon size={22} />
            {t("coverEmpty")}
          </span>
        )}
        {uploading && preview ? <span className={styles.previewShade} aria-hidden="true" /> : null}
      </div>
      <div className={styles.imageSide}>
        <h3 className={styles.imageTitle}>{t(text.title)}</h3>
        <p className={styles.hint}>{t(text.hint)}</p>
        {uploading && preview ? (
          <div className={styles.progress}>
            <progress max={100} value={progress} aria-labelledby={`${inputId}-progress`} />
            <span id={`${inputId}-progress`} role="status">
              {t("uploading", { percent: progress })}
            </span>
          </div>
        ) : null}
        {error ? <FormAlert>{error}</FormAlert> : null}
        <div className={styles.imageActions}>
          <input
            ref={input}
            id={inputId}
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
            className="visually-hidden"
            tabIndex={-1}
            aria-hidden="true"
            onChange={(e) => void onPick(e)}
          />
          <Button variant="secondary" disabled={busy} onClick={() => input.current?.click()}>
            {saved ? t(text.change) : t(text.choose)}
          </Button>
          {saved ? (
            <Button variant="ghost" disabled={busy} onClick={() => void onRemove()}>
              {t(text.remove)}
            </Button>
          ) : null}
        </div>
      </div>
    </div>
  );
}
