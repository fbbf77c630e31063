import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { removePostReaction, setPostReaction } from "@/lib/server/services/posts/reactions";
import { REACTION_TYPES } from "@/lib/validation/reactions";
import { signedInAccount } from "./helpers/factories";
import { newPost } from "./post-support";

async function stored(postId: number) {
  const [post] = await getDb().execute<{ like_amount: number; reaction_counts: Record<string, number> }>(sql`
    select like_amount, reaction_counts from posts where id = ${postId}`);
  const rows = await getDb().execute<{ account_id: string; reaction_type: string }>(sql`
    select account_id, reaction_type from post_reactions where post_id = ${postId}`);
  const counted: Record<string, number> = {};
  for (const r of rows) counted[r.reaction_type] = (counted[r.reaction_type] ?? 0) + 1;
  return { likeAmount: Number(post.like_amount), counts: post.reaction_counts, rows, counted };
}

describe("reactions under concurrency", () => {
  it("ten people reacting at once give exactly ten, with matching counts", async () => {
    const author = await signedInAccount();
    const post = await newPost(author.ctx);
    const people = await Promise.all(Array.from({ length: 10 }, () => signedInAccount()));
    const results = await Promise.all(
      people.map((p, i) => setPostReaction({ ctx: p.ctx, input: { id: post.id, body: { type: "POST", reactionType: i % 2 ? "fire" : "heart" } } })),
    );
    expect(results.every((r) => r.myLike)).toBe(true);
    const s = await stored(post.id);
    expect(s.likeAmount).toBe(10);
    expect(s.rows).toHaveLength(10);
    expect(s.counts).toEqual({ fire: 5, heart: 5 });
  });

  it("one person clicking fast through many types holds exactly one reaction, and the counts agree", async () => {
    const author = await signedInAccount();
    const clicker = await signedInAccount();
    const other = await signedInAccount();
    const post = await newPost(author.ctx);
    await setPostReaction({ ctx: other.ctx, input: { id: post.id, body: { reactionType: "owl" } } });
    await Promise.all(
      REACTION_TYPES.slice(0, 20).flatMap((type, i) => [
        setPostReaction({ ctx: clicker.ctx, input: { id: post.id, body: { type: "POST", reactionType: type } } }),
        ...(i % 5 === 0 ? [removePostReaction({ ctx: clicker.ctx, input: { id: post.id } })] : []),
      ]),
    );
    const s = await stored(post.id);
    const mine = s.rows.filter((r) => Number(r.account_id) === clicker.id);
    expect(mine.length).toBeLessThanOrEqual(1);
    expect(s.likeAmount).toBe(s.rows.length);
    expect(s.counts).toEqual(s.counted);
    // A final click always leaves exactly one.
    await Promise.all([1, 2, 3].map(() => setPostReaction({ ctx: clicker.ctx, input: { id: post.id, body: { reactionType: "skull" } } })));
    const after = await stored(post.id);
    expect(after.rows.filter((r) => Number(r.account_id) === clicker.id)).toEqual([{ account_id: String(clicker.id), reaction_type: "skull" }]);
    expect(after.likeAmount).toBe(2);
    expect(after.counts).toEqual({ owl: 1, skull: 1 });
  });
});
