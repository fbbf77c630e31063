import "server-only";
import { queueFediverseReaction } from "@/lib/server/federation/outbox";
import { sql, type SQL } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { NotFoundError } from "@/lib/server/http/errors";
import { consumeAccountLimits } from "@/lib/server/http/rate-limit";
import { notifyLike } from "@/lib/server/services/notifications/producers";
import { postIdParams, POST_ERRORS, reactionInput, type ReactionResult } from "@/lib/validation/post";
import type { ReactionType } from "@/lib/validation/reactions";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { assertCanWrite, parseInput, reactionList, visibleTo } from "./shared";

// One reaction per person per post under any concurrency: every change first locks the post row,
// so changes to one post's reactions run one after another and each sees the previous one's result
// (READ COMMITTED takes a fresh snapshot per statement); the counts on the row change in the same
// transaction. The (post_id, account_id) primary key with ON CONFLICT is the second line of defence.
// A change is three statements: the lock (which also reads the counts), the viewer's current reaction,
// and one statement that writes the reaction and the counts and returns them (docs/adr/0094).

type Counts = { like_amount: number; reaction_counts: Record<string, number> | string };

/**
 * Locks a post the viewer may react to (published, visible) and reads its counts as they are under
 * the lock; 404 otherwise.
 */
async function lockVisible(tx: Tx, viewerId: number, postId: number): Promise<Counts> {
  const [row] = await tx.execute<Counts>(sql`
    select p.like_amount, p.reaction_counts from posts p
    where p.id = ${postId} and ${visibleTo(viewerId, { ownQueued: false })} for no key update of p`);
  if (!row) throw new NotFoundError(POST_ERRORS.notFound);
  return row;
}

/**
 * The viewer's reaction, read after the lock: its own statement, so READ COMMITTED gives it a snapshot
 * that includes every change committed by the transaction that held the lock before.
 */
async function currentReaction(tx: Tx, viewerId: number, postId: number): Promise<ReactionType | null> {
  const [row] = await tx.execute<{ reaction_type: ReactionType }>(sql`
    select reaction_type from post_reactions where post_id = ${postId} and account_id = ${viewerId}`);
  return row?.reaction_type ?? null;
}

/** `counts` (a jsonb expression) with `delta` added to the count of `type`; a type at 0 leaves the map. */
function adjusted(counts: SQL, type: SQL, delta: 1 | -1): SQL {
  const next = sql`coalesce((${counts} ->> ${type})::int, 0) + ${delta}`;
  return sql`case when ${next} <= 0 then ${counts} - ${type} else jsonb_set(${counts}, array[${type}], to_jsonb(${next})) end`;
}

function result(postId: number, mine: ReactionType | null, row: Counts): ReactionResult {
  const counts = typeof row.reaction_counts === "string" ? JSON.parse(row.reaction_counts) : row.reaction_counts;
  const list = reactionList(counts);
  return { id: postId, likeAmount: Number(row.like_amount), myLike: mine !== null, myReaction: mine, reactionType: list, reactions: list };
}

/**
 * POST post/{id}/like `{type: "POST", reactionType}` — sets the viewer's reaction, replacing
 * another one; the same one again changes nothing. Answers the post's counts after the change.
 * The reaction row and the counts change in one statement (a data-modifying CTE), which also returns
 * the new counts.
 */
export async function setPostReaction({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown; body: unknown } }): Promise<ReactionResult> {
  const viewer = requireViewer(ctx);
  assertCanWrite(viewer);
  const { id } = parseInput(postIdParams, { id: input.id });
  const { reactionType } = parseInput(reactionInput, input.body);
  await consumeAccountLimits(["reaction"], viewer.id); // RATE_LIMIT_REACTION (ADR 0109)
  return withTransaction(ctx, async (tx) => {
    const locked = await lockVisible(tx, viewer.id, id);
    const before = await currentReaction(tx, viewer.id, id);
    if (before === reactionType) return result(id, reactionType, locked);
    const added = adjusted(sql`reaction_counts`, sql`${reactionType}::text`, 1);
    const [after] = await tx.execute<Counts>(sql`
      with upsert as (
        insert into post_reactions (post_id, account_id, reaction_type) values (${id}, ${viewer.id}, ${reactionType})
        on conflict (post_id, account_id) do update set reaction_type = excluded.reaction_type, created_at = now())
      update posts set
        like_amount = like_amount + ${before ? 0 : 1},
        reaction_counts = ${before ? adjusted(added, sql`${before}::text`, -1) : added}
      where id = ${id}
      returning like_amount, reaction_counts`);
    // A first reaction is news to the author; switching one reaction for another is not.
    if (before === null) await notifyLike(tx, { actorId: viewer.id, postId: id });
    // On a post from the fediverse, the reaction goes to its author there (issue 43).
    if (before !== null) await queueFediverseReaction(tx, id, viewer.id, before, "unlike");
    await queueFediverseReaction(tx, id, viewer.id, reactionType, "like");
    return result(id, reactionType, after);
  });
}

/** DELETE post/{id}/like — removes the viewer's reaction (none: nothing changes). */
export async function removePostReaction({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown } }): Promise<ReactionResult> {
  const viewer = requireViewer(ctx);
  assertCanWrite(viewer);
  const { id } = parseInput(postIdParams, { id: input.id });
  await consumeAccountLimits(["reaction"], viewer.id); // taking reactions back counts too: no like/unlike loop
  return withTransaction(ctx, async (tx) => {
    const locked = await lockVisible(tx, viewer.id, id);
    const before = await currentReaction(tx, viewer.id, id);
    if (before !== null) await queueFediverseReaction(tx, id, viewer.id, before, "unlike");
    const [after] = await tx.execute<Counts>(sql`
      with gone as (
        delete from post_reactions where post_id = ${id} and account_id = ${viewer.id} returning reaction_type)
      update posts set like_amount = like_amount - 1, reaction_counts = ${adjusted(sql`reaction_counts`, sql`gone.reaction_type`, -1)}
      from gone where posts.id = ${id}
      returning posts.like_amount, posts.reaction_counts`);
    return result(id, null, after ?? locked);
  });
}
