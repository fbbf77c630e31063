"use client";

import { useTranslations } from "next-intl";
import Link from "@/components/ui/link";
import { useEffect, useEffectEvent, useRef, useState, type KeyboardEvent, type RefObject } from "react";
import { Avatar } from "@/components/ui/avatar";
import { ApiError } from "@/lib/client/api";
import {
  createComment,
  deleteComment,
  editComment,
  likeComment,
  recoverComment,
  useReplies,
  usePostCommentCount,
  useTopComments,
  watchPost,
  type Comment,
} from "@/lib/client/comments";
import { messageText } from "@/lib/client/message-text";
import { notify } from "@/lib/client/notify";
import { useRealtimeEvent, useRealtimeStatus } from "@/lib/client/use-realtime";
import { COMMENT_INPUT_MIN, COMMENT_TEXT_MAX } from "@/lib/validation/comment-shared";
import { COMMENT_CHANGED, type CommentChangedFrame } from "@/lib/validation/comment-live";
import { CommentText } from "./comment-text";
import { icon } from "@/components/ui/icons";
import { ReportButton } from "@/components/report/report-menu";
import { PostTime } from "./post-time";
import styles from "./post-comments.module.css";

/** What the input does: a new comment, a reply in a thread (to its top comment or one of its replies), or an edit. */
type Mode = { kind: "new" } | { kind: "reply"; threadId: number; to: Comment } | { kind: "edit"; comment: Comment };

type Props = {
  /** The post's author may delete others' comments on it (issue 27). */
  post: { id: number; commentsCount: number; authorId?: number };
  viewerId: number;
  /** Spec section 6: no comment box in admin view. */
  readOnly?: boolean;
};

const HeartIcon = icon(<path d="M12 20s-7.5-4.6-7.5-10A4.3 4.3 0 0 1 12 7.4 4.3 4.3 0 0 1 19.5 10c0 5.4-7.5 10-7.5 10z" />, "HeartIcon", {
  size: 16,
  strokeWidth: 1.9,
});

const lengthOf = (s: string) => Array.from(s).length;

/**
 * The discussion under a post card (spec sections 2–4): the count, the newest comments five at a
 * time, threads of replies loaded on demand, and one input that writes a comment, a reply or an edit.
 * Comments of others arrive live: the socket says which comment changed, the lists refetch (ADR 0026).
 */
