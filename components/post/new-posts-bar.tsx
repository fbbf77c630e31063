"use client";

import { useTranslations } from "next-intl";
import useSWR from "swr";
import { api } from "@/lib/client/api";
import { pathOf, type CardMeta, type Post, type PostPage, type PostSource } from "@/lib/client/posts";
import { useRealtimeEvent } from "@/lib/client/use-realtime";
import { ArrowUpIcon } from "./post-icons";
import styles from "./post-list.module.css";

/** How often an open feed asks whether friends have published something. */
export const NEW_POSTS_POLL_MS = 30_000;

/** Posts of a fresh first page that are newer than everything shown. */
export function newerPosts(fresh: Post[], shown: CardMeta[]): Post[] {
  const ids = new Set(shown.map((p) => p.id));
  const top = shown[0];
  if (!top) return fresh;
  return fresh.filter((p) => !ids.has(p.id) && (p.publishDate > top.publishDate || (p.publishDate === top.publishDate && p.id > top.id)));
}

/**
 * Page 0 of `source` holding only posts at or after `since` (the top of the list): its total is what
 * the bar counts, so the number is not capped at the page size (issue 24 item 17).
 */
export function newerPath(source: PostSource, since: string | undefined): string {
  const path = pathOf(source, 0);
  if (!since) return path;
  const [base, query] = path.split("?");
  const params = new URLSearchParams(query);
  params.set("dateFrom", since);
  return `${base}?${params}`;
}

/**
 * How many posts are newer than everything shown: the total of the page asked since the top's time,
 * less the shown posts of that very moment (the top itself, usually alone there).
 */
export function newPostsCount(page: Pick<PostPage, "content" | "totalElements">, shown: CardMeta[]): number {
  const fresh = newerPosts(page.content, shown);
  if (fresh.length === 0) return 0;
  const top = shown[0];
  if (!top) return Math.max(fresh.length, page.totalElements);
  const atTop = shown.filter((p) => p.publishDate >= top.publishDate).length;
  return Math.max(fresh.length, page.totalElements - atTop);
}

/**
 * "New posts" (issue 9): while the feed is open, page 0 is asked again every 30 s and whenever the
 * socket reports that a friend or a followed account published (POST_PUBLISHED); when it holds posts
 * newer than the top of the list, a bar offers them. Clicking it reloads the list and goes back to the top.
 */
export function NewPostsBar({ source, shown, onShow }: { source: PostSource; shown: CardMeta[]; onShow: () => void }) {
  const t = useTranslations("post.list");
  const path = newerPath(source, shown[0]?.publishDate);
  const { data, mutate } = useSWR<PostPage>(`new:${path}`, () => api<PostPage>(path), {
    refreshInterval: NEW_POSTS_POLL_MS,
    revalidateOnMount: false,
    revalidateOnFocus: true,
    dedupingInterval: 5_000,
  });
  // The posts service tells the author's friends and followers through the outbox (POST_PUBLISHED);
  // the poll covers scheduled posts reaching their time, which announce nothing.
  useRealtimeEvent("POST_PUBLISHED", () => void mutate());

  const count = data ? newPostsCount(data, shown) : 0;
  if (count === 0) return null;
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
        {t("newPosts", { count })}
      </button>
    </div>
  );
}
