import { sql } from "drizzle-orm";
import type postgres from "postgres";
import { z } from "zod";
import type { Db } from "@/db/client";
import {
  COMMENT_CHANGED,
  COMMENTS_CHANNEL,
  MAX_WATCHED_POSTS,
  WATCH_POSTS,
  WATCHING_POSTS,
  type CommentChangedFrame,
  type CommentNotice,
  type WatchingPostsFrame,
} from "@/lib/validation/comment-live";
import type { Client, Hub, Logger } from "./hub";

const postId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** Extra ids beyond the bound are dropped (the newest, last in the list, are kept), not refused. */
const watchFrame = z.object({ type: z.literal(WATCH_POSTS), postIds: z.array(postId).max(500) });
const notice = z.object({
  postId,
  commentId: postId,
  parentId: postId.nullable(),
  change: z.enum(["added", "edited", "deleted", "recovered", "liked", "unliked"]),
  authorId: postId,
  parentAuthorId: postId.nullable(),
});

// A client sends WATCH_POSTS when the posts on its screen change (debounced); more often is a loop.
const WATCH_WINDOW_MS = 10_000;
const WATCHES_PER_WINDOW = 30;

/**
 * Live comments (ADR 0026). A socket says which posts it shows; the comment service NOTIFYs
 * `krug_comments` with ids and authors inside each change's transaction; this relay sends a
 * COMMENT_CHANGED frame (ids only) to the sockets watching that post whose account may read the post
 * and has no block with the comment's author or its top-level comment's author. The client refetches
 * through the API, so no text ever travels this way.
 */
export class CommentRelay {
  private readonly watched = new Map<Client, Set<number>>();
  private readonly watchers = new Map<number, Set<Client>>();
  private readonly watchTimes = new WeakMap<Client, number[]>();
  private unlisten: (() => Promise<void>) | undefined;

  constructor(
    private readonly db: Db,
    private readonly sql: postgres.Sql,
    private readonly hub: Hub,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    const listener = await this.sql.listen(COMMENTS_CHANNEL, (payload) => {
      void this.deliver(payload).catch((err) => this.log.warn({ err }, "comment relay failed"));
    });
    this.unlisten = listener.unlisten;
  }

  async stop(): Promise<void> {
    await this.unlisten?.().catch((err) => this.log.warn({ err }, "comment unlisten failed"));
  }

  /** Handles WATCH_POSTS; false for any other frame. */
  handle(client: Client, message: unknown): boolean {
    if ((message as { type?: unknown } | null)?.type !== WATCH_POSTS) return false;
    const parsed = watchFrame.safeParse(message);
    if (!parsed.success) return true;
    const now = Date.now();
    const times = (this.watchTimes.get(client) ?? []).filter((t) => now - t < WATCH_WINDOW_MS);
    this.watchTimes.set(client, times);
    if (times.length >= WATCHES_PER_WINDOW) return true;
    times.push(now);
    const ids = [...new Set(parsed.data.postIds)].slice(-MAX_WATCHED_POSTS);
    this.forget(client);
    if (ids.length > 0) {
      this.watched.set(client, new Set(ids));
      for (const id of ids) {
        let set = this.watchers.get(id);
        if (!set) this.watchers.set(id, (set = new Set()));
        set.add(client);
      }
    }
    const ack: WatchingPostsFrame = { type: WATCHING_POSTS, data: { postIds: ids } };
    this.hub.sendTransientTo(client, ack);
    return true;
  }

  /** The socket closed (or replaced its list): it watches nothing. */
  forget(client: Client): void {
    const ids = this.watched.get(client);
    if (!ids) return;
    this.watched.delete(client);
    for (const id of ids) {
      const set = this.watchers.get(id);
      set?.delete(client);
      if (set?.size === 0) this.watchers.delete(id);
    }
  }

  private async deliver(payload: string): Promise<void> {
    let n: CommentNotice;
    try {
      n = notice.parse(JSON.parse(payload));
    } catch {
      return;
    }
    const clients = this.watchers.get(n.postId);
    if (!clients || clients.size === 0) return;
    const accounts = [...new Set([...clients].map((c) => c.accountId))];
    const allowed = await this.mayRead(n, accounts);
    if (allowed.size === 0) return;
    const frame: CommentChangedFrame = {
      type: COMMENT_CHANGED,
      data: { postId: n.postId, commentId: n.commentId, parentId: n.parentId, change: n.change },
    };
    const raw = JSON.stringify(frame);
    // Read again: sockets may have closed or moved on while the check ran.
    for (const client of this.watchers.get(n.postId) ?? []) if (allowed.has(client.accountId)) this.hub.sendTransientTo(client, frame, raw);
  }

  /**
   * The accounts among `accounts` that may read the post (as the API's visibleTo: published, not
   * deleted, live author, no block) and have no block with the comment's authors. One statement.
   */
  private async mayRead(n: CommentNotice, accounts: number[]): Promise<Set<number>> {
    const people = [n.authorId, ...(n.parentAuthorId ? [n.parentAuthorId] : [])];
    const rows = await this.db.execute<{ id: string }>(sql`
      select w.id from unnest(array[${sql.join(accounts.map((a) => sql`${a}`), sql`, `)}]::bigint[]) as w(id)
      join posts p on p.id = ${n.postId}
      where not p.is_deleted and p.publish_date <= now()
        and not exists (select 1 from accounts d where d.id = p.author_id and d.is_deleted)
        and not exists (select 1 from accounts d where d.id = w.id and d.is_deleted)
        and not exists (
          select 1 from friendships b
          where b.account_id = w.id and b.status_code in ('BLOCKED', 'REJECTING')
            and b.friend_id in (p.author_id, ${sql.join(people.map((a) => sql`${a}`), sql`, `)}))`);
    return new Set(rows.map((r) => Number(r.id)));
  }
}
