"use client";

import useSWR from "swr";
import useSWRInfinite from "swr/infinite";
import { api } from "@/lib/client/api";
import { getRealtimeClient } from "@/lib/client/socket";
import type { CommentDto, CommentLikeResult, CommentPage } from "@/lib/validation/comment";
import { COMMENT_PAGE_SIZE } from "@/lib/validation/comment-shared";
import { MAX_WATCHED_POSTS, WATCH_POSTS } from "@/lib/validation/comment-live";
import type { PostDto } from "@/lib/validation/post";

export type Comment = CommentDto;
/** Spec section 9: comments and subcomments come five at a time. */
export const COMMENTS_PAGE = COMMENT_PAGE_SIZE;

/** Spec section 7: GET post/{postId}/comment?sort=time,desc&size=5&isDeleted=false&page=N. */
export const topPath = (postId: number, page: number) =>
  `post/${postId}/comment?${new URLSearchParams({ sort: "time,desc", size: String(COMMENTS_PAGE), isDeleted: "false", page: String(page) })}`;
/** GET post/{postId}/comment/{commentId}/subcomment?size=5&page=N. */
export const repliesPath = (postId: number, commentId: number, page: number) =>
  `post/${postId}/comment/${commentId}/subcomment?${new URLSearchParams({ size: String(COMMENTS_PAGE), page: String(page) })}`;

const fetchPage = (path: string) => api<CommentPage>(path);

/** Pages of a list (top-level comments or one thread's replies), each id once, the total, whether more exist. */
function usePages(key: (page: number) => string | null) {
  const swr = useSWRInfinite<CommentPage>(
    (index, previous: CommentPage | null) => {
      if (previous && previous.number + 1 >= previous.totalPages) return null;
      return key(index);
    },
    fetchPage,
    { revalidateOnFocus: false, revalidateFirstPage: true, persistSize: true },
  );
  const pages = swr.data ?? [];
  const seen = new Set<number>();
  // Offset pages shift when comments arrive meanwhile: show each comment once.
  const items = pages.flatMap((p) => p.content).filter((c) => (seen.has(c.id) ? false : (seen.add(c.id), true)));
  const last = pages.at(-1);
  const hasMore = last !== undefined && last.number + 1 < last.totalPages;
  return { ...swr, items, hasMore, total: pages[0]?.totalElements ?? 0 };
}

/** A post's top comments; nothing is fetched until `wanted` (the card is near the screen; ADR 0124). */
export const useTopComments = (postId: number, wanted = true) => usePages((page) => (wanted ? topPath(postId, page) : null));
export const useReplies = (postId: number, commentId: number, open: boolean) =>
  usePages((page) => (open ? repliesPath(postId, commentId, page) : null));

/** The post's own commentsCount (every live comment and reply), fresh after each change. */
export function usePostCommentCount(post: Pick<PostDto, "id" | "commentsCount">) {
  const swr = useSWR<PostDto>(`post/${post.id}`, (path: string) => api<PostDto>(path), {
    revalidateOnMount: false,
    revalidateOnFocus: false,
  });
  return { count: swr.data?.commentsCount ?? post.commentsCount, refresh: () => void swr.mutate() };
}

/** `clientId` makes a resent comment one comment (docs/adr/0144). */
export const createComment = (postId: number, commentText: string, parentId?: number, clientId?: string) =>
  api<Comment>(`post/${postId}/comment`, { method: "POST", body: { ...(parentId ? { parentId } : {}), commentText, ...(clientId ? { clientId } : {}) } });
export const editComment = (postId: number, id: number, commentText: string) =>
  api<Comment>(`post/${postId}/comment`, { method: "PUT", body: { id, commentText } });
export const deleteComment = (postId: number, id: number) => api<Comment>(`post/${postId}/comment/${id}`, { method: "DELETE" });
export const recoverComment = (postId: number, id: number) => api<Comment>(`post/${postId}/comment/${id}/recover`, { method: "PUT" });
export const likeComment = (postId: number, id: number, like: boolean) =>
  api<CommentLikeResult>(`post/${postId}/comment/${id}/like`, { method: like ? "POST" : "DELETE" });

// ---- Which posts this tab shows, for live comments (ADR 0026) ---------------------------------

const watched = new Map<number, number>();
let flushTimer: number | null = null;
let statusHooked = false;

function flush() {
  flushTimer = null;
  // The newest cards are last in the map; the sidecar keeps at most MAX_WATCHED_POSTS of them.
  getRealtimeClient().send({ type: WATCH_POSTS, postIds: [...watched.keys()].slice(-MAX_WATCHED_POSTS) });
}

function schedule() {
  if (flushTimer === null) flushTimer = window.setTimeout(flush, 200);
}

/** While the returned function is not called, the tab's socket watches `postId` (re-sent on every reconnect). */
export function watchPost(postId: number): () => void {
  if (!statusHooked) {
    statusHooked = true;
    getRealtimeClient().onStatus((status) => {
      if (status === "open" && watched.size > 0) schedule();
    });
  }
  watched.set(postId, (watched.get(postId) ?? 0) + 1);
  schedule();
  return () => {
    const n = (watched.get(postId) ?? 1) - 1;
    if (n > 0) watched.set(postId, n);
    else watched.delete(postId);
    schedule();
  };
}
