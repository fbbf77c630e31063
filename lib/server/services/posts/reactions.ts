import "server-only";
import { sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { NotFoundError } from "@/lib/server/http/errors";
import { notifyLike } from "@/lib/server/services/notifications/producers";
import { postIdParams, POST_ERRORS, reactionInput, type ReactionResult } from "@/lib/validation/post";
import type { ReactionType } from "@/lib/validation/reactions";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { assertCanWrite, parseInput, reactionList, visibleTo } from "./shared";

// One reaction per person per post under any concurrency: every change first locks the post row,
// so changes to one post's reactions run one after another and each sees the previous one's result
// (READ COMMITTED takes a fresh snapshot per statement); the counts on the row change in the same
// transaction. The (post_id, account_id) primary key with ON CONFLICT is the second line of defence.

/** Locks a post the viewer may react to (published, visible); 404 otherwise. */
async function lockVisible(tx: Tx, viewerId: number, postId: number) {
  const [row] = await tx.execute<{ id: string }>(sql`
    select p.id from posts p where p.id = ${postId} and ${visibleTo(viewerId, { ownQueued: false })} for no key update of p`);
  if (!row) throw new NotFoundError(POST_ERRORS.notFound);
}

async function currentReaction(tx: Tx, viewerId: number, postId: number): Promise<ReactionType | null> {
  const [row] = await tx.execute<{ reaction_type: ReactionType }>(sql`
    select reaction_type from post_reactions where post_id = ${postId} and account_id = ${viewerId}`);
  return row?.reaction_type ?? null;
}

/** Adds `delta` to one type's count (a type at 0 leaves the map) and to like_amount. */
function countChange(type: ReactionType, delta: 1 | -1) {
  return sql`
    like_amount = like_amount + ${delta},
    reaction_counts = case
      when coalesce((reaction_counts ->> ${type})::int, 0) + ${delta} <= 0 then reaction_counts - ${type}::text
      else jsonb_set(reaction_counts, array[${type}::text], to_jsonb(coalesce((reaction_counts ->> ${type})::int, 0) + ${delta}))
    end`;
}

async function result(tx: Tx, postId: number, mine: ReactionType | null): Promise<ReactionResult> {
  const [row] = await tx.execute<{ like_amount: number; reaction_counts: Record<string, number> | string }>(sql`
    select like_amount, reaction_counts from posts where id = ${postId}`);
  const counts = typeof row.reaction_counts === "string" ? JSON.parse(row.reaction_counts) : row.reaction_counts;
  return { id: postId, likeAmount: Number(row.like_amount), myLike: mine !== null, myReaction: mine, reactionType: reactionList(counts) };
}

/**
 * POST post/{id}/like `{type: "POST", reactionType}` — sets the viewer's reaction, replacing
 * another one; the same one again changes nothing. Answers the post's counts after the change.
 */
export async function setPostReaction({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown; body: unknown } }): Promise<ReactionResult> {
  const viewer = requireViewer(ctx);
  assertCanWrite(viewer);
  const { id } = parseInput(postIdParams, { id: input.id });
  const { reactionType } = parseInput(reactionInput, input.body);
  return withTransaction(ctx, async (tx) => {
    await lockVisible(tx, viewer.id, id);
    const before = await currentReaction(tx, viewer.id, id);
    if (before !== reactionType) {
      await tx.execute(sql`
        insert into post_reactions (post_id, account_id, reaction_type) values (${id}, ${viewer.id}, ${reactionType})
        on conflict (post_id, account_id) do update set reaction_type = excluded.reaction_type, created_at = now()`);
      if (before) await tx.execute(sql`update posts set ${countChange(before, -1)} where id = ${id}`);
      await tx.execute(sql`update posts set ${countChange(reactionType, 1)} where id = ${id}`);
      // A first reaction is news to the author; switching one reaction for another is not.
      if (before === null) await notifyLike(tx, { actorId: viewer.id, postId: id });
    }
    return result(tx, id, reactionType);
  });
}

/** DELETE post/{id}/like — removes the viewer's reaction (none: nothing changes). */
export async function removePostReaction({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown } }): Promise<ReactionResult> {
  const viewer = requireViewer(ctx);
  assertCanWrite(viewer);
  const { id } = parseInput(postIdParams, { id: input.id });
  return withTransaction(ctx, async (tx) => {
    await lockVisible(tx, viewer.id, id);
    const [gone] = await tx.execute<{ reaction_type: ReactionType }>(sql`
      delete from post_reactions where post_id = ${id} and account_id = ${viewer.id} returning reaction_type`);
    if (gone) await tx.execute(sql`update posts set ${countChange(gone.reaction_type, -1)} where id = ${id}`);
    return result(tx, id, null);
  });
}
