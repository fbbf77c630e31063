// The zod-free contract of live comments over the socket (ADR 0026), shared by the sidecar, the
// comment service and the browser.

/** Postgres channel the comment service notifies (inside its transaction) and every sidecar LISTENs on. */
export const COMMENTS_CHANNEL = "krug_comments";

/** Client → server: the posts this socket shows; each frame replaces the previous list. */
export const WATCH_POSTS = "WATCH_POSTS";
/** Server → client: the list the socket now watches (after bounding), a reply to WATCH_POSTS. */
export const WATCHING_POSTS = "WATCHING_POSTS";
/** Server → client: a comment on a watched post was added or changed; ids only, the client refetches. */
export const COMMENT_CHANGED = "COMMENT_CHANGED";

/** At most this many posts per socket (a feed page is 5; a long scroll keeps the newest ones). */
export const MAX_WATCHED_POSTS = 50;

export type CommentChange = "added" | "edited" | "deleted" | "recovered" | "liked" | "unliked";

/** What the service notifies: the frame's ids plus the authors the sidecar checks blocks against. */
export type CommentNotice = {
  postId: number;
  commentId: number;
  parentId: number | null;
  change: CommentChange;
  authorId: number;
  parentAuthorId: number | null;
};

export type CommentChangedFrame = {
  type: typeof COMMENT_CHANGED;
  data: { postId: number; commentId: number; parentId: number | null; change: CommentChange };
};

export type WatchPostsFrame = { type: typeof WATCH_POSTS; postIds: number[] };
export type WatchingPostsFrame = { type: typeof WATCHING_POSTS; data: { postIds: number[] } };
