"use client";

import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { createContext, useContext, useState, useTransition, type ComponentProps, type MouseEvent, type ReactNode, type SyntheticEvent } from "react";
import { MoreIcon } from "@/components/ui/icons";
import { usePendingNavigation } from "@/components/ui/link";
import { LazyMenu } from "@/components/ui/lazy-radix";
import menu from "@/components/ui/menu.module.css";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ApiError } from "@/lib/client/api";
import { messageText } from "@/lib/client/message-text";
import { notify } from "@/lib/client/notify";
import { deletePost, recoverPost, type Post } from "@/lib/client/posts";
import { CARD_LINK } from "./card-link";
import { EditIcon, TrashIcon } from "./post-icons";
import { ShareButton } from "./repost";
import styles from "./post-card.module.css";

// The form (Tiptap, the tag and schedule pickers) loads when someone opens it, not with every feed.
const PostForm = dynamic(() => import("./post-form").then((m) => m.PostForm), { ssr: false });

/**
 * What a list of cards does when one of them changes (docs/adr/0150): reload its pages, and show
 * «Запись удалена. Восстановить» in place of a post its author has just deleted. Outside a list (the
 * post's own page, the admin view) a change refreshes the page and a deleted card turns into the note.
 */
export type CardListHooks = { onChanged: () => void; onDeleted: (postId: number) => void };
export const CardListContext = createContext<CardListHooks | null>(null);

type CardActions = { edit: (post: Post) => void; deleted: () => void; changed: () => void };
const CardActionsContext = createContext<CardActions | null>(null);

type FrameProps = Omit<ComponentProps<"article">, "children"> & { postId: number; viewerId: number; children: ReactNode };

/** The card link an event happened in, with its in-app href; null for anything else. */
function cardLinkOf(event: SyntheticEvent): string | null {
  const link = (event.target as Element | null)?.closest?.(`a[${CARD_LINK}]`);
  const href = link?.getAttribute("href");
  return href && href.startsWith("/") ? href : null;
}

/**
 * The client part of a post card (docs/adr/0150): the card itself is rendered on the server
 * (post-card.tsx) and arrives here as `children`, HTML that hydrates no component; this frame holds only
 * the card's state — the author editing it (the card turns into the form) or having just deleted it.
 */
export function PostCardFrame({ postId, viewerId, children, ...article }: FrameProps) {
  const t = useTranslations("post.card");
  const list = useContext(CardListContext);
  const router = useRouter();
  const [editing, setEditing] = useState<Post | null>(null);
  // Issue 27: a post just deleted stays as «Запись удалена. Восстановить» until the page is left.
  const [deleted, setDeleted] = useState(false);
  const changed = () => (list ? list.onChanged() : router.refresh());
  // The card's links are plain anchors in the server's HTML, not a Link component each (8 hooks a link,
  // 3–5 links a card): one handler here navigates in the app as Link does — prefetch on intent (pointer,
  // touch, focus), a plain click routed by the client router with the top bar while it waits; a click
  // with a modifier or another button is left to the browser (a new tab or window).
  const [navigating, startNavigation] = useTransition();
  usePendingNavigation(navigating);
  const prefetch = (event: SyntheticEvent) => {
    const href = cardLinkOf(event);
    if (href) router.prefetch(href);
  };
  const navigate = (event: MouseEvent) => {
    const href = cardLinkOf(event);
    if (!href || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    startNavigation(() => router.push(href));
  };

  if (deleted) {
    return (
      <DeletedPostNote
        postId={postId}
        onRestored={() => {
          setDeleted(false);
          changed();
        }}
      />
    );
  }
  if (editing) {
    return (
      <article className={`${styles.card} ${styles.editing}`} aria-label={t("editing")}>
        <PostForm
          viewerId={viewerId}
          post={editing}
          onCancel={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            changed();
          }}
        />
      </article>
    );
  }
  const actions: CardActions = {
    edit: setEditing,
    deleted: () => (list ? list.onDeleted(postId) : setDeleted(true)),
    changed,
  };
  return (
    <CardActionsContext.Provider value={actions}>
      <article {...article} onClick={navigate} onPointerOver={prefetch} onTouchStart={prefetch} onFocus={prefetch}>
        {children}
      </article>
    </CardActionsContext.Provider>
  );
}

/** «Поделиться» on a card: a share reloads the list (the repost may be on it). */
export function CardShareButton({ postId }: { postId: number }) {
  const actions = useContext(CardActionsContext);
  return <ShareButton postId={postId} onShared={() => actions?.changed()} />;
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

/** The author's ⋯ menu: edit (not for a repost) and delete behind a confirmation. */
export function OwnerMenu({ post, editable }: { post: Post; editable: boolean }) {
  const t = useTranslations("post.card");
  const tAll = useTranslations();
  const actions = useContext(CardActionsContext);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function remove() {
    setBusy(true);
    setFailure(null);
    try {
      await deletePost(post.id);
      setConfirming(false);
      actions?.deleted();
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
              {editable ? (
                <Menu.Item className={menu.item} onSelect={() => actions?.edit(post)}>
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
