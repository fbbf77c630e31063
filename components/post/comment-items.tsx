"use client";

import { useTranslations } from "next-intl";
import Link from "@/components/ui/link";
import { useEffect, useRef, useState } from "react";
import { Avatar } from "@/components/ui/avatar";
import { icon } from "@/components/ui/icons";
import { ReportButton } from "@/components/report/report-menu";
import { ApiError } from "@/lib/client/api";
import { deleteComment, likeComment, recoverComment, useReplies, useTopComments, type Comment } from "@/lib/client/comments";
import { messageText } from "@/lib/client/message-text";
import { notify } from "@/lib/client/notify";
import { CommentText } from "./comment-text";
import { CommentCount } from "./post-comments";
import { PostTime } from "./post-time";
import cardStyles from "./post-card.module.css";
import styles from "./post-comments.module.css";

// The comments of a card: the newest five at a time, their threads of replies, likes, edit, delete and
// report actions. Fetched in the browser when the card nears the screen (ADR 0124); this module loads then,
// not with the page (docs/adr/0143). PostComments keeps the count before that, the input and live frames.

const HeartIcon = icon(<path d="M12 20s-7.5-4.6-7.5-10A4.3 4.3 0 0 1 12 7.4 4.3 4.3 0 0 1 19.5 10c0 5.4-7.5 10-7.5 10z" />, "HeartIcon", {
  size: 16,
  strokeWidth: 1.9,
});

export type ItemActions = {
  viewerId: number;
  postId: number;
  postAuthorId: number | null;
  readOnly?: boolean;
  onReply: (threadId: number, to: Comment) => void;
  onEdit: (comment: Comment) => void;
  onChanged: (threadId: number | null) => void;
};

function Thread({
  postId,
  comment,
  open,
  onToggle,
  threads,
  actions,
}: {
  postId: number;
  comment: Comment;
  open: boolean;
  onToggle: () => void;
  /** Where the thread registers its refetch, for live frames and replies of its own. */
  threads: Map<number, () => void>;
  actions: ItemActions;
}) {
  const t = useTranslations("comments");
  const replies = useReplies(postId, comment.id, open);
  const { mutate } = replies;
  useEffect(() => {
    threads.set(comment.id, () => void mutate());
    return () => void threads.delete(comment.id);
  }, [threads, comment.id, mutate]);

  return (
    <div className={styles.replies}>
      {comment.commentsCount > 0 ? (
        <button type="button" className={styles.linkButton} aria-expanded={open} onClick={onToggle}>
          {open ? t("hideReplies") : t("showReplies", { count: comment.commentsCount })}
        </button>
      ) : null}
      {open && replies.items.length > 0 ? (
        <ul className={styles.list} aria-label={t("repliesTo", { name: comment.author.firstName })}>
          {replies.items.map((r) => (
            <li key={r.id}>
              <CommentItem comment={r} threadId={comment.id} actions={actions} />
            </li>
          ))}
        </ul>
      ) : null}
      {open && replies.hasMore ? (
        <button type="button" className={styles.more} disabled={replies.isValidating} onClick={() => void replies.setSize(replies.size + 1)}>
          {t("moreReplies")}
        </button>
      ) : null}
    </div>
  );
}

