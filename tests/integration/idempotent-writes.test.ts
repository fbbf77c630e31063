// Posts and comments sent with a clientId are made once (docs/adr/0144): a retry after a lost answer
// (a phone between cells, a worker killed after its commit) answers what the first attempt made and
// changes nothing; the same id for something else is a 409; a malformed one a 422.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { PUT as replyRoute } from "@/app/api/v1/post/[id]/comment/[commentId]/route";
import { POST as commentRoute } from "@/app/api/v1/post/[id]/comment/route";
import { DELETE as deletePostRoute } from "@/app/api/v1/post/[id]/route";
import { POST as postRoute } from "@/app/api/v1/post/route";
import { getDb } from "@/db/client";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { newPost } from "./post-support";

type Account = Awaited<ReturnType<typeof signedInAccount>>;
const count = async (query: ReturnType<typeof sql>) => Number((await getDb().execute<{ n: string }>(query))[0].n);
const publish = (who: Account, body: Record<string, unknown>, lang = "ru") =>
  call(postRoute, { token: who.accessToken, headers: { "accept-language": lang }, body: { postText: "<p>Текст записи для проверки</p>", ...body } });
const comment = (who: Account, postId: number, body: Record<string, unknown>, lang = "ru") =>
  call(commentRoute, { token: who.accessToken, params: { id: String(postId) }, headers: { "accept-language": lang }, body });

describe("idempotent posts", () => {
  it("a retry with the same clientId answers the same post and stores it once; its announcement went once", async () => {
    const me = await signedInAccount();
    const clientId = randomUUID();
    const first = await publish(me, { title: "Один раз", clientId });
    expect(first.status).toBe(201);
    const events = await count(sql`select count(*) as n from events where type = 'POST_PUBLISHED' and (payload->>'postId')::bigint = ${first.body.id}`);
    const again = await publish(me, { title: "Один раз", clientId });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await count(sql`select count(*) as n from posts where author_id = ${me.id}`)).toBe(1);
    expect(await count(sql`select count(*) as n from events where type = 'POST_PUBLISHED' and (payload->>'postId')::bigint = ${first.body.id}`)).toBe(events);
    // Without a clientId every POST is a new post, as before.
    expect((await publish(me, { title: "Один раз" })).body.id).not.toBe(first.body.id);
  });

  it("parallel attempts with one clientId make one post, and every attempt answers it", async () => {
    const me = await signedInAccount();
    const clientId = randomUUID();
    const answers = await Promise.all(Array.from({ length: 6 }, () => publish(me, { title: "Гонка", clientId })));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await count(sql`select count(*) as n from posts where author_id = ${me.id}`)).toBe(1);
  });

  it("the same clientId for another post is 409 and stores nothing; a malformed one is 422; each author has their own ids", async () => {
    const [me, other] = await Promise.all([signedInAccount(), signedInAccount()]);
    const clientId = randomUUID();
    expect((await publish(me, { title: "Первая", clientId })).status).toBe(201);
    const reused = await publish(me, { title: "Другая", clientId }, "en");
    expect(reused.status).toBe(409);
    expect(reused.body.error.message).toBe("This clientId was already used for something else.");
    for (const bad of ["not-a-uuid", 42, "", "'; drop table posts; --", "0".repeat(5000)]) {
      const res = await publish(me, { title: "Плохой", clientId: bad });
      expect(res.status, String(bad).slice(0, 20)).toBe(422);
      expect(res.body.error.issues).toEqual([{ path: "clientId", message: "clientId должен быть UUID." }]);
    }
    expect(await count(sql`select count(*) as n from posts where author_id = ${me.id}`)).toBe(1);
    expect((await publish(other, { title: "Первая", clientId })).status).toBe(201);
  });

  it("a retry after the post was deleted is 404 and makes no new post", async () => {
    const me = await signedInAccount();
    const clientId = randomUUID();
    const first = await publish(me, { title: "Удалю", clientId });
    await call(deletePostRoute, { method: "DELETE", token: me.accessToken, params: { id: String(first.body.id) } });
    expect((await publish(me, { title: "Удалю", clientId })).status).toBe(404);
    expect(await count(sql`select count(*) as n from posts where author_id = ${me.id}`)).toBe(1);
  });
});

describe("idempotent comments", () => {
  it("comments and replies: a retry answers the same comment, counted once on the post and the parent", async () => {
    const [author, me] = await Promise.all([signedInAccount(), signedInAccount()]);
    const post = await newPost(author.ctx);
    const clientId = randomUUID();
    const first = await comment(me, post.id, { commentText: "Привет", clientId });
    expect(first.status).toBe(201);
    const answers = await Promise.all(Array.from({ length: 4 }, () => comment(me, post.id, { commentText: "Привет", clientId })));
    expect(answers.every((a) => a.status === 201 && a.body.id === first.body.id)).toBe(true);
    const replyId = randomUUID();
    const reply = (text: string) =>
      call(replyRoute, { method: "PUT", token: me.accessToken, params: { id: String(post.id), commentId: String(first.body.id) }, body: { commentText: text, clientId: replyId } });
    const r1 = await reply("Ответ");
    const r2 = await reply("Ответ");
    expect(r1.status).toBe(201);
    expect(r2.body.id).toBe(r1.body.id);
    expect(await count(sql`select count(*) as n from comments where author_id = ${me.id}`)).toBe(2);
    expect(await count(sql`select comments_count as n from posts where id = ${post.id}`)).toBe(2);
    expect(await count(sql`select comments_count as n from comments where id = ${first.body.id}`)).toBe(1);
    // The same id with other words, or on another post: 409, nothing stored.
    expect((await comment(me, post.id, { commentText: "Другое", clientId })).status).toBe(409);
    const elsewhere = await newPost(author.ctx);
    expect((await comment(me, elsewhere.id, { commentText: "Привет", clientId })).status).toBe(409);
    expect((await comment(me, post.id, { commentText: "Плохой", clientId: "x" })).status).toBe(422);
    expect(await count(sql`select count(*) as n from comments where author_id = ${me.id}`)).toBe(2);
  });
});
