// Issue 27: PUT post/{id}/recover — the author restores a deleted post, as comments' …/recover does (docs/adr/0130).
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { PUT as recoverRoute } from "@/app/api/v1/post/[id]/recover/route";
import { DELETE as deleteRoute, GET as getRoute } from "@/app/api/v1/post/[id]/route";
import { GET as listRoute } from "@/app/api/v1/post/route";
import { getDb } from "@/db/client";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { setPair } from "./friends-support";
import { newPost } from "./post-support";

type Account = Awaited<ReturnType<typeof signedInAccount>>;
const person = (firstName: string) => signedInAccount({ firstName, lastName: "Test" });
const recover = (who: Account | null, id: number | string) => call(recoverRoute, { method: "PUT", token: who?.accessToken, params: { id: String(id) } });
const remove = (who: Account, id: number) => call(deleteRoute, { method: "DELETE", token: who.accessToken, params: { id: String(id) } });
const tagCount = async (name: string) =>
  Number((await getDb().execute<{ n: number }>(sql`select posts_count as n from tags where name = ${name}`))[0]?.n ?? 0);

let a: Account;
let b: Account;
beforeAll(async () => {
  a = await person("Anna");
  b = await person("Boris");
});

describe("PUT post/{id}/recover", () => {
  it("restores the author's deleted post where it was, with its counts: tags, comments, reactions; not marked edited", async () => {
    const post = await newPost(a.ctx, { tags: [{ name: "ремонт" }] });
    await call((await import("@/app/api/v1/post/[id]/like/route")).POST, { method: "POST", token: b.accessToken, params: { id: String(post.id) }, body: { type: "POST", reactionType: "heart" } });
    expect(await tagCount("ремонт")).toBe(1);
    expect((await remove(a, post.id)).status).toBe(200);
    expect(await tagCount("ремонт")).toBe(0);
    expect((await call(getRoute, { token: b.accessToken, params: { id: String(post.id) } })).status).toBe(404);

    const res = await recover(a, post.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: post.id, isDeleted: false, timeChanged: null, likeAmount: 1, publishDate: post.publishDate, repostOf: null });
    expect(await tagCount("ремонт")).toBe(1);
    const wall = await call(listRoute, { token: b.accessToken, path: `/api/v1/post?accountIds=${a.id}` });
    expect(wall.body.content.map((p: { id: number }) => p.id)).toContain(post.id);
    // Once restored it is not deleted: 409, as a comment.
    const again = await recover(a, post.id);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toEqual(expect.any(String));
  });

  it("only the author: someone else's post is 403 while visible and 404 once deleted; blocks and bad ids hold", async () => {
    const post = await newPost(a.ctx);
    expect((await recover(b, post.id)).status).toBe(403);
    await remove(a, post.id);
    expect((await recover(b, post.id)).status).toBe(404);
    const [{ is_deleted }] = await getDb().execute<{ is_deleted: boolean }>(sql`select is_deleted from posts where id = ${post.id}`);
    expect(is_deleted).toBe(true);
    for (const id of ["abc", "0", "-5", "1e3", "99999999999999999999"]) {
      const res = await recover(a, id);
      expect(res.status, id).toBe(422);
      expect(res.body.error.message).toEqual(expect.any(String));
    }
    expect((await recover(a, Number.MAX_SAFE_INTEGER)).status).toBe(404);
    expect((await recover(null, post.id)).status).toBe(401);
    // A block between the two changes nothing for the author's own post.
    await setPair(a.id, b.id, ["BLOCKED", "REJECTING"]);
    expect((await recover(b, post.id)).status).toBe(404);
    expect((await recover(a, post.id)).status).toBe(200);
    await setPair(a.id, b.id, [null, null]);
  });

  it("a deleted page cannot restore; a restored original shows again inside its reposts", async () => {
    const x = await person("Xenia");
    const post = await newPost(x.ctx);
    const { POST: repostRoute } = await import("@/app/api/v1/post/[id]/repost/route");
    const shared = await call(repostRoute, { method: "POST", token: b.accessToken, params: { id: String(post.id) } });
    await remove(x, post.id);
    expect((await call(getRoute, { token: b.accessToken, params: { id: String(shared.body.id) } })).body.repostOf).toEqual({ id: post.id, gone: "DELETED" });
    await getDb().execute(sql`update accounts set is_deleted = true, deletion_timestamp = now() where id = ${x.id}`);
    expect((await recover(x, post.id)).status).toBe(403);
    await getDb().execute(sql`update accounts set is_deleted = false, deletion_timestamp = null where id = ${x.id}`);
    expect((await recover(x, post.id)).status).toBe(200);
    expect((await call(getRoute, { token: b.accessToken, params: { id: String(shared.body.id) } })).body.repostOf).toMatchObject({ id: post.id, title: post.title });
  });
});
