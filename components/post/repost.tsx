"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useState } from "react";
import useSWR from "swr";
import Link from "@/components/ui/link";
import { Avatar } from "@/components/ui/avatar";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { api, ApiError } from "@/lib/client/api";
import { watchPost } from "@/lib/client/comments";
import { messageText } from "@/lib/client/message-text";
import { notify } from "@/lib/client/notify";
import { plainToPostHtml, repostPost, type Post } from "@/lib/client/posts";
import { useRealtimeEvent } from "@/lib/client/use-realtime";
import { COMMENT_CHANGED, type CommentChangedFrame } from "@/lib/validation/comment-live";
import type { RepostOf } from "@/lib/validation/post";
import { ShareIcon } from "./post-icons";
import { PostTextBlock } from "./post-text-block";
import { PostTime } from "./post-time";
import { ReactionImage } from "./reaction-image";
import reportStyles from "@/components/report/report.module.css";
import cardStyles from "./post-card.module.css";
import styles from "./repost.module.css";

/** The words of a share are a short comment: the dialog stops here (the server's bound is the post text's). */
const SHARE_COMMENT_MAX = 2000;

/**
 * «Поделиться» (issue 27): a dialog with an optional comment of one's own; the post (or, for a repost,
 * its original: the server decides) appears on the viewer's wall.
 */
export function ShareButton({ postId, onShared }: { postId: number; onShared?: (post: Post) => void }) {
  const t = useTranslations("post.card");
  const tAll = useTranslations();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [comment, setComment] = useState("");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function share() {
    setBusy(true);
    setFailure(null);
    try {
      const post = await repostPost(postId, plainToPostHtml(comment));
      setOpen(false);
      notify({ status: "success", message: t("shared") });
      onShared?.(post);
    } catch (err) {
      setFailure(err instanceof ApiError && err.status < 500 && err.message ? (messageText(tAll, err.message) ?? err.message) : t("shareFailed"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" className={styles.share} onClick={() => setOpen(true)} data-testid="post-share">
        <ShareIcon />
        <span>{t("share")}</span>
      </button>
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          if (next) {
            setComment("");
            setFailure(null);
          }
          setOpen(next);
        }}
        title={t("shareTitle")}
        text={t("shareText")}
        busy={busy}
        busyLabel={t("sharing")}
        failure={failure}
        cancelLabel={t("shareCancel")}
        confirmLabel={t("shareConfirm")}
        safe
        onConfirm={() => void share()}
      >
        <label className={reportStyles.commentLabel} htmlFor={`${id}-comment`}>
          {t("shareComment")}
        </label>
        <textarea
          id={`${id}-comment`}
          className={reportStyles.comment}
          value={comment}
          maxLength={SHARE_COMMENT_MAX}
          rows={3}
          placeholder={t("shareCommentPlaceholder")}
          data-testid="share-comment"
          onChange={(event) => setComment(event.target.value)}
        />
      </ConfirmDialog>
    </>
  );
}

/** The original inside a repost's card, or the note that it is gone. */
export function RepostedOriginal({ of, words }: { of: RepostOf; words: number }) {
  const t = useTranslations("post.card");
  if ("gone" in of) {
    return (
      <p className={`${styles.original} ${styles.gone}`} role="note" data-testid="repost-gone">
        {t(of.gone === "DELETED" ? "originalGone" : "originalHidden")}
      </p>
    );
  }
  return <LiveOriginal post={of} words={words} />;
}

/**
 * The original with live counts: its comments' frames (ADR 0026) refetch it — the same SWR key as the
 * original's own card, so both show one number — and a refetch that finds it gone says so.
 */
function LiveOriginal({ post, words }: { post: Post; words: number }) {
  const t = useTranslations("post.card");
  const swr = useSWR<Post>(`post/${post.id}`, (path: string) => api<Post>(path), { revalidateOnMount: false, revalidateOnFocus: false });
  useEffect(() => watchPost(post.id), [post.id]);
  useRealtimeEvent(COMMENT_CHANGED, (event) => {
    const data = event.data as CommentChangedFrame["data"];
    if (data?.postId === post.id) void swr.mutate();
  });
  if (swr.error instanceof ApiError && swr.error.status === 404) {
    return (
      <p className={`${styles.original} ${styles.gone}`} role="note" data-testid="repost-gone">
        {t("originalGone")}
      </p>
    );
  }
  const live = swr.data ?? post;
  const name = `${post.author.firstName} ${post.author.lastName}`.trim();
  const top = live.reactionType.slice(0, 3);
  return (
    <section className={styles.original} aria-label={t("repostLabel")} data-testid="repost-original">
      <header className={cardStyles.head}>
        <Link href={`/profile/${post.authorId}`} className={cardStyles.avatarLink} tabIndex={-1} aria-hidden="true">
          <Avatar {...post.author} size={32} alt="" />
        </Link>
        <div className={cardStyles.who}>
          <p className={cardStyles.authorLine}>
            <Link href={`/profile/${post.authorId}`} className={`${cardStyles.author} ${styles.author}`}>
              {name}
            </Link>
            {post.author.fediverseAddress ? (
              // A person of another server (issue 43): their address beside the name.
              <span className={cardStyles.address} translate="no">
                @{post.author.fediverseAddress}
              </span>
            ) : null}
          </p>
          <Link href={`/post/${post.id}`} className={styles.time} aria-label={t("originalLink")}>
            <PostTime iso={post.publishDate} />
          </Link>
        </div>
      </header>
      {post.title ? <p className={styles.title}>{post.title}</p> : null}
      {post.imagePath ? (
        <div className={styles.image}>
          {/* eslint-disable-next-line @next/next/no-img-element */}
          <img src={post.imagePath} alt={post.title ? t("imageAlt", { title: post.title }) : t("imageAltUntitled")} loading="lazy" />
        </div>
      ) : null}
      <PostTextBlock html={post.postText} words={words} />
      <p className={styles.counts} data-testid="repost-original-counts">
        {live.likeAmount > 0 ? (
          <span className={styles.reactions}>
            {top.map((r) => (
              <ReactionImage key={r.reactionType} type={r.reactionType} size={16} lazy />
            ))}
            <span>{t("originalReactions", { count: live.likeAmount })}</span>
          </span>
        ) : null}
        <span data-testid="repost-original-comments">{t("originalComments", { count: live.commentsCount })}</span>
      </p>
    </section>
  );
}
