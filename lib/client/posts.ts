"use client";

import { useMemo, type ReactNode } from "react";
import { unstable_isUnrecognizedActionError } from "next/navigation";
import useSWRInfinite from "swr/infinite";
import { readCardPage } from "@/components/post/card-pages-action";
import { api, ApiError, logout } from "@/lib/client/api";
import { refreshSession } from "@/lib/client/auth-refresh";
import type { PostDto, PostPage, ReactionResult, ReactionType } from "@/lib/validation/post";
import { FEED_PAGE_SIZE, WALL_PAGE_SIZE } from "@/lib/validation/post-page-sizes";

export type Post = PostDto;
export type { PostPage, ReactionResult };

/** Spec section 9: infinite scroll stops after this many pages. */
export const MAX_PAGES = 200;

/** What a list of posts shows: the viewer's feed, one account's wall, or a news search. */
export type PostSource =
  | { kind: "feed" }
  | { kind: "wall"; accountId: number }
  | { kind: "search"; text?: string; author?: string; tags?: string; dateFrom?: string };

/** The GET path of page `page` of a source (spec section 7: paths and parameters as the original client). */
export function pathOf(source: PostSource, page: number): string {
  const common = { sort: "time,desc", isDeleted: "false", page: String(page) };
  if (source.kind === "feed") return `post/newsPosts?${new URLSearchParams({ withFriends: "true", ...common, size: String(FEED_PAGE_SIZE) })}`;
  if (source.kind === "wall") return `post?${new URLSearchParams({ accountIds: String(source.accountId), ...common, size: String(WALL_PAGE_SIZE) })}`;
  const filters = Object.fromEntries(
    (["text", "author", "tags", "dateFrom"] as const).flatMap((k) => (source[k] ? [[k, source[k]!]] : [])),
  );
  return `post/newsPosts?${new URLSearchParams({ ...filters, ...common, size: String(FEED_PAGE_SIZE) })}`;
}

/** What a list needs to know of a card's post: where it sits (newer first) and whether it is shown already. */
export type CardMeta = Pick<PostDto, "id" | "publishDate">;

/**
 * A page of a post list as the server rendered it (docs/adr/0150): the page's counters, its posts' ids
 * and times, and the cards themselves (server components; their islands hydrate in the browser).
 */
export type CardPage = Pick<PostPage, "number" | "totalPages" | "totalElements"> & { posts: CardMeta[]; cards: ReactNode[] };

/** A card page, or the error envelope's status and message (the server's text, in the reader's language). */
export type CardPageAnswer = { page: CardPage } | { error: { status: number; code: string; message: string } };

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

/** POST post/{id}/like: sets the viewer's reaction (replacing another one); the answer has the new counts. */
export function setReaction(postId: number, reactionType: ReactionType): Promise<ReactionResult> {
  return api<ReactionResult>(`post/${postId}/like`, { method: "POST", body: { type: "POST", reactionType } });
}

/** DELETE post/{id}/like: removes the viewer's reaction. */
export function removeReaction(postId: number): Promise<ReactionResult> {
  return api<ReactionResult>(`post/${postId}/like`, { method: "DELETE" });
}

export function deletePost(postId: number): Promise<unknown> {
  return api(`post/${postId}`, { method: "DELETE" });
}

/** POST post/{id}/repost {comment?} (issue 27): shares the post on the viewer's wall; the answer is the new post. */
export function repostPost(postId: number, comment: string): Promise<PostDto> {
  return api<PostDto>(`post/${postId}/repost`, { method: "POST", body: comment ? { comment } : {} });
}

/** The plain text of the share dialog as post HTML: escaped, one paragraph per line (the server sanitises it again). */
export function plainToPostHtml(text: string): string {
  const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => `<p>${escape(line)}</p>`)
    .join("");
}

/** PUT post/{id}/recover (issue 27): the author restores a post just deleted. */
export function recoverPost(postId: number): Promise<PostDto> {
  return api<PostDto>(`post/${postId}/recover`, { method: "PUT" });
}
