"use client";

import dynamic from "next/dynamic";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect, useMemo, useState } from "react";
import { uploadImage } from "@/components/settings/upload-image";
import type { ComposerViewer } from "@/components/post/post-composer";
import postStyles from "@/components/post/post-list.module.css";
import { GroupAvatar } from "@/components/chat/group-avatar";
import { Avatar } from "@/components/ui/avatar";
import { Button, ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { AlertIcon } from "@/components/ui/icons";
import { ImageIcon } from "@/components/ui/icons-more";
import { api, ApiError } from "@/lib/client/api";
import { newClientId } from "@/lib/client/chat/client-id";
import { dialogName } from "@/lib/client/chat/group";
import { messageText } from "@/lib/client/message-text";
import { notify } from "@/lib/client/notify";
import { dropShare, readShare, type StoredShare } from "@/lib/pwa/device/share-store";
import type { DialogDto } from "@/lib/validation/dialogs";
import { SHARE_PHOTO_BYTES_MAX, SHARE_PHOTOS_MAX, SHARE_TEXT_MAX, type ShareError } from "@/lib/validation/share";
import { sharedMessageText, sharedPostHtml, sharedPostTitle } from "./share-text";
import styles from "./share.module.css";

const PostForm = dynamic(() => import("@/components/post/post-form").then((m) => m.PostForm), { ssr: false });

type Mode = "choose" | "post" | "dialog";

/**
 * What the share sheet brought (docs/adr/0179), read from the device: a preview, then a post (the
 * composer filled with it) or a conversation (its photos and text sent there as one message). A refused
 * share shows why; nothing was kept of it.
 */
export function ShareChooser({ viewer, error }: { viewer: ComposerViewer; error: ShareError | null }) {
  const t = useTranslations("share");
  const router = useRouter();
  const [share, setShare] = useState<StoredShare | null | "loading">(error ? null : "loading");
  const [mode, setMode] = useState<Mode>("choose");

  useEffect(() => {
    if (error) return;
    let cancelled = false;
    readShare()
      .catch(() => null)
      .then((found) => !cancelled && setShare(found));
    return () => {
      cancelled = true;
    };
  }, [error]);

  const previews = useMemo(() => (share && share !== "loading" ? share.photos.map((p) => URL.createObjectURL(p)) : []), [share]);
  useEffect(() => () => previews.forEach((u) => URL.revokeObjectURL(u)), [previews]);

  if (error) {
    return (
      <div className={styles.card} data-testid="share-refused">
        <EmptyState
          icon={<AlertIcon size={28} />}
          headingLevel={1}
          title={t("refusedTitle")}
          text={<span role="alert">{t(`errors.${error}`, { max: error === "tooManyPhotos" ? SHARE_PHOTOS_MAX : SHARE_TEXT_MAX, size: SHARE_PHOTO_BYTES_MAX / (1024 * 1024) })}</span>}
        >
          <ButtonLink href="/">{t("toFeed")}</ButtonLink>
        </EmptyState>
      </div>
    );
  }
  if (share === "loading") {
    return (
      <p className={styles.intro} role="status">
        {t("loading")}
      </p>
    );
  }
  if (share === null) {
    return (
      <div className={styles.card} data-testid="share-nothing">
        <EmptyState icon={<ImageIcon size={28} />} headingLevel={1} title={t("nothingTitle")} text={t("nothingText")}>
          <ButtonLink href="/">{t("toFeed")}</ButtonLink>
        </EmptyState>
      </div>
    );
  }

  const done = async (to: string) => {
    await dropShare().catch(() => {});
    router.push(to);
  };

  if (mode === "post") {
    return (
      <>
        <h1 className={styles.heading}>{t("heading")}</h1>
        {share.photos.length > 1 ? <p className={styles.pageNote}>{t("onePhotoNote")}</p> : null}
        <section className={postStyles.composer} data-testid="share-post">
          <PostForm
            viewerId={viewer.id}
            draft={{ title: sharedPostTitle(share, t("postTitle")), html: sharedPostHtml(share), photo: share.photos[0] ?? null }}
            onCancel={() => setMode("choose")}
            onKeptOffline={() => void done("/")}
            onSaved={() => {
              notify({ status: "success", message: t("posted") });
              void done("/");
            }}
          />
        </section>
      </>
    );
  }

  return (
    <>
      <h1 className={styles.heading}>{t("heading")}</h1>
      <div className={styles.card} data-testid="share-chooser">
        <p className={styles.intro}>{t("intro")}</p>
        <div className={styles.preview} data-testid="share-preview">
          {share.title ? <p className={styles.title}>{share.title}</p> : null}
          {share.text ? <p className={styles.text}>{share.text}</p> : null}
          {share.url ? (
            <p className={styles.link}>
              <span className="visually-hidden">{t("link")}: </span>
              {share.url}
            </p>
          ) : null}
          {share.photos.length > 0 ? (
            <>
              <p className={styles.count}>{t("photos", { count: share.photos.length })}</p>
              <ul className={styles.photos}>
                {previews.map((src, i) => (
                  <li key={src}>
                    {/* A local preview of a file on the device (see components/ui/avatar.tsx on next/image). */}
                    {/* eslint-disable-next-line @next/next/no-img-element */}
                    <img src={src} alt={t("photoAlt", { number: i + 1 })} />
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
        {mode === "dialog" ? (
          <DialogPicker share={share} onBack={() => setMode("choose")} onSent={(dialogId) => void done(`/im/${dialogId}`)} />
        ) : (
          <div className={styles.actions}>
            <Button onClick={() => setMode("post")} data-testid="share-to-post">
              {t("toPost")}
            </Button>
            <Button variant="secondary" onClick={() => setMode("dialog")} data-testid="share-to-dialog">
              {t("toDialog")}
            </Button>
            <Button
              variant="ghost"
              onClick={() => {
                notify({ status: "response", message: t("discarded") });
                void done("/");
              }}
            >
              {t("discard")}
            </Button>
          </div>
        )}
      </div>
    </>
  );
}

/** The conversations to send a share to; the photos go through the chat's upload, then one message with its clientId. */
function DialogPicker({ share, onBack, onSent }: { share: StoredShare; onBack: () => void; onSent: (dialogId: number) => void }) {
  const t = useTranslations("share");
  const tAll = useTranslations();
  const [dialogs, setDialogs] = useState<DialogDto[] | null | "failed">(null);
  const [sending, setSending] = useState<number | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  // One clientId per chosen conversation: a second tap after a lost answer stores one message.
  const [clientIds] = useState(() => new Map<number, string>());

  useEffect(() => {
    let cancelled = false;
    api<{ content: DialogDto[] }>(`dialogs?${new URLSearchParams({ page: "0", size: "20", sort: "time,desc" })}`)
      .then((page) => !cancelled && setDialogs(page.content.filter((d) => !d.left && d.canWrite)))
      .catch(() => !cancelled && setDialogs("failed"));
    return () => {
      cancelled = true;
    };
  }, []);

  async function send(dialog: DialogDto) {
    setSending(dialog.id);
    setFailed(null);
    try {
      const images: string[] = [];
      for (const photo of share.photos) images.push(await uploadImage(photo, () => {}));
      const clientId = clientIds.get(dialog.id) ?? newClientId();
      clientIds.set(dialog.id, clientId);
      const messageText = sharedMessageText(share);
      await api(`dialogs/${dialog.id}/messages`, { method: "POST", body: { messageText, clientId, ...(images.length > 0 ? { images } : {}) } });
      onSent(dialog.id);
    } catch (err) {
      setFailed(err instanceof ApiError && err.status < 500 && err.message ? (messageText(tAll, err.message) ?? err.message) : t("sendFailed"));
      setSending(null);
    }
  }

  return (
    <div data-testid="share-dialogs">
      <h2 className={styles.title}>{t("chooseDialog")}</h2>
      {dialogs === null ? <p className={styles.note}>{t("loading")}</p> : null}
      {dialogs === "failed" ? <p className={styles.error}>{t("dialogsFailed")}</p> : null}
      {Array.isArray(dialogs) && dialogs.length === 0 ? <p className={styles.note}>{t("noDialogs")}</p> : null}
      {Array.isArray(dialogs) && dialogs.length > 0 ? (
        <ul className={styles.dialogs}>
          {dialogs.map((d) => (
            <li key={d.id}>
              <button type="button" className={styles.dialog} disabled={sending !== null} onClick={() => void send(d)} data-testid="share-dialog">
                {d.type !== "GROUP" && d.partner ? (
                  <Avatar id={d.partner.id} firstName={d.partner.firstName} lastName={d.partner.lastName} photo={d.partner.photo} size={36} alt="" />
                ) : (
                  <GroupAvatar photo={d.photo} collage={d.collage} title={dialogName(d)} size={36} />
                )}
                <span>{dialogName(d)}</span>
                {sending === d.id ? <span className={styles.note}>{t("sending")}</span> : null}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {failed ? (
        <p className={styles.error} role="alert">
          {failed}
        </p>
      ) : null}
      <div className={styles.actions}>
        <Button variant="ghost" onClick={onBack} disabled={sending !== null}>
          {t("back")}
        </Button>
      </div>
    </div>
  );
}
