"use client";

import { useTranslations } from "next-intl";
import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormAlert } from "@/components/ui/text-field";
import { ApiError, api } from "@/lib/client/api";
import { messageText } from "@/lib/client/message-text";
import { notify } from "@/lib/client/notify";
import { isOffline, keepDraft } from "@/lib/pwa/device/drafts";
import { useClientIdFor } from "@/lib/client/retry-key";
import type { Post } from "@/lib/client/posts";
import { POST_ERRORS, POST_TEXT_MIN, POST_TITLE_MAX, POST_TITLE_MIN, charCount, normalizeTitle, visibleText } from "@/lib/validation/post-shared";
import { Hint, useHintTour } from "./post-hints";
import { PostEditor } from "./post-editor";
import { usePostPhoto } from "./photo-input";
import { SchedulePicker } from "./schedule-picker";
import { TagInput, type TagValue } from "./tag-input";
import styles from "./post-form.module.css";

type Props = {
  viewerId: number;
  /** The post being edited; absent for a new post. */
  post?: Post;
  onSaved: (post: Post | null) => void;
  onCancel: () => void;
  /**
   * A new post on a community's wall (issue 42): its id, and for its owner and admins whether the
   * «От имени сообщества» switch shows and where it starts (on for an ADMINS wall); null: no switch.
   */
  community?: { id: number; signAs: boolean | null };
  /** A new post's starting content (what the share sheet brought, docs/adr/0179): title, HTML text, a photo to upload. */
  draft?: { title: string; html: string; photo: File | null };
  /** A new post that found no network was kept on the device as a draft (docs/adr/0179); default: onCancel. */
  onKeptOffline?: () => void;
};

/**
 * The post form of the composer and of edit mode (spec section 2): title, rich text, one photo, tags and
 * an optional schedule. The rules of spec section 5 are checked here with their texts before anything is
 * sent; the server checks them again and its refusal is shown the same way.
 */
