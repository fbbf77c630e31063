"use client";

import { useTranslations } from "next-intl";
import { Fragment, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import type { CardMeta, CardPage, Post, PostSource } from "@/lib/client/posts";
import { usePostPages } from "./use-post-pages";
import { NewPostsBar } from "./new-posts-bar";
import { CardListContext, DeletedPostNote, type CardListHooks } from "./post-card-frame";
import { PostComposer, type ComposerCommunity, type ComposerViewer } from "./post-composer";
import styles from "./post-list.module.css";

type Props = {
  source: PostSource;
  /** Page 0 rendered on the server (renderCardPage): the first paint needs no request. */
  first?: CardPage;
  viewer: ComposerViewer;
  /** Show the post-creation box above the list (feed and own wall). */
  composer?: boolean;
  /** "scroll": infinite scroll (feed, search); "more": a "show more" button (walls). */
  paging: "scroll" | "more";
  empty: ReactNode;
  /** Watch for newer posts while the page is open (the feed). */
  watchNew?: boolean;
  label: string;
  /** Told the list's total whenever page 0 is (re)loaded: a wall's «Записи» counter follows a delete or a new post. */
  onTotal?: (total: number) => void;
  /** The composer posts on this community's wall (issue 42). */
  community?: ComposerCommunity;
};

/**
 * A list of posts (feed, wall, news search) with SWR paging: infinite scroll or "show more", a spinner
 * while a page loads, the error block ('Ошибка:' and the message) with a retry, designed empty and end
 * states. Publishing, editing or deleting reloads the list. Its cards come rendered from the server, page
 * by page (docs/adr/0150); the list tells them how to reload it through CardListContext.
 */
export function PostList({ source, first, viewer, composer, paging, empty, watchNew, label, onTotal, community }: Props) {
  const t = useTranslations("post.list");
  const common = useTranslations("common");
  const { items: cards, posts, error, size, setSize, mutate, reachedEnd, loadingMore, isValidating, data } = usePostPages(source, first);
  const total = data?.[0]?.totalElements;
  useEffect(() => {
    if (total !== undefined) onTotal?.(total);
  }, [total, onTotal]);
  const sentinel = useRef<HTMLDivElement>(null);
  const canLoad = !reachedEnd && !loadingMore && !error;

  useEffect(() => {
    if (paging !== "scroll" || !canLoad || !sentinel.current) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void setSize(size + 1);
    }, { rootMargin: "600px 0px" });
    observer.observe(sentinel.current);
    return () => observer.disconnect();
  }, [paging, canLoad, size, setSize]);

  const reload = () => void mutate();
  // Posts the viewer has just deleted (issue 27): «Запись удалена. Восстановить» in their place until they
  // are restored or the page is left, while the list reloads its counts without them.
  const [removed, setRemoved] = useState<ReadonlyMap<number, CardMeta>>(() => new Map());
  const onDeleted = (id: number) => {
    const post = posts.find((p) => p.id === id);
    if (post) setRemoved((m) => new Map(m).set(post.id, post));
    reload();
  };
  const onRestored = (id: number) => {
    setRemoved((m) => {
      const next = new Map(m);
      next.delete(id);
      return next;
    });
    reload();
  };
  const items = useMemo(() => withRemoved(cards, removed), [cards, removed]);
  // The cards' context value and their elements stay the same objects until the list changes: a render
  // of the list (its SWR state settling, a page loading) re-renders no card (docs/adr/0152).
  const latest = useRef({ reload, onDeleted, onRestored });
  useLayoutEffect(() => {
    latest.current = { reload, onDeleted, onRestored };
  });
  const hooks = useMemo<CardListHooks>(() => ({ onChanged: () => latest.current.reload(), onDeleted: (id) => latest.current.onDeleted(id) }), []);
  const rendered = useMemo(
    () =>
      items.map(({ post, card, deleted }) => (
        // The cards hydrate with the list, not each in a Suspense boundary of its own (ADR 0124 had that
        // for the main thread's sake): the boundaries took a synchronous update while still dehydrated and
        // React rendered every card again on the client, throwing the server's cards away after the first
        // paint — the feed's LCP moved to after the scripts, and the work was more, not less (ADR 0152).
        <Fragment key={post.id}>{deleted ? <DeletedPostNote postId={post.id} onRestored={() => latest.current.onRestored(post.id)} /> : card}</Fragment>
      )),
    [items],
  );
  const onPublished = (_post: Post | null) => {
    void setSize(1);
    void mutate();
  };

  return (
    <div className={styles.list}>
      {composer ? <PostComposer viewer={viewer} onPublished={onPublished} community={community} /> : null}
      {watchNew ? <NewPostsBar source={source} shown={posts} onShow={reload} /> : null}
      {items.length > 0 ? (
        <div className={styles.posts} role="feed" aria-label={label} aria-busy={loadingMore || isValidating}>
          <CardListContext.Provider value={hooks}>
            {rendered}
          </CardListContext.Provider>
        </div>
      ) : !loadingMore && !error ? (
        empty
      ) : null}
      {loadingMore ? <Spinner label={common("loading")} /> : null}
      {error ? (
        <div className={styles.error} role="alert" data-testid="post-list-error">
          <p>
            <strong>{common("errorPrefix")}</strong> {error instanceof Error && error.message ? error.message : common("unknownError")}
          </p>
          <Button variant="secondary" onClick={() => void mutate()}>
            {common("retry")}
          </Button>
        </div>
      ) : null}
      {paging === "scroll" && canLoad ? <div ref={sentinel} className={styles.sentinel} aria-hidden="true" /> : null}
      {paging === "more" && canLoad && posts.length > 0 ? (
        <Button variant="secondary" block onClick={() => void setSize(size + 1)}>
          {t("showMore")}
        </Button>
      ) : null}
      {reachedEnd && posts.length > 0 && paging === "scroll" && size > 1 ? <p className={styles.end}>{t("end")}</p> : null}
    </div>
  );
}

/** Newer first, as the lists order (publish time, then id). */
const newer = (x: CardMeta, y: CardMeta) => x.publishDate > y.publishDate || (x.publishDate === y.publishDate && x.id > y.id);

type Item = { post: CardMeta; card: ReactNode; deleted: boolean };

/** The list's cards with the just-deleted ones back in their places, as notes. */
function withRemoved(cards: { post: CardMeta; card: ReactNode }[], removed: ReadonlyMap<number, CardMeta>): Item[] {
  const items: Item[] = cards.map(({ post, card }) => ({ post, card, deleted: removed.has(post.id) }));
  for (const post of removed.values()) {
    if (cards.some((c) => c.post.id === post.id)) continue;
    const at = items.findIndex((item) => newer(post, item.post));
    items.splice(at < 0 ? items.length : at, 0, { post, card: null, deleted: true });
  }
  return items;
}
