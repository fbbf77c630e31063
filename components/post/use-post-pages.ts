"use client";

import { useMemo } from "react";
import { unstable_isUnrecognizedActionError } from "next/navigation";
import useSWRInfinite from "swr/infinite";
import { ApiError, logout } from "@/lib/client/api";
import { refreshSession } from "@/lib/client/auth-refresh";
import { MAX_PAGES, pathOf, type CardPage, type CardPageAnswer, type PostSource } from "@/lib/client/posts";
import { readCardPage } from "./card-pages-action";

// The pages of a post list come rendered from the server (a server action that renders cards): this hook
// sits beside the action and the cards, above lib/client/posts.ts (its API calls and types), so no arrow
// runs from lib up into components (issue 40, item 22).

/**
 * readCardPage, and after a rolling restart (docs/adr/0149) whose new build no longer knows this page's
 * action: the page is loaded whole from the new build, as Next does on its next navigation.
 */
export async function readCards(source: PostSource, page: number): Promise<CardPageAnswer> {
  try {
    return await readCardPage(source, page);
  } catch (err) {
    if (unstable_isUnrecognizedActionError(err)) window.location.reload();
    throw err;
  }
}

async function fetchPage(source: PostSource, page: number): Promise<CardPage> {
  let answer = await readCards(source, page);
  if ("error" in answer && answer.error.status === 401) {
    // As api() does: one shared refresh, then once more (auth-refresh.ts).
    const outcome = await refreshSession();
    if (outcome === "signed-out") await logout();
    if (outcome === "ok") answer = await readCards(source, page);
  }
  if ("error" in answer) throw new ApiError(answer.error.status, answer.error.code, answer.error.message);
  return answer.page;
}

/**
 * Pages of a post list with SWR (useSWRInfinite): the server's first page is the fallback, so the first
 * paint needs no request; then one page more each time `setSize` grows, up to 200 pages or the last.
 * Each page comes rendered from the server (readCardPage, docs/adr/0150); the key stays the API path of
 * the same page.
 */
const NO_PAGES: CardPage[] = [];

export function usePostPages(source: PostSource, first?: CardPage) {
  const getKey = (index: number, previous: CardPage | null) => {
    if (index >= MAX_PAGES) return null;
    if (previous && (previous.posts.length === 0 || previous.number + 1 >= previous.totalPages)) return null;
    return pathOf(source, index);
  };
  // One array for the server's page: a new one on every render was new data, so new card elements (ADR 0152).
  const fallback = useMemo(() => (first ? [first] : undefined), [first]);
  const swr = useSWRInfinite<CardPage>(getKey, (key: string) => fetchPage(source, Number(new URLSearchParams(key.split("?")[1]).get("page"))), {
    fallbackData: fallback,
    revalidateFirstPage: false,
    revalidateOnFocus: false,
    revalidateIfStale: !first,
    persistSize: false,
    // Rendered cards are React elements: compare pages by identity, not by walking their trees.
    compare: (a, b) => a === b,
  });
  const pages = swr.data ?? NO_PAGES;
  const last = pages.at(-1);
  const reachedEnd = pages.length >= MAX_PAGES || (last !== undefined && (last.posts.length === 0 || last.number + 1 >= last.totalPages));
  // The same pages give the same items (the list's cards stay the same elements while hydrating, ADR 0152).
  const items = useMemo(() => {
    // A post can move between pages while the list is open (a new post shifts every page by one): show it once.
    const seen = new Set<number>();
    return pages.flatMap((p) => p.posts.map((post, i) => ({ post, card: p.cards[i] }))).filter(({ post }) => (seen.has(post.id) ? false : (seen.add(post.id), true)));
  }, [pages]);
  const loadingMore = swr.isLoading || (swr.size > 0 && pages.length < swr.size && !swr.error);
  return { ...swr, items, posts: items.map((item) => item.post), reachedEnd, loadingMore, totalElements: pages[0]?.totalElements ?? 0 };
}
