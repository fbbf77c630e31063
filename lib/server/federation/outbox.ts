import "server-only";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { ForbiddenError } from "@/lib/server/http/errors";
import { PRIVACY_ERRORS } from "@/lib/validation/privacy";
import type { FriendStatus } from "@/lib/validation/friends";

/**
 * What the services tell the fediverse (issue 43, docs/adr/0174): a row of `fediverse_outbox` written in
 * the transaction of the change itself, so a follow or a post goes out if and only if it commits. The relay
 * of the job process (./relay.ts) turns the rows into activities and hands them to Fedify's delivery queue.
 * Nothing here loads Fedify: a friend action between two local people reads one index page more, a post
 * of someone with no remote follower one more row.
 */

export const FEDIVERSE_NOTIFY_CHANNEL = "krug_fediverse_outbox";

export type OutboxKind =
  | "follow"
  | "undo-follow"
  | "reject-follow"
  | "create"
  | "update"
  | "delete"
  | "announce"
  | "unannounce"
  | "comment"
  | "delete-comment"
  | "like"
  | "unlike"
  | "delete-actor"
  | "fetch-avatar"
  | "fetch-profile"
  | "update-actor";

type OutboxRow = { kind: OutboxKind; accountId: number; postId?: number; targetId?: number; commentId?: number; activityId?: string };

async function put(tx: Tx, row: OutboxRow): Promise<void> {
  await tx.execute(sql`
    insert into fediverse_outbox (kind, account_id, post_id, target_id, comment_id, activity_id)
    values (${row.kind}, ${row.accountId}, ${row.postId ?? null}, ${row.targetId ?? null}, ${row.commentId ?? null}, ${row.activityId ?? null})`);
  await tx.execute(sql`select pg_notify(${FEDIVERSE_NOTIFY_CHANNEL}, '')`);
}

/** The condition that `author` (an accounts alias) speaks in the fediverse: federation on, an open page, neither deleted nor blocked. */
const federates = (author: string) =>
  sql.raw(`${author}.fediverse and ${author}.profile_visibility = 'ALL' and not ${author}.is_deleted and not ${author}.is_blocked`);

/**
 * A post published, edited or deleted: queued for its author's remote followers when the post is one the
 * fediverse may read (the author federates; their own wall) and they have any. A repost is an Announce
 * (and its deletion the Announce's Undo), said to the followers and to the original's author when remote.
 */
export async function queueFediversePost(tx: Tx, postId: number, kind: "create" | "update" | "delete"): Promise<void> {
  const [row] = await tx.execute<{ author_id: string; repost_of_id: string | null }>(sql`
    select p.author_id, p.repost_of_id from posts p join accounts a on a.id = p.author_id
    where p.id = ${postId} and p.community_id is null and ${federates("a")}
      and (exists (select 1 from fediverse_followers f where f.account_id = p.author_id)
           or exists (select 1 from remote_posts r where r.post_id = p.repost_of_id))`);
  if (!row) return;
  if (row.repost_of_id === null) await put(tx, { kind, accountId: Number(row.author_id), postId });
  else if (kind !== "update") await put(tx, { kind: kind === "create" ? "announce" : "unannounce", accountId: Number(row.author_id), postId });
}

/**
 * A comment made or deleted under a post that came from the fediverse: the reply (or its Delete) goes to
 * the post's author, when the commenter federates.
 */
export async function queueFediverseComment(tx: Tx, commentId: number, kind: "comment" | "delete-comment"): Promise<void> {
  const [row] = await tx.execute<{ author_id: string; post_id: string }>(sql`
    select c.author_id, c.post_id from comments c join accounts a on a.id = c.author_id
    where c.id = ${commentId} and ${federates("a")} and exists (select 1 from remote_posts r where r.post_id = c.post_id)`);
  if (row) await put(tx, { kind, accountId: Number(row.author_id), postId: Number(row.post_id), commentId });
}

/**
 * A reaction set or taken back on a post that came from the fediverse: a Like (an emoji reaction where it
 * is not a heart) or its Undo goes to the post's author, when the one who reacted federates.
 */
export async function queueFediverseReaction(tx: Tx, postId: number, accountId: number, reaction: string, kind: "like" | "unlike"): Promise<void> {
  const [row] = await tx.execute<{ ok: boolean }>(sql`
    select true as ok from accounts a where a.id = ${accountId} and ${federates("a")}
      and exists (select 1 from remote_posts r where r.post_id = ${postId})`);
  if (row) await put(tx, { kind, accountId, postId, activityId: reaction });
}

