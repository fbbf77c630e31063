"use client";

import type { ReactNode } from "react";
import { api } from "@/lib/client/api";
import type { PostDto, PostPage, ReactionResult, ReactionType } from "@/lib/validation/post";
import { FEED_PAGE_SIZE, WALL_PAGE_SIZE } from "@/lib/validation/post-page-sizes";

export type Post = PostDto;
export type { PostPage, ReactionResult };

/** Spec section 9: infinite scroll stops after this many pages. */
export const MAX_PAGES = 200;

/** What a list of posts shows: the viewer's feed, one account's wall, a community's wall (issue 42), or a news search. */
export type PostSource =
  | { kind: "feed" }
  | { kind: "wall"; accountId: number }
  | { kind: "community"; communityId: number }
  | { kind: "search"; text?: string; author?: string; tags?: string; dateFrom?: string };

/** The GET path of page `page` of a source (spec section 7: paths and parameters as the original client). */
export function pathOf(source: PostSource, page: number): string {
  const common = { sort: "time,desc", isDeleted: "false", page: String(page) };
  if (source.kind === "feed") return `post/newsPosts?${new URLSearchParams({ withFriends: "true", ...common, size: String(FEED_PAGE_SIZE) })}`;
  if (source.kind === "wall") return `post?${new URLSearchParams({ accountIds: String(source.accountId), ...common, size: String(WALL_PAGE_SIZE) })}`;
  if (source.kind === "community") return `post?${new URLSearchParams({ communityId: String(source.communityId), ...common, size: String(WALL_PAGE_SIZE) })}`;
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
