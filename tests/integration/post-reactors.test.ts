// GET post/{id}/reactions (issue 27, ADR 0131): who reacted — paging, friends first, the type filter,
// hostile parameters, privacy and blocks.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { GET as reactorsRoute } from "@/app/api/v1/post/[id]/reactions/route";
import { setPostReaction } from "@/lib/server/services/posts/reactions";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { makeFriends, setAccount, setPair } from "./friends-support";
import { newPost } from "./post-support";

type Account = Awaited<ReturnType<typeof signedInAccount>>;

const list = (who: Account, postId: number, q = "") =>
  call(reactorsRoute, { path: `/api/v1/post/${postId}/reactions${q ? `?${q}` : ""}`, token: who.accessToken, params: { id: String(postId) } });

/** `who` reacts with `type`, `minutesAgo` minutes ago (the order of the list). */
async function react(who: Account, postId: number, type: string, minutesAgo: number) {
  await setPostReaction({ ctx: who.ctx, input: { id: postId, body: { type: "POST", reactionType: type } } });
  await getDb().execute(sql`
    update post_reactions set created_at = now() - make_interval(mins => ${minutesAgo})
    where post_id = ${postId} and account_id = ${who.id}`);
}

const ids = (body: { content: { account: { id: number } }[] }) => body.content.map((r) => r.account.id);