export function PostComments({ post, viewerId, readOnly }: Props) {
  const t = useTranslations("comments");
  // A card's comments are fetched when it comes near the screen, not with the page: a feed page of twenty
  // posts no longer sends twenty requests and renders twenty lists while it starts (docs/adr/0124).
  const sectionRef = useRef<HTMLElement>(null);
  const near = useNearScreen(sectionRef);
  const top = useTopComments(post.id, near);
  const count = usePostCommentCount(post);
  const [mode, setMode] = useState<Mode>({ kind: "new" });
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  // Each open thread's refetch, registered by the thread (a stable map, not state that renders).
  const [threads] = useState(() => new Map<number, () => void>());
  const inputRef = useRef<HTMLTextAreaElement>(null);

  useEffect(() => watchPost(post.id), [post.id]);

  function refresh(threadId: number | null) {
    void top.mutate();
    count.refresh();
    if (threadId) threads.get(threadId)?.();
  }

  // Frames are not resumed (ADR 0026): after the connection comes back, reload what may have changed.
  const status = useRealtimeStatus();
  const wasDown = useRef(false);
  const refreshAll = useEffectEvent(() => {
    refresh(null);
    for (const refetch of threads.values()) refetch();
  });
  useEffect(() => {
    if (status === "reconnecting") wasDown.current = true;
    else if (status === "open" && wasDown.current) {
      wasDown.current = false;
      refreshAll();
    }
  }, [status]);

  useRealtimeEvent(COMMENT_CHANGED, (event) => {
    const data = event.data as CommentChangedFrame["data"];
    if (data?.postId === post.id) refresh(data.parentId);
  });

  const openThread = (id: number) => setOpen((s) => new Set(s).add(id));
  const focusInput = () => requestAnimationFrame(() => inputRef.current?.focus());

  function onReply(threadId: number, to: Comment) {
    setMode({ kind: "reply", threadId, to });
    openThread(threadId);
    focusInput();
  }
  function onEdit(comment: Comment) {
    setMode({ kind: "edit", comment });
    focusInput();
  }

  const actions: ItemActions = { viewerId, postId: post.id, postAuthorId: post.authorId ?? null, readOnly, onReply, onEdit, onChanged: refresh };

  return (
    <section ref={sectionRef} className={styles.section} aria-label={t("title")} data-testid="post-comments">
      {/* The public count leaves out moderated comments; above the reader's own such comments "no comments yet" would be wrong (ADR 116). */}
      {count.count > 0 || top.items.length === 0 ? (
        <p className={styles.count} data-testid="comments-count">
          {t("count", { count: count.count })}
        </p>
      ) : null}

      {top.error && !top.data ? (
        <p className={styles.failed}>
          {t("loadFailed")}{" "}
          <button type="button" className={styles.linkButton} onClick={() => void top.mutate()}>
            {t("retry")}
          </button>
        </p>
      ) : null}

      {top.items.length > 0 ? (
        <ul className={styles.list}>
          {top.items.map((c) => (
            <li key={c.id} className={styles.thread}>
              <CommentItem comment={c} threadId={c.id} actions={actions} />
              {c.commentsCount > 0 || open.has(c.id) ? (
                <Thread
                  postId={post.id}
                  comment={c}
                  open={open.has(c.id)}
                  onToggle={() =>
                    setOpen((s) => {
                      const next = new Set(s);
                      if (!next.delete(c.id)) next.add(c.id);
                      return next;
                    })
                  }
                  threads={threads}
                  actions={actions}
                />
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}

      {top.hasMore ? (
        <button type="button" className={styles.more} disabled={top.isValidating} onClick={() => void top.setSize(top.size + 1)}>
          {t("showMore")}
        </button>
      ) : null}

      {readOnly ? null : (
        <CommentInput
          key={mode.kind === "new" ? "new" : mode.kind === "edit" ? `edit-${mode.comment.id}` : `reply-${mode.to.id}`}
          postId={post.id}
          mode={mode}
          inputRef={inputRef}
          onCancel={() => setMode({ kind: "new" })}
          onDone={(threadId) => {
            setMode({ kind: "new" });
            if (threadId) openThread(threadId);
            refresh(threadId);
          }}
        />
      )}
    </section>
  );
}

/** Whether the element has come within a screen of the viewport (once true, it stays true). */
function useNearScreen(ref: RefObject<HTMLElement | null>): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (near || !el) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setNear(true);
    }, { rootMargin: "100% 0px" });
    observer.observe(el);
    return () => observer.disconnect();
  }, [near, ref]);
  return near;
}

type ItemActions = {
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
        <Link href={href} className={styles.author}>
          {name}
        </Link>
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

function CommentInput({
  postId,
  mode,
  inputRef,
  onCancel,
  onDone,
}: {
  postId: number;
  mode: Mode;
  inputRef: React.RefObject<HTMLTextAreaElement | null>;
  onCancel: () => void;
  onDone: (threadId: number | null) => void;
}) {
  const t = useTranslations("comments");
  // Editing fills the input with the comment; a reply to a reply is addressed to its author ("Имя, ").
  const [text, setText] = useState(() =>
    mode.kind === "edit" ? mode.comment.commentText : mode.kind === "reply" && mode.to.parentId !== null ? `${mode.to.author.firstName}, ` : "",
  );
  const [sending, setSending] = useState(false);
  // A refusal of the comment limit (429): said under the input, the text stays (ADR 0109).
  const [refusal, setRefusal] = useState<string | null>(null);
  const value = text.trim();
  const length = lengthOf(value);
  const tooLong = length > COMMENT_TEXT_MAX;
  const tooShort = length < COMMENT_INPUT_MIN;

  async function submit() {
    if (sending || tooShort || tooLong) return;
    setSending(true);
    setRefusal(null);
    try {
      if (mode.kind === "edit") {
        await editComment(postId, mode.comment.id, value);
        setText("");
        onDone(mode.comment.parentId);
      } else {
        await createComment(postId, value, mode.kind === "reply" ? mode.to.id : undefined);
        setText("");
        onDone(mode.kind === "reply" ? mode.threadId : null);
      }
    } catch (err) {
      // Spec section 9: a failed comment send is only logged; the text stays in the input. Only a limit
      // is told, since waiting is what helps.
      if (err instanceof ApiError && err.status === 429) setRefusal(err.message);
      else console.error("comment send failed", err);
    } finally {
      setSending(false);
    }
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    } else if (e.key === "Escape" && mode.kind !== "new") {
      onCancel();
    }
  }

  const hintId = `comment-hint-${postId}`;
  return (
    <form
      className={styles.form}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {mode.kind !== "new" ? (
        <p className={styles.mode} data-testid="comment-mode">
          <span>{mode.kind === "edit" ? t("editing") : t("replyingTo", { name: `${mode.to.author.firstName} ${mode.to.author.lastName}`.trim() })}</span>
          <button type="button" className={styles.linkButton} onClick={onCancel}>
            {t("cancel")}
          </button>
        </p>
      ) : null}
      <div className={styles.inputRow}>
        <textarea
          ref={inputRef}
          className={styles.input}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder={t("placeholder")}
          aria-label={t("placeholder")}
          aria-describedby={hintId}
          aria-invalid={tooLong || undefined}
          minLength={COMMENT_INPUT_MIN}
          rows={1}
          data-testid="comment-input"
        />
        <button type="submit" className={styles.send} disabled={sending || tooShort || tooLong}>
          {mode.kind === "edit" ? t("save") : t("send")}
        </button>
      </div>
      <p id={hintId} className={tooLong || refusal ? styles.error : styles.hint} role={tooLong || refusal ? "alert" : undefined}>
        {refusal
          ? refusal
          : tooLong
            ? t("tooLong", { max: COMMENT_TEXT_MAX, count: length })
            : length > 0 && tooShort
              ? t("tooShort", { min: COMMENT_INPUT_MIN })
              : t("keys")}
      </p>
    </form>
  );
}