function CommentItem({ comment, threadId, actions }: { comment: Comment; threadId: number; actions: ItemActions }) {
  const t = useTranslations("comments");
  const tAll = useTranslations();
  const [base, setBase] = useState(comment);
  const [shown, setShown] = useState(comment);
  const [busy, setBusy] = useState(false);
  const liking = useRef(false);
  // A fresh list (a revalidation) wins whenever nothing of ours is in flight.
  if (comment !== base && !busy) {
    setBase(comment);
    setShown(comment);
  }
  const own = comment.authorId === actions.viewerId;
  const name = `${comment.author.firstName} ${comment.author.lastName}`.trim();
  const href = own ? "/profile" : `/profile/${comment.authorId}`;
  const parentOfThread = comment.parentId === null ? null : threadId;

  const failed = (err: unknown) =>
    notify({ status: "error", message: err instanceof ApiError && err.message ? (messageText(tAll, err.message) ?? err.message) : t("actionFailed") });

  async function setDeleted(deleted: boolean) {
    if (busy) return;
    setBusy(true);
    try {
      const next = deleted ? await deleteComment(actions.postId, comment.id) : await recoverComment(actions.postId, comment.id);
      setShown(next);
      actions.onChanged(parentOfThread);
    } catch (err) {
      failed(err);
    } finally {
      setBusy(false);
    }
  }

  async function toggleLike() {
    if (liking.current) return; // one change at a time
    liking.current = true;
    const before = shown;
    const like = !before.myLike;
    setShown({ ...before, myLike: like, likeAmount: Math.max(0, before.likeAmount + (like ? 1 : -1)) });
    try {
      const answer = await likeComment(actions.postId, comment.id, like);
      setShown((s) => ({ ...s, likeAmount: answer.likeAmount, myLike: answer.myLike }));
    } catch (err) {
      setShown(before);
      failed(err);
    } finally {
      liking.current = false;
    }
  }

  if (shown.isDeleted) {
    return (
      <article className={`${styles.comment} ${styles.deleted}`} data-testid="comment" data-comment-id={comment.id} data-deleted="true">
        <p className={styles.placeholder}>
          {t("deleted")}{" "}
          {shown.canRecover ? (
            <button type="button" className={styles.linkButton} disabled={busy} onClick={() => void setDeleted(false)}>
              {t("recover")}
            </button>
          ) : null}
        </p>
      </article>
    );
  }

  return (
    <article className={styles.comment} data-testid="comment" data-comment-id={comment.id} aria-label={t("by", { name })}>
      <Link href={href} className={styles.avatar} tabIndex={-1} aria-hidden="true">
        <Avatar {...comment.author} size={comment.parentId ? 28 : 36} alt="" />
      </Link>
      <div className={styles.body}>
        {comment.author.fediverseAddress ? (
          // A person of another server (issue 43): their address, small and muted, beside the name.
          <p className={cardStyles.authorLine}>
            <Link href={href} className={styles.author}>
              {name}
            </Link>
            <span className={cardStyles.address} translate="no" data-testid="comment-author-address">
              @{comment.author.fediverseAddress}
            </span>
          </p>
        ) : (
          <Link href={href} className={styles.author}>
            {name}
          </Link>
        )}
        <CommentText text={shown.commentText} />
        {shown.isBlocked ? (
          <p className={styles.blockedNote} role="note" data-testid="comment-blocked-note">
            {t("blockedNote")}
          </p>
        ) : null}
        <div className={styles.meta}>
          <PostTime iso={shown.time} />
          {shown.timeChanged ? <span className={styles.edited}>{t("edited")}</span> : null}
          {actions.readOnly ? null : (
            <button type="button" className={styles.action} onClick={() => actions.onReply(threadId, shown)}>
              {t("reply")}
            </button>
          )}
          {own && !actions.readOnly ? (
            <>
              <button type="button" className={styles.action} onClick={() => actions.onEdit(shown)}>
                {t("edit")}
              </button>
              <button type="button" className={styles.action} disabled={busy} onClick={() => void setDeleted(true)}>
                {t("delete")}
              </button>
            </>
          ) : null}
          {!own && !actions.readOnly && actions.postAuthorId === actions.viewerId ? (
            // Issue 27: the post's author removes others' comments on their own post.
            <button type="button" className={styles.action} disabled={busy} onClick={() => void setDeleted(true)} data-testid="comment-delete-as-post-author">
              {t("delete")}
            </button>
          ) : null}
          {!own && !actions.readOnly ? <ReportButton target={{ type: "COMMENT", id: shown.id }} className={styles.action} /> : null}
          <button
            type="button"
            className={`${styles.like} ${shown.myLike ? styles.liked : ""}`}
            aria-pressed={shown.myLike}
            aria-label={t("like", { count: shown.likeAmount })}
            onClick={() => void toggleLike()}
            data-testid="comment-like"
          >
            <HeartIcon size={16} />
            {shown.likeAmount > 0 ? <span>{shown.likeAmount}</span> : null}
          </button>
        </div>
      </div>
    </article>
  );
}

/** The top comments of a post, each with its thread of replies (loaded when opened). */
export function CommentThreads({
  postId,
  items,
  open,
  onToggle,
  threads,
  actions,
}: {
  postId: number;
  items: Comment[];
  open: ReadonlySet<number>;
  onToggle: (id: number) => void;
  threads: Map<number, () => void>;
  actions: ItemActions;
}) {
  return (
    <ul className={styles.list}>
      {items.map((c) => (
        <li key={c.id} className={styles.thread}>
          <CommentItem comment={c} threadId={c.id} actions={actions} />
          {c.commentsCount > 0 || open.has(c.id) ? (
            <Thread postId={postId} comment={c} open={open.has(c.id)} onToggle={() => onToggle(c.id)} threads={threads} actions={actions} />
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * The top comments of a post, fetched when this mounts (the card is near the screen): the count above them
 * (the public count leaves out moderated comments; above the reader's own such comments "no comments yet"
 * would be wrong, ADR 116), a failure with its retry, the threads and "show more".
 */
export function TopComments({
  postId,
  count,
  register,
  onCountStale,
  ...threadProps
}: {
  postId: number;
  count: number;
  /** Where the list registers its refetch (live frames, a new comment). */
  register: (refetch: (() => void) | null) => void;
  /**
   * Asked when the list holds more comments than the count says: the count missed a live frame (one sent
   * before the card's socket was up, or while the card was far and its list not there), so it is read again.
   */
  onCountStale?: () => void;
  open: ReadonlySet<number>;
  onToggle: (id: number) => void;
  threads: Map<number, () => void>;
  actions: ItemActions;
}) {
  const t = useTranslations("comments");
  const top = useTopComments(postId);
  const { mutate } = top;
  useEffect(() => {
    register(() => void mutate());
    return () => register(null);
  }, [register, mutate]);
  // Once per disagreement (the reader's own moderated comments may keep the list above the public count).
  const shown = top.items.length;
  const asked = useRef("");
  useEffect(() => {
    const pair = `${shown}:${count}`;
    if (shown > count && asked.current !== pair) {
      asked.current = pair;
      onCountStale?.();
    }
  }, [shown, count, onCountStale]);

  return (
    <>
      {count > 0 || top.items.length === 0 ? <CommentCount count={count} /> : null}

      {top.error && !top.data ? (
        <p className={styles.failed}>
          {t("loadFailed")}{" "}
          <button type="button" className={styles.linkButton} onClick={() => void top.mutate()}>
            {t("retry")}
          </button>
        </p>
      ) : null}

      {top.items.length > 0 ? <CommentThreads postId={postId} items={top.items} {...threadProps} /> : null}

      {top.hasMore ? (
        <button type="button" className={styles.more} disabled={top.isValidating} onClick={() => void top.setSize(top.size + 1)}>
          {t("showMore")}
        </button>
      ) : null}
    </>
  );
}
