"use client";

import { useTranslations } from "next-intl";
import useSWR from "swr";
import { api } from "@/lib/client/api";
import { pathOf, type Post, type PostPage, type PostSource } from "@/lib/client/posts";
import { useRealtimeEvent } from "@/lib/client/use-realtime";
import { ArrowUpIcon } from "./post-icons";
import styles from "./post-list.module.css";

/** How often an open feed asks whether friends have published something. */
export const NEW_POSTS_POLL_MS = 30_000;

/** Posts of a fresh first page that are newer than everything shown. */
export function newerPosts(fresh: Post[], shown: Post[]): Post[] {
  const ids = new Set(shown.map((p) => p.id));
  const top = shown[0];
  if (!top) return fresh;
  return fresh.filter((p) => !ids.has(p.id) && (p.publishDate > top.publishDate || (p.publishDate === top.publishDate && p.id > top.id)));
}

/**
 * "New posts" (issue 9): while the feed is open, page 0 is asked again every 30 s and whenever the
 * socket reports that a friend or a followed account published (POST_PUBLISHED); when it holds posts
 * newer than the top of the list, a bar offers them. Clicking it reloads the list and goes back to the top.
 */
export function NewPostsBar({ source, shown, onShow }: { source: PostSource; shown: Post[]; onShow: () => void }) {
  const t = useTranslations("post.list");
  const key = `new:${pathOf(source, 0)}`;
  const { data, mutate } = useSWR<PostPage>(key, () => api<PostPage>(pathOf(source, 0)), {
    refreshInterval: NEW_POSTS_POLL_MS,
    revalidateOnMount: false,
    revalidateOnFocus: true,
    dedupingInterval: 5_000,
  });
  // The posts service tells the author's friends and followers through the outbox (POST_PUBLISHED);
  // the poll covers scheduled posts reaching their time, which announce nothing.
  useRealtimeEvent("POST_PUBLISHED", () => void mutate());

  const fresh = data ? newerPosts(data.content, shown) : [];
  if (fresh.length === 0) return null;
  return (
    <div className={styles.newBar}>
      <button
        type="button"
        className={styles.newButton}
        onClick={() => {
          onShow();
          void mutate();
          window.scrollTo({ top: 0, behavior: "smooth" });
        }}
      >
        <ArrowUpIcon size={16} />
        {t("newPosts", { count: fresh.length })}
      </button>
    </div>
  );
}
