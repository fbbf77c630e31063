"use client";

import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import Link from "@/components/ui/link";
import { useMemo, useState, type ReactNode } from "react";
import { Avatar } from "@/components/ui/avatar";
import { MoreIcon } from "@/components/ui/icons";
import { LazyMenu } from "@/components/ui/lazy-radix";
import menu from "@/components/ui/menu.module.css";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ApiError } from "@/lib/client/api";
import { messageText } from "@/lib/client/message-text";
import { notify } from "@/lib/client/notify";
import { deletePost, recoverPost, type Post } from "@/lib/client/posts";
import { highlightHtml, highlightParts } from "@/lib/client/post-text";
import { readingMinutes, wordCount } from "@/lib/validation/post-shared";
import { ClockIcon, EditIcon, TrashIcon } from "./post-icons";
import { ReportMenu } from "@/components/report/report-menu";
import { PostComments } from "./post-comments";
import { PostReactions } from "./post-reactions";
import { Lightbox } from "@/components/ui/lightbox";
import { PostTextBlock } from "./post-text-block";
import { PostTime } from "./post-time";
import { RepostedOriginal, ShareButton } from "./repost";
import styles from "./post-card.module.css";

// The form (Tiptap, the tag and schedule pickers) loads when someone opens it, not with every feed.
const PostForm = dynamic(() => import("./post-form").then((m) => m.PostForm), { ssr: false });

type Props = {
  post: Post;
  viewerId: number;
  /** Stems of the search query whose words are highlighted (news search). */
  highlight?: string[];
  /** The post's own page (issue 27): a long text is shown in full, never folded. */
  full?: boolean;
  /** After an edit or a delete: the list reloads. */
  onChanged: () => void;
  /**
   * The admin view (spec section 6): these staff actions (block / unblock) in the header instead of the
   * author's menu, and the comments read-only — no comment box, no edit or delete.
   */
  adminActions?: ReactNode;
  /**
   * The author deleted it (issue 27): a list shows «Запись удалена. Восстановить» in its place while it
   * reloads its counts. Without it the card turns into that note itself (the post's own page).
   */
  onDeleted?: (post: Post) => void;
};

/** `/search?tab=news&tags=…`: every tag on a card links to the news search by that tag (spec section 2). */
export const tagHref = (name: string) => `/search?${new URLSearchParams({ tab: "news", tags: name })}`;

/**
 * One post (spec section 2): author link and photo, publication or edit time, title, tags, image,
 * the sanitised text collapsed when long, reading time, the queued line, reactions, comments. The author can
 * edit it (the card turns into the form) or delete it behind a confirmation.
 */
