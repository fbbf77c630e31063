import "server-only";
import type { CardPage } from "@/lib/client/posts";
import type { PostPage } from "@/lib/validation/post";
import { PostCard } from "./post-card";

/**
 * A page of posts as cards rendered on the server (docs/adr/0150): the first page of the feed, a wall and
 * the news search, and every later page through readCardPage. On a community's own wall (`onCommunityWall`)
 * the cards leave out «в сообществе …». The list keeps only the posts' ids and
 * times; each card is a server component whose islands hydrate.
 */
export function renderCardPage(page: PostPage, viewerId: number, highlight?: string[], onCommunityWall = false): CardPage {
  return {
    number: page.number,
    totalPages: page.totalPages,
    totalElements: page.totalElements,
    posts: page.content.map((post) => ({ id: post.id, publishDate: post.publishDate })),
    cards: page.content.map((post) => <PostCard key={post.id} post={post} viewerId={viewerId} highlight={highlight} onCommunityWall={onCommunityWall} />),
  };
}