/**
 * An account stops federating (the switch off, the page closed): its remote followers and the remote people
 * it follows are told its actor is gone (a Delete of the actor), and every relation across servers ends —
 * done by the relay once the Delete is handed over (docs/adr/0174). Nothing when it has none.
 */
export async function queueLeavingFediverse(tx: Tx, accountId: number): Promise<void> {
  const [row] = await tx.execute<{ any: boolean }>(sql`
    select exists (select 1 from fediverse_followers where account_id = ${accountId})
        or exists (select 1 from fediverse_following where account_id = ${accountId}) as any`);
  if (row?.any) await put(tx, { kind: "delete-actor", accountId });
}

/** A federating account's page changed (name, photo, cover, about): an Update of its actor for its remote followers. */
export async function queueFediverseProfile(tx: Tx, accountId: number): Promise<void> {
  const [row] = await tx.execute<{ ok: boolean }>(sql`
    select true as ok from accounts a where a.id = ${accountId} and ${federates("a")}
      and exists (select 1 from fediverse_followers f where f.account_id = a.id)`);
  if (row) await put(tx, { kind: "update-actor", accountId });
}

/** A remote person's avatar to fetch and store (the relay does it in the background; ./media.ts). */
export async function queueAvatarFetch(tx: Tx, remoteAccountId: number): Promise<void> {
  await put(tx, { kind: "fetch-avatar", accountId: remoteAccountId });
}

/** A remote person met for the first time: their counts and recent public posts to read (the relay does it). */
export async function queueProfileFetch(tx: Tx, remoteAccountId: number): Promise<void> {
  await put(tx, { kind: "fetch-profile", accountId: remoteAccountId });
}

type Side = FriendStatus | null;

/**
 * A friend action of `a` (the one who acts) towards `b` changed who follows whom: where one of them is remote, the fediverse
 * hears of it in the same transaction. A local person who starts following a remote one sends a Follow
 * (which needs their own actor: federation on, else 403 and nothing changes) and one who stops sends its
 * Undo; a remote follower who starts or stops is counted among the local one's fediverse audience; a local
 * person who removes or blocks a remote follower tells them with a Reject.
 */
export async function syncFediverseRelation(
  tx: Tx,
  a: number,
  b: number,
  before: readonly [Side, Side],
  after: readonly [Side, Side],
  remote: ReadonlySet<number>,
): Promise<void> {
  if (!remote.has(a) && !remote.has(b)) return;
  // FRIEND across servers is a mutual follow (docs/adr/0180).
  const follows = (side: Side) => side === "SUBSCRIBED" || side === "FRIEND";
  const changes: Array<{ follower: number; followee: number; was: boolean; now: boolean }> = [
    { follower: a, followee: b, was: follows(before[0]), now: follows(after[0]) },
    { follower: b, followee: a, was: follows(before[1]), now: follows(after[1]) },
  ];
  for (const { follower, followee, was, now } of changes) {
    if (was === now) continue;
    if (!remote.has(follower) && remote.has(followee)) {
      if (now) {
        const [me] = await tx.execute<{ ok: boolean }>(sql`
          select fediverse and profile_visibility = 'ALL' as ok from accounts where id = ${follower}`);
        if (!me?.ok) throw new ForbiddenError(PRIVACY_ERRORS.fediverseFollowNeedsSwitch);
        const activityId = randomUUID();
        await tx.execute(sql`
          insert into fediverse_following (account_id, target_id, activity_id) values (${follower}, ${followee}, ${activityId})
          on conflict (account_id, target_id) do update set activity_id = excluded.activity_id, accepted_at = null, created_at = now()`);
        await put(tx, { kind: "follow", accountId: follower, targetId: followee, activityId });
      } else {
        const [gone] = await tx.execute<{ activity_id: string }>(sql`
          delete from fediverse_following where account_id = ${follower} and target_id = ${followee} returning activity_id`);
        if (gone) await put(tx, { kind: "undo-follow", accountId: follower, targetId: followee, activityId: gone.activity_id });
      }
    } else if (remote.has(follower) && !remote.has(followee)) {
      if (now) {
        await tx.execute(sql`insert into fediverse_followers (account_id, follower_id) values (${followee}, ${follower}) on conflict do nothing`);
      } else {
        const [gone] = await tx.execute<{ activity_id: string | null }>(sql`
          delete from fediverse_followers where account_id = ${followee} and follower_id = ${follower} returning activity_id`);
        // The local person ended it (removed the follower, blocked them): the remote server is told.
        if (a === followee) await put(tx, { kind: "reject-follow", accountId: followee, targetId: follower, activityId: gone?.activity_id ?? undefined });
      }
    }
  }
}
