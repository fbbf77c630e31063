"use client";

import { useTranslations } from "next-intl";
import { useEffect, useEffectEvent, useId, useRef, useState, type ChangeEvent } from "react";
import { uploadImage } from "@/components/settings/upload-image";
import { Button } from "@/components/ui/button";
import { CloseIcon } from "@/components/ui/icons";
import { ImageIcon } from "@/components/ui/icons-more";
import { ApiError } from "@/lib/client/api";
import { messageText } from "@/lib/client/message-text";
import { MAX_UPLOAD_BYTES } from "@/lib/validation/storage";
import styles from "./post-form.module.css";

const ACCEPT = "image/jpeg,image/png,image/webp,image/gif,image/avif";

export type PostPhoto = ReturnType<typeof usePostPhoto>;

/**
 * The one photo of a post: picked, previewed at once, uploaded with visible progress to
 * POST post/storagePostPhoto?type=IMAGE; the stored path is what the post carries. Images only, 3 MB.
 * The preview and the button sit in different places of the form, so this is a hook with two parts.
 */
export function usePostPhoto(initial: string | null, initialFile: File | null = null) {
  const t = useTranslations("post.form");
  const tAll = useTranslations();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const upload = useRef<AbortController | null>(null);
  const [path, setPath] = useState<string | null>(initial);
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  useEffect(() => () => upload.current?.abort(), []);

  async function onPick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (file) await take(file);
  }

  async function take(file: File) {
    setError(null);
    if (!file.type.startsWith("image/")) {
      setError(tAll("uploadErrors.notAnImage"));
      return;
    }
    if (file.size > MAX_UPLOAD_BYTES) {
      setError(tAll("uploadErrors.tooLarge"));
      return;
    }
    upload.current?.abort();
    const controller = new AbortController();
    upload.current = controller;
    setPreview(URL.createObjectURL(file));
    setProgress(0);
    try {
      setPath(await uploadImage(file, setProgress, controller.signal, "post/storagePostPhoto?type=IMAGE"));
    } catch (err) {
      if (err instanceof DOMException && err.name === "AbortError") return;
      setError(err instanceof ApiError && err.message ? (messageText(tAll, err.message) ?? err.message) : t("photoFailed"));
    } finally {
      if (upload.current === controller) {
        upload.current = null;
        setPreview(null);
        setProgress(null);
      }
    }
  }

  // A photo that came with the form (the share sheet's, docs/adr/0179) takes the picker's way: same checks, same upload.
  const takeFirst = useEffectEvent((file: File) => take(file));
  const started = useRef(false);
  useEffect(() => {
    if (!initialFile || started.current) return;
    started.current = true;
    void takeFirst(initialFile);
  }, [initialFile]);

  function remove() {
    upload.current?.abort();
    upload.current = null;
    setPreview(null);
    setProgress(null);
    setError(null);
    setPath(null);
  }

  function reset() {
    remove();
  }

  const shown = preview ?? path;
  const uploading = progress !== null;

  const previewPart =
    shown || error ? (
      <div className={styles.photoField}>
        {shown ? (
          <figure className={styles.photoPreview} aria-busy={uploading}>
            {/* A local preview or our own stored image (see components/ui/avatar.tsx on next/image). */}
            {/* eslint-disable-next-line @next/next/no-img-element */}
            <img src={shown} alt={t("photoPreviewAlt")} />
            <button type="button" className={styles.photoRemove} aria-label={t("photoRemove")} onClick={remove}>
              <CloseIcon size={16} />
            </button>
            {uploading ? (
              <figcaption className={styles.photoProgress}>
                <progress max={100} value={progress} aria-labelledby={`${id}-progress`} />
                <span id={`${id}-progress`} role="status">
                  {t("photoUploading", { percent: progress })}
                </span>
              </figcaption>
            ) : null}
          </figure>
        ) : null}
        {error ? (
          <p className={styles.fieldError} role="alert">
            {error}
          </p>
        ) : null}
      </div>
    ) : null;

  const buttonPart = (
    <>
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="post-photo-input"
        onChange={(e) => void onPick(e)}
      />
      <Button variant="ghost" className={styles.barButton} data-hint="photo" onClick={() => input.current?.click()}>
        <ImageIcon size={18} />
        {shown ? t("photoChange") : t("photoAdd")}
      </Button>
    </>
  );

  return { path, uploading, reset, previewPart, buttonPart };
}