describe("who reacted", () => {
  it("lists friends first, then newest, in the page envelope, paged and filtered by type", async () => {
    const [author, viewer, ...people] = await Promise.all(Array.from({ length: 9 }, () => signedInAccount()));
    const post = await newPost(author.ctx);
    // people[i] reacted i minutes ago; people 5 and 7 are the viewer's friends (older than the rest).
    for (const [i, p] of people.entries()) await react(p, post.id, i % 2 ? "fire" : "heart", i);
    await makeFriends(viewer.id, people[5].id);
    await makeFriends(viewer.id, people[6].id);

    const all = await list(viewer, post.id);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ totalElements: 7, totalPages: 1, size: 20, number: 0 });
    expect(ids(all.body)).toEqual([5, 6, 0, 1, 2, 3, 4].map((i) => people[i].id));
    expect(all.body.content[0]).toMatchObject({
      account: { id: people[5].id, firstName: "Ivan", lastName: "Petrov", photo: null },
      reactionType: "fire",
      isFriend: true,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(all.body.content[2].isFriend).toBe(false);

    // Pages of 3 put together give the whole list, without repeats.
    const pages = await Promise.all([0, 1, 2].map((page) => list(viewer, post.id, `page=${page}&size=3`)));
    expect(pages.map((p) => p.body.totalPages)).toEqual([3, 3, 3]);
    expect(pages.flatMap((p) => ids(p.body))).toEqual(ids(all.body));
    expect((await list(viewer, post.id, "page=3&size=3")).body.content).toEqual([]);

    const fire = await list(viewer, post.id, "reactionType=fire");
    expect(ids(fire.body)).toEqual([5, 1, 3].map((i) => people[i].id));
    expect(fire.body.totalElements).toBe(3);
    const heart = await list(viewer, post.id, "reactionType=heart&size=2");
    expect(ids(heart.body)).toEqual([6, 0].map((i) => people[i].id));
    expect(heart.body).toMatchObject({ totalElements: 4, totalPages: 2 });
    expect((await list(viewer, post.id, "reactionType=owl")).body).toMatchObject({ content: [], totalElements: 0 });
    // Empty parameters are the defaults.
    expect((await list(viewer, post.id, "reactionType=&page=&size=")).body.totalElements).toBe(7);

    // The author (no friends among them) sees plain newest first.
    expect(ids((await list(author, post.id)).body)).toEqual(people.map((p) => p.id));
  });

  it("refuses hostile parameters with 400 and the error envelope, never 500", async () => {
    const [author, viewer] = await Promise.all([signedInAccount(), signedInAccount()]);
    const post = await newPost(author.ctx);
    const hostile = [
      "reactionType=nope",
      "reactionType=__proto__",
      "reactionType=" + "x".repeat(5000),
      "reactionType=fire'%20or%201=1--",
      "page=-1",
      "page=1e3",
      "page=0x10",
      "page=5001",
      "page=99999999999999999999",
      "page=1.5",
      "page=NaN",
      "size=0",
      "size=51",
      "size=-5",
      "size=abc",
      "size=%00",
      "accountId=1",
      "constructor=1",
    ];
    for (const q of hostile) {
      const res = await list(viewer, post.id, q);
      expect(res.status, q).toBe(400);
      expect(res.body.error, q).toMatchObject({ code: "bad_request", message: expect.any(String) });
    }
    expect((await list(viewer, post.id, "page=5000&size=50")).status).toBe(200);
    for (const id of ["0", "-1", "abc", "1e3", "99999999999999999999"]) {
      const res = await call(reactorsRoute, { path: `/api/v1/post/${id}/reactions`, token: viewer.accessToken, params: { id } });
      expect(res.status, id).toBeGreaterThanOrEqual(400);
      expect(res.status, id).toBeLessThan(500);
    }
    expect((await call(reactorsRoute, { path: `/api/v1/post/${post.id}/reactions`, params: { id: String(post.id) } })).status).toBe(401);
  });

  it("answers only for posts the viewer may read, and hides blocked, deleted and banned people", async () => {
    const [author, viewer, friend, blocker, blocked, deleted, banned, plain] = await Promise.all(Array.from({ length: 8 }, () => signedInAccount()));
    const post = await newPost(author.ctx);
    for (const [i, p] of [friend, blocker, blocked, deleted, banned, plain].entries()) await react(p, post.id, "heart", i);
    await makeFriends(viewer.id, friend.id);
    await setPair(blocker.id, viewer.id, ["BLOCKED", "REJECTING"]); // blocker blocked the viewer
    await setPair(viewer.id, blocked.id, ["BLOCKED", "REJECTING"]); // the viewer blocked them
    await setAccount(deleted.id, { isDeleted: true });
    await getDb().execute(sql`update accounts set is_blocked = true where id = ${banned.id}`);

    const seen = await list(viewer, post.id);
    expect(ids(seen.body)).toEqual([friend.id, plain.id]);
    expect(seen.body.totalElements).toBe(2);
    expect(seen.body.content.map((r: { isFriend: boolean }) => r.isFriend)).toEqual([true, false]);
    // The one who blocked the viewer sees the one the viewer blocked (no block between them).
    expect(ids((await list(blocker, post.id)).body)).toContain(blocked.id);

    // A post of an author who blocked the viewer, of a closed page, or deleted: 404 as the post itself.
    await setPair(author.id, viewer.id, ["BLOCKED", "REJECTING"]);
    expect((await list(viewer, post.id)).status).toBe(404);
    await setPair(author.id, viewer.id, [null, null]);
    await getDb().execute(sql`update accounts set profile_visibility = 'FRIENDS' where id = ${author.id}`);
    expect((await list(viewer, post.id)).status).toBe(404);
    expect((await list(plain, post.id)).status).toBe(404);
    await makeFriends(author.id, viewer.id);
    expect((await list(viewer, post.id)).status).toBe(200);
    await getDb().execute(sql`update posts set is_deleted = true where id = ${post.id}`);
    const gone = await list(viewer, post.id);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe("not_found");
  });

  it("has an index that serves each list's order without a sort (plans at scale: ADR 0131)", async () => {
    const [author] = await Promise.all([signedInAccount()]);
    const post = await newPost(author.ctx);
    // A test database is too small for the planner to prefer an index; with scans and sorts priced out,
    // a plan without a Sort node exists only if an index gives the order.
    const plans = await getDb().transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_sort = off`);
      const plan = async (type: string | null) =>
        (
          await tx.execute<{ "QUERY PLAN": string }>(sql`explain
            select r.account_id from post_reactions r where r.post_id = ${post.id} ${type ? sql`and r.reaction_type = ${type}` : sql``}
            order by r.created_at desc, r.account_id desc limit 20`)
        )
          .map((r) => r["QUERY PLAN"])
          .join("\n");
      return [await plan(null), await plan("fire")];
    });
    expect(plans[0]).toMatch(/Index (Only )?Scan Backward using post_reactions_post_time_idx/);
    expect(plans[1]).toMatch(/Index (Only )?Scan Backward using post_reactions_post_type_time_idx/);
    for (const p of plans) expect(p).not.toMatch(/\bSort\b/);
  });
});