export function PostCard({ post, viewerId, highlight, full, onChanged, adminActions, onDeleted }: Props) {
  const t = useTranslations("post.card");
  const [editing, setEditing] = useState(false);
  // Issue 27: a post just deleted stays as «Запись удалена. Восстановить» until the page is left.
  const [deleted, setDeleted] = useState(false);
  const own = post.authorId === viewerId;
  const name = `${post.author.firstName} ${post.author.lastName}`.trim();
  const titleId = `post-${post.id}-title`;
  const authorId = `post-${post.id}-author`;
  // A repost (issue 27) has no title or tags: its author's words, if any, and the original inside.
  const repost = post.repostOf !== null;

  const { html, words } = useMemo(() => {
    // Rendered by the one sanitiser on the server when the post was read (docs/adr/0107, 0124).
    const clean = post.postText;
    return { html: highlight?.length ? highlightHtml(clean, highlight) : clean, words: wordCount(clean) };
  }, [post, highlight]);

  if (deleted) {
    return (
      <DeletedPostNote
        postId={post.id}
        onRestored={() => {
          setDeleted(false);
          onChanged();
        }}
      />
    );
  }

  if (editing) {
    return (
      <article className={`${styles.card} ${styles.editing}`} aria-label={t("editing")}>
        <PostForm
          viewerId={viewerId}
          post={post}
          onCancel={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            onChanged();
          }}
        />
      </article>
    );
  }

  const edited = post.timeChanged !== null;
  const queued = post.type === "QUEUED";
  return (
    <article className={styles.card} aria-labelledby={post.title ? titleId : authorId} data-testid="post-card" data-post-id={post.id} data-repost={repost || undefined}>
      <header className={styles.head}>
        <Link href={own ? "/profile" : `/profile/${post.authorId}`} className={styles.avatarLink} tabIndex={-1} aria-hidden="true">
          <Avatar {...post.author} size={44} alt="" />
        </Link>
        <div className={styles.who}>
          <Link id={authorId} href={own ? "/profile" : `/profile/${post.authorId}`} className={styles.author}>
            {name}
          </Link>
          <p className={styles.meta}>
            {queued ? <span>{t("created")} </span> : null}
            <PostTime iso={queued ? post.time : post.publishDate} />
            {edited ? (
              <span className={styles.edited}>
                {" · "}
                {t("edited")} <PostTime iso={post.timeChanged!} />
              </span>
            ) : null}
          </p>
        </div>
        {adminActions ??
          (own ? (
            <OwnerMenu post={post} onEdit={repost ? null : () => setEditing(true)} onDeleted={() => (onDeleted ? onDeleted(post) : setDeleted(true))} />
          ) : (
            <ReportMenu target={{ type: "POST", id: post.id }} triggerClassName={styles.menuButton} label={t("actions")} />
          ))}
      </header>

      {queued ? (
        <p className={styles.queued} data-testid="post-queued">
          <ClockIcon size={16} />
          <span>
            {t("queued")} <PostTime iso={post.publishDate} />
          </span>
        </p>
      ) : null}

      {post.isBlocked && !adminActions ? (
        <p className={styles.blockedNote} role="note" data-testid="post-blocked-note">
          {t("blockedNote")}
        </p>
      ) : null}

      {post.title ? (
        <h3 id={titleId} className={styles.title}>
          {highlight?.length
            ? highlightParts(post.title, highlight).map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : part.text))
            : post.title}
        </h3>
      ) : null}

      {post.tags.length > 0 ? (
        <ul className={styles.tags} aria-label={t("tags")}>
          {post.tags.map((tag) => (
            <li key={tag.id}>
              <Link href={tagHref(tag.name)} className={styles.tag}>
                #{tag.name}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}

      {post.imagePath ? (
        <div className={styles.image}>
          <Lightbox images={[{ src: post.imagePath, alt: t("imageAlt", { title: post.title }) }]}>
            {/* Our own stored image, any size (see components/ui/avatar.tsx on next/image). */}
            {/* eslint-disable-next-line @next/next/no-img-element */}
            <img src={post.imagePath} alt={t("imageAlt", { title: post.title })} loading="lazy" />
          </Lightbox>
        </div>
      ) : null}

      {post.postText ? <PostTextBlock html={html} words={words} full={full} /> : null}

      {post.repostOf ? <RepostedOriginal of={post.repostOf} /> : null}

      <footer className={styles.foot}>
        {queued ? (
          <span />
        ) : (
          <div className={styles.actions}>
            <PostReactions postId={post.id} initial={post} />
            {adminActions || post.isBlocked || (post.repostOf && "gone" in post.repostOf) ? null : <ShareButton postId={post.id} onShared={() => onChanged()} />}
          </div>
        )}
        {repost ? null : <span className={styles.reading}>{t("reading", { minutes: readingMinutes(post.postText) || 1 })}</span>}
      </footer>

      {queued ? null : <PostComments post={post} viewerId={viewerId} readOnly={adminActions !== undefined} />}
    </article>
  );
}

/** «Запись удалена. Восстановить» (issue 27): in place of a post its author has just deleted. */
export function DeletedPostNote({ postId, onRestored }: { postId: number; onRestored: () => void }) {
  const t = useTranslations("post.card");
  const tAll = useTranslations();
  const [restoring, setRestoring] = useState(false);

  async function restore() {
    setRestoring(true);
    try {
      await recoverPost(postId);
      onRestored();
    } catch (err) {
      notify({ status: "error", message: err instanceof ApiError && err.message ? (messageText(tAll, err.message) ?? err.message) : t("restoreFailed") });
    } finally {
      setRestoring(false);
    }
  }

  return (
    <article className={`${styles.card} ${styles.deletedCard}`} aria-label={t("deletedNote")} data-testid="post-deleted" data-post-id={postId}>
      <p className={styles.deletedNote} role="status">
        {t("deletedNote")}{" "}
        <button type="button" className={styles.restore} disabled={restoring} onClick={() => void restore()}>
          {t("restore")}
        </button>
      </p>
    </article>
  );
}

function OwnerMenu({ post, onEdit, onDeleted }: { post: Post; onEdit: (() => void) | null; onDeleted: () => void }) {
  const t = useTranslations("post.card");
  const tAll = useTranslations();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function remove() {
    setBusy(true);
    setFailure(null);
    try {
      await deletePost(post.id);
      setConfirming(false);
      onDeleted();
    } catch (err) {
      setFailure(err instanceof ApiError && err.message ? (messageText(tAll, err.message) ?? err.message) : t("deleteFailed"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <LazyMenu trigger={{ className: styles.menuButton, "aria-label": t("actions"), children: <MoreIcon size={20} /> }}>
        {(Menu) => (
          <Menu.Portal>
            <Menu.Content className={menu.content} align="end" sideOffset={4}>
              {onEdit ? (
                <Menu.Item className={menu.item} onSelect={onEdit}>
                  <EditIcon />
                  <span className={menu.itemText}>{t("edit")}</span>
                </Menu.Item>
              ) : null}
              <Menu.Item className={`${menu.item} ${menu.danger}`} onSelect={() => setConfirming(true)}>
                <TrashIcon />
                <span className={menu.itemText}>{t("delete")}</span>
              </Menu.Item>
            </Menu.Content>
          </Menu.Portal>
        )}
      </LazyMenu>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(next) => {
          setConfirming(next);
          setFailure(null);
        }}
        title={t("deleteTitle")}
        text={t("deleteText", { title: post.title || t("repostLabel") })}
        failure={failure}
        busy={busy}
        cancelLabel={t("deleteCancel")}
        confirmLabel={t("deleteConfirm")}
        busyLabel={t("deleting")}
        onConfirm={() => void remove()}
      />
    </>
  );
}