export function PostForm({ viewerId, post, onSaved, onCancel, community, draft, onKeptOffline }: Props) {
  const t = useTranslations("post.form");
  const tAll = useTranslations();
  const id = useId();
  const tDrafts = useTranslations("post.drafts");
  const [title, setTitle] = useState(post?.title ?? draft?.title ?? "");
  const [html, setHtml] = useState(post?.postText ?? draft?.html ?? "");
  const [tags, setTags] = useState<TagValue[]>(post?.tags.map((x) => ({ id: x.id, name: x.name })) ?? []);
  const [publishAt, setPublishAt] = useState<Date | null>(post?.type === "QUEUED" && post.publishDate ? new Date(post.publishDate) : null);
  const [invalid, setInvalid] = useState<{ title?: boolean; text?: boolean }>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const clientIds = useClientIdFor();
  const photo = usePostPhoto(post?.imagePath ?? null, draft?.photo ?? null);
  const tour = useHintTour(viewerId);
  const errorId = `${id}-error`;
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const [asCommunity, setAsCommunity] = useState(community?.signAs === true);

  /** Whether cancelling would throw something away: anything in a new post, any change to an edited one. */
  function hasDraft(): boolean {
    const tagKey = (list: { name: string }[]) => list.map((x) => x.name).join("\n");
    if (!post) {
      return normalizeTitle(title) !== "" || visibleText(html).trim() !== "" || tags.length > 0 || photo.path !== null || publishAt !== null;
    }
    const queuedAt = post.type === "QUEUED" && post.publishDate ? new Date(post.publishDate).getTime() : null;
    return (
      title !== post.title ||
      html !== post.postText ||
      tagKey(tags) !== tagKey(post.tags) ||
      photo.path !== (post.imagePath ?? null) ||
      (publishAt?.getTime() ?? null) !== queuedAt
    );
  }

  /** Cancel asks first when there is a draft to lose (issue 24 item 18; the confirmation of ADR 13). */
  function cancel() {
    if (hasDraft()) setConfirmingCancel(true);
    else onCancel();
  }

  function check(): string | null {
    const length = charCount(normalizeTitle(title));
    const titleBad = length < POST_TITLE_MIN || length > POST_TITLE_MAX;
    const textBad = charCount(visibleText(html)) < POST_TEXT_MIN;
    setInvalid({ title: titleBad, text: textBad });
    if (titleBad || textBad) return tAll(POST_ERRORS.titleText);
    if (publishAt && publishAt.getTime() <= Date.now()) return tAll(POST_ERRORS.scheduledInPast);
    return null;
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy || photo.uploading) return;
    const problem = check();
    setError(problem);
    if (problem) return;
    setBusy(true);
    const body = {
      ...(post ? { id: post.id } : {}),
      title: normalizeTitle(title),
      postText: html,
      tags: tags.map((x) => (x.id ? { id: x.id, name: x.name } : { name: x.name })),
      imagePath: photo.path,
      // An edit of a published post keeps its time (no publishDate); otherwise no schedule means now.
      ...(publishAt ? { publishDate: publishAt.toISOString() } : post?.type === "POSTED" ? {} : { publishDate: null }),
      ...(community && !post ? { communityId: community.id, ...(community.signAs !== null ? { asCommunity } : {}) } : {}),
    };
    // A new post sent again unchanged (a lost answer, a second tap) carries the same clientId: one post (ADR 0144).
    const clientId = post ? undefined : clientIds.idFor(JSON.stringify(body));
    try {
      const saved = await api<Post | null>("post", { method: post ? "PUT" : "POST", body: clientId ? { ...body, clientId } : body });
      clientIds.done();
      onSaved(saved && typeof saved === "object" && "id" in saved ? saved : null);
    } catch (err) {
      if (clientId && isOffline(err)) {
        // No network: the post is kept on this device with its clientId and offered for sending where it
        // was written; sent from there, it is still one post (docs/adr/0179).
        try {
          await keepDraft({ clientId, accountId: viewerId, kind: "post", placeId: community?.id ?? 0, label: normalizeTitle(title), body: { ...body, clientId } });
          clientIds.done();
          notify({ status: "response", message: tDrafts("keptOffline") });
          (onKeptOffline ?? onCancel)();
          return;
        } catch (storageErr) {
          console.error("keeping the post on the device failed", storageErr);
        }
      }
      if (err instanceof ApiError) {
        const fields = new Set(err.issues.map((x) => x.path.split(".")[0]));
        setInvalid({ title: fields.has("title"), text: fields.has("postText") });
        setError(messageText(tAll, err.message) ?? t("saveFailed"));
      } else setError(t("saveFailed"));
    } finally {
      setBusy(false);
    }
  }

  const described = error ? errorId : undefined;
  return (
    <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate aria-label={post ? t("editLabel") : t("newLabel")} data-testid="post-form">
      <div className={styles.field}>
        <label htmlFor={`${id}-title`} className={styles.label}>
          {t("title")}
        </label>
        <input
          id={`${id}-title`}
          className={styles.input}
          value={title}
          maxLength={POST_TITLE_MAX}
          autoFocus
          autoComplete="off"
          placeholder={t("titlePlaceholder")}
          aria-invalid={invalid.title || undefined}
          aria-describedby={described}
          onChange={(e) => {
            setTitle(e.target.value);
            setError(null);
            setInvalid((x) => ({ ...x, title: false }));
          }}
        />
        <Hint tour={tour} step="title" />
      </div>
      <div className={styles.field}>
        <span id={`${id}-text`} className={styles.label}>
          {t("text")}
        </span>
        <PostEditor
          initialHtml={post?.postText ?? draft?.html ?? ""}
          labelId={`${id}-text`}
          describedBy={described}
          invalid={invalid.text}
          onChange={(next) => {
            setHtml(next);
            setError(null);
            setInvalid((x) => ({ ...x, text: false }));
          }}
        />
        <Hint tour={tour} step="text" />
      </div>
      {photo.previewPart}
      <TagInput value={tags} onChange={setTags} />
      {community && community.signAs !== null && !post ? (
        <label className={styles.asCommunity}>
          <input type="checkbox" role="switch" className={styles.switch} checked={asCommunity} onChange={(e) => setAsCommunity(e.target.checked)} data-testid="post-as-community" />
          <span>{t("asCommunity")}</span>
        </label>
      ) : null}
      <Hint tour={tour} step="extras" />
      {error ? (
        <div id={errorId}>
          <FormAlert>{error}</FormAlert>
        </div>
      ) : null}
      <div className={styles.bar}>
        <div className={styles.barStart}>
          {photo.buttonPart}
          <SchedulePicker value={publishAt} onChange={setPublishAt} />
        </div>
        <div className={styles.barEnd}>
          <Button variant="ghost" onClick={cancel} disabled={busy}>
            {t("cancel")}
          </Button>
          <Button type="submit" disabled={busy || photo.uploading} data-hint="publish">
            {busy ? t("saving") : post ? t("save") : publishAt ? t("schedule") : t("publish")}
          </Button>
        </div>
      </div>
      <Hint tour={tour} step="publish" />
      <ConfirmDialog
        open={confirmingCancel}
        onOpenChange={setConfirmingCancel}
        title={post ? t("discardEditTitle") : t("discardTitle")}
        text={t("discardText")}
        cancelLabel={t("discardKeep")}
        confirmLabel={t("discardConfirm")}
        onConfirm={() => {
          setConfirmingCancel(false);
          onCancel();
        }}
      />
    </form>
  );
}
