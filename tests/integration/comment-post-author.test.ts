// Issue 27: a post's author may delete others' comments on their own post; only whoever deleted a comment restores it.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { PUT as recoverRoute } from "@/app/api/v1/post/[id]/comment/[commentId]/recover/route";
import { DELETE as deleteRoute } from "@/app/api/v1/post/[id]/comment/[commentId]/route";
import { GET as listRoute, POST as createRoute } from "@/app/api/v1/post/[id]/comment/route";
import { getDb } from "@/db/client";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { setPair } from "./friends-support";
import { newPost } from "./post-support";

type Account = Awaited<ReturnType<typeof signedInAccount>>;
let a: Account; // the post's author
let b: Account; // a commenter
let c: Account; // a bystander

beforeAll(async () => {
  a = await signedInAccount({ firstName: "Anna", lastName: "Ivanova" });
  b = await signedInAccount({ firstName: "Boris", lastName: "Orlov" });
  c = await signedInAccount({ firstName: "Clara", lastName: "Smirnova" });
});

const p = (postId: number | string, id: number | string) => ({ id: String(postId), commentId: String(id) });
const create = (who: Account, postId: number, body: unknown) => call(createRoute, { method: "POST", body, token: who.accessToken, params: { id: String(postId) } });
const remove = (who: Account | null, postId: number | string, id: number | string) => call(deleteRoute, { method: "DELETE", token: who?.accessToken, params: p(postId, id) });
const recover = (who: Account, postId: number | string, id: number | string) => call(recoverRoute, { method: "PUT", token: who.accessToken, params: p(postId, id) });
const list = (who: Account, postId: number) => call(listRoute, { path: `/api/v1/post/${postId}/comment`, token: who.accessToken, params: { id: String(postId) } });
const stored = async (postId: number) =>
  (await getDb().execute<{ n: number }>(sql`select comments_count as n from posts where id = ${postId}`))[0].n;

describe("the post's author and others' comments", () => {
  it("deletes someone else's comment on their own post: the count drops in the same write; only they may restore it", async () => {
    const post = await newPost(a.ctx);
    const top = await create(b, post.id, { commentText: "Комментарий Бориса" });
    const reply = await create(c, post.id, { parentId: top.body.id, commentText: "Ответ Клары" });
    expect(await stored(post.id)).toBe(2);

    const del = await remove(a, post.id, reply.body.id);
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(del.body).toMatchObject({ isDeleted: true, canRecover: true });
    expect(await stored(post.id)).toBe(1);
    const [row] = await getDb().execute<{ deleted_by: string; comments_count: number }>(sql`
      select c.deleted_by, t.comments_count from comments c join comments t on t.id = c.parent_id where c.id = ${reply.body.id}`);
    expect(Number(row.deleted_by)).toBe(a.id);
    expect(row.comments_count).toBe(0);

    // The comment's author sees the placeholder without "restore" and cannot restore it.
    const refused = await recover(c, post.id, reply.body.id);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toEqual(expect.any(String));
    // The post's author can.
    expect((await recover(a, post.id, reply.body.id)).body).toMatchObject({ isDeleted: false });
    expect(await stored(post.id)).toBe(2);

    // A comment its author deleted stays theirs to restore: the post's author cannot.
    await remove(b, post.id, top.body.id);
    expect((await recover(a, post.id, top.body.id)).status).toBe(403);
    const mine = (await list(b, post.id)).body.content.find((x: { id: number }) => x.id === top.body.id);
    expect(mine).toMatchObject({ isDeleted: true, canRecover: true });
    expect((await recover(b, post.id, top.body.id)).status).toBe(200);
  });

  it("nobody else may delete: a bystander and the commenter on someone else's post are refused, counts unchanged", async () => {
    const post = await newPost(a.ctx);
    const top = await create(b, post.id, { commentText: "Комментарий Бориса" });
    const other = await create(a, post.id, { commentText: "Комментарий автора" });
    expect((await remove(c, post.id, top.body.id)).status).toBe(403);
    // The commenter may not delete the post author's own comment.
    expect((await remove(b, post.id, other.body.id)).status).toBe(403);
    expect(await stored(post.id)).toBe(2);
    // The post's author, through another post's path, does not reach it.
    const elsewhere = await newPost(a.ctx);
    expect((await remove(a, elsewhere.id, top.body.id)).status).toBe(404);
    // Hostile ids and no session.
    for (const [postId, id] of [["x", top.body.id], [post.id, "abc"], [post.id, "0"], [post.id, "99999999999999999999"]] as const) {
      const res = await remove(a, postId, id);
      expect(res.status, `${postId}/${id}`).toBe(422);
      expect(res.body.error.message).toEqual(expect.any(String));
    }
    expect((await remove(a, post.id, Number.MAX_SAFE_INTEGER)).status).toBe(404);
    expect((await remove(null, post.id, top.body.id)).status).toBe(401);
    expect(await stored(post.id)).toBe(2);
  });

  it("a block between the post's author and the commenter: the comment is out of reach (404), as it is out of the post", async () => {
    const x = await signedInAccount({ firstName: "Xenia", lastName: "Test" });
    const y = await signedInAccount({ firstName: "Yuri", lastName: "Test" });
    const post = await newPost(x.ctx);
    const top = await create(y, post.id, { commentText: "Комментарий Юрия" });
    await setPair(x.id, y.id, ["BLOCKED", "REJECTING"]);
    expect((await remove(x, post.id, top.body.id)).status).toBe(404);
    await setPair(x.id, y.id, [null, null]);
    expect((await remove(x, post.id, top.body.id)).status).toBe(200);
  });
});
