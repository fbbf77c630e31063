"use client";

import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { lazy, Suspense, useCallback, useEffect, useEffectEvent, useRef, useState, type KeyboardEvent, type RefObject } from "react";
import { useTouchScreen } from "@/components/ui/use-touch-screen";
import { ApiError } from "@/lib/client/api";
import { notify } from "@/lib/client/notify";
import { createComment, editComment, usePostCommentCount, watchPost, type Comment } from "@/lib/client/comments";
import { useClientIdFor } from "@/lib/client/retry-key";
import { useRealtimeEvent, useRealtimeStatus } from "@/lib/client/use-realtime";
import { COMMENT_INPUT_MIN, COMMENT_TEXT_MAX } from "@/lib/validation/comment-shared";
import { COMMENT_CHANGED, type CommentChangedFrame } from "@/lib/validation/comment-live";
import type { ItemActions } from "./comment-items";
import styles from "./post-comments.module.css";

// The comments this device kept while offline (docs/adr/0179): loaded after the page.
const CommentDrafts = dynamic(() => import("./comment-drafts").then((m) => m.CommentDrafts), { ssr: false });

// The comments themselves — their list with its paging, items, threads and actions — load when the card
// first comes near the screen, with the request for them (ADR 0124): not in any page's first load, and a
// card far down the page runs none of their hooks while the page starts (docs/adr/0143).
const TopComments = lazy(() => import("./comment-items").then((m) => ({ default: m.TopComments })));

/** What the input does: a new comment, a reply in a thread (to its top comment or one of its replies), or an edit. */
type Mode = { kind: "new" } | { kind: "reply"; threadId: number; to: Comment } | { kind: "edit"; comment: Comment };

type Props = {
  /** The post's author may delete others' comments on it (issue 27). */
  post: { id: number; commentsCount: number; authorId?: number };
  viewerId: number;
  /** Spec section 6: no comment box in admin view. */
  readOnly?: boolean;
};

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
  // The list's refetch, registered by it once it is there.
  const topRefetch = useRef<(() => void) | null>(null);
  const registerTop = useCallback((refetch: (() => void) | null) => {
    topRefetch.current = refetch;
  }, []);
  const count = usePostCommentCount(post);
  const [mode, setMode] = useState<Mode>({ kind: "new" });
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  // Each open thread's refetch, registered by the thread (a stable map, not state that renders).
  const [threads] = useState(() => new Map<number, () => void>());
  const inputRef = useRef<HTMLTextAreaElement>(null);

  useEffect(() => watchPost(post.id), [post.id]);
  // Comments written here without a network, kept on the device (docs/adr/0179).
  const [draftsVersion, setDraftsVersion] = useState(0);

  function refresh(threadId: number | null) {
    topRefetch.current?.();
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
  // The whole form (the reply line, the field and its hint) is brought into view above the phone's bottom tab
  // bar (the page's scroll-padding): focus alone left a field that was on screen behind the bar (issue 44 item 4).
  const focusInput = () =>
    requestAnimationFrame(() => {
      const input = inputRef.current;
      if (!input) return;
      input.focus({ preventScroll: true });
      (input.form ?? input).scrollIntoView({ block: "nearest" });
    });

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
      {near ? (
        <Suspense fallback={<CommentCount count={count.count} />}>
          <TopComments
            postId={post.id}
            count={count.count}
            open={open}
            onToggle={(id) =>
              setOpen((s) => {
                const next = new Set(s);
                if (!next.delete(id)) next.add(id);
                return next;
              })
            }
            threads={threads}
            actions={actions}
            register={registerTop}
            onCountStale={count.refresh}
          />
        </Suspense>
      ) : (
        <CommentCount count={count.count} />
      )}

      {readOnly ? null : (
        <CommentDrafts
          accountId={viewerId}
          postId={post.id}
          version={draftsVersion}
          onSent={(threadId) => {
            if (threadId !== null) openThread(threadId);
            refresh(threadId);
          }}
        />
      )}
      {readOnly ? null : (
        <CommentInput
          viewerId={viewerId}
          onKeptOffline={() => {
            setMode({ kind: "new" });
            setDraftsVersion((v) => v + 1);
          }}
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

/** «N комментариев»: what the section shows before its list is there (and above it, unless moderated comments alone fill it). */
export function CommentCount({ count }: { count: number }) {
  const t = useTranslations("comments");
  return (
    <p className={styles.count} data-testid="comments-count">
      {t("count", { count })}
    </p>
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

function CommentInput({
  viewerId,
  postId,
  mode,
  inputRef,
  onCancel,
  onDone,
  onKeptOffline,
}: {
  viewerId: number;
  onKeptOffline: () => void;
  postId: number;
  mode: Mode;
  inputRef: React.RefObject<HTMLTextAreaElement | null>;
  onCancel: () => void;
  onDone: (threadId: number | null) => void;
}) {
  const t = useTranslations("comments");
  const tDrafts = useTranslations("comments.drafts");
  // «Enter — отправить» means nothing on a phone's keyboard (issue 44 item 5).
  const touch = useTouchScreen();
  // Editing fills the input with the comment; a reply to a reply is addressed to its author ("Имя, ").
  const [text, setText] = useState(() =>
    mode.kind === "edit" ? mode.comment.commentText : mode.kind === "reply" && mode.to.parentId !== null ? `${mode.to.author.firstName}, ` : "",
  );
  const [sending, setSending] = useState(false);
  const clientIds = useClientIdFor();
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
    let draft: { clientId: string; body: Record<string, unknown> } | null = null;
    try {
      if (mode.kind === "edit") {
        await editComment(postId, mode.comment.id, value);
        setText("");
        onDone(mode.comment.parentId);
      } else {
        const parentId = mode.kind === "reply" ? mode.to.id : undefined;
        // The same words to the same place again (a lost answer, a second tap): the same clientId, one comment.
        const clientId = clientIds.idFor(`${parentId ?? ""}\n${value}`);
        draft = { clientId, body: { ...(parentId ? { parentId } : {}), commentText: value, clientId } };
        await createComment(postId, value, parentId, clientId);
        clientIds.done();
        setText("");
        onDone(mode.kind === "reply" ? mode.threadId : null);
      }
    } catch (err) {
      // No network: the comment is kept on this device and offered for sending above the input; sent from
      // there with its clientId, it is still one comment (docs/adr/0179).
      const device = draft ? await import("@/lib/pwa/device/drafts").catch(() => null) : null;
      if (draft && device?.isOffline(err)) {
        const kept = await device.keepDraft({ ...draft, accountId: viewerId, kind: "comment", placeId: postId, label: [...value].slice(0, 60).join("") }).then(
          () => true,
          () => false,
        );
        if (kept) {
          clientIds.done();
          setText("");
          notify({ status: "response", message: tDrafts("keptOffline") });
          onKeptOffline();
          return;
        }
      }
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
              : touch
                ? ""
                : t("keys")}
      </p>
    </form>
  );
}
