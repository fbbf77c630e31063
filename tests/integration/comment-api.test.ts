import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DELETE as unlikeRoute, POST as likeRoute } from "@/app/api/v1/post/[id]/comment/[commentId]/like/route";
import { PUT as recoverRoute } from "@/app/api/v1/post/[id]/comment/[commentId]/recover/route";
import { DELETE as deleteRoute, PUT as replyRoute } from "@/app/api/v1/post/[id]/comment/[commentId]/route";
import { GET as subRoute } from "@/app/api/v1/post/[id]/comment/[commentId]/subcomment/route";
import { GET as listRoute, POST as createRoute, PUT as editRoute } from "@/app/api/v1/post/[id]/comment/route";
import { GET as postRoute } from "@/app/api/v1/post/[id]/route";
import { getDb } from "@/db/client";
import { createComment, deleteComment, likeComment, unlikeComment } from "@/lib/server/services/comments/comments";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { setAccount, setPair } from "./friends-support";
import { newPost } from "./post-support";

type Account = Awaited<ReturnType<typeof signedInAccount>>;
let a: Account;
let b: Account;
let c: Account;

beforeAll(async () => {
  a = await signedInAccount({ firstName: "Anna", lastName: "Ivanova" });
  b = await signedInAccount({ firstName: "Boris", lastName: "Orlov" });
  c = await signedInAccount({ firstName: "Clara", lastName: "Smirnova" });
});

const create = (who: Account | null, postId: number, body: unknown) =>
  call(createRoute, { method: "POST", body, token: who?.accessToken, params: { id: String(postId) } });
const list = (who: Account | null, postId: number, q = "") =>
  call(listRoute, { path: `/api/v1/post/${postId}/comment?sort=time,desc&isDeleted=false&${q}`, token: who?.accessToken, params: { id: String(postId) } });
const subs = (who: Account, postId: number, id: number) =>
  call(subRoute, { path: `/api/v1/post/${postId}/comment/${id}/subcomment`, token: who.accessToken, params: { id: String(postId), commentId: String(id) } });
const counts = async (postId: number) => {
  const [row] = await getDb().execute<{ n: number; stored: number }>(sql`
    select (select count(*)::int from comments where post_id = ${postId} and not is_deleted) as n,
           (select comments_count from posts where id = ${postId}) as stored`);
  return row;
};

describe("comments", () => {
  it("creates comments and replies (both forms, two levels) with every DTO key and exact counts", async () => {
    const post = await newPost(a.ctx);
    expect((await create(null, post.id, { commentText: "Привет!" })).status).toBe(401);
    const top = await create(b, post.id, { commentText: "  Первый комментарий  " });
    expect(top.status, JSON.stringify(top.body)).toBe(201);
    expect(top.body).toEqual({
      id: expect.any(Number), postId: post.id, parentId: null, authorId: b.id,
      author: { id: b.id, firstName: "Boris", lastName: "Orlov", photo: null },
      commentText: "Первый комментарий", time: expect.any(String), timeChanged: null,
      likeAmount: 0, myLike: false, isDeleted: false, is_deleted: false, isBlocked: false, commentsCount: 0, canRecover: false,
    });
    const reply = await create(c, post.id, { parentId: top.body.id, commentText: "Ответ" });
    expect(reply.body.parentId).toBe(top.body.id);
    const replyToReply = await call(replyRoute, { method: "PUT", token: a.accessToken, params: { id: String(post.id), commentId: String(reply.body.id) }, body: { commentText: "Clara, ответ на ответ" } });
    expect(replyToReply.status).toBe(201);
    expect(replyToReply.body.parentId).toBe(top.body.id);

    const page = await list(a, post.id);
    expect(page.body).toMatchObject({ totalElements: 1, number: 0, size: 5 });
    expect(page.body.content[0]).toMatchObject({ id: top.body.id, commentsCount: 2 });
    expect((await subs(a, post.id, top.body.id)).body.content.map((x: { id: number }) => x.id)).toEqual([reply.body.id, replyToReply.body.id]);
    expect(await counts(post.id)).toEqual({ n: 3, stored: 3 });
    expect((await call(postRoute, { token: b.accessToken, params: { id: String(post.id) } })).body.commentsCount).toBe(3);
  });

  it("refuses blank, too long, foreign-post parents and closed posts, storing nothing", async () => {
    const post = await newPost(a.ctx);
    const other = await newPost(a.ctx);
    const foreign = await create(b, other.id, { commentText: "Чужой пост" });
    const before = await counts(post.id);
    expect((await create(b, post.id, { commentText: "   " })).status).toBe(422);
    const long = await create(b, post.id, { commentText: "я".repeat(2001) });
    expect(long.status).toBe(422);
    expect(long.body.error.message).toBe("Комментарий не может быть длиннее 2000 символов.");
    expect((await create(b, post.id, { commentText: "я".repeat(2000) })).status).toBe(201);
    expect((await create(b, post.id, { parentId: foreign.body.id, commentText: "Не туда" })).status).toBe(422);
    expect((await create(b, 999_999_999, { commentText: "Нет поста" })).status).toBe(404);
    const queued = await newPost(a.ctx, { publishDate: new Date(Date.now() + 3600_000).toISOString() });
    expect((await create(b, queued.id, { commentText: "Рано" })).status).toBe(404);
    expect((await create(a, queued.id, { commentText: "Рано" })).status).toBe(404);
    expect(await counts(post.id)).toEqual({ n: before.n + 1, stored: before.stored + 1 });
  });

  it("holds a block either way and refuses deleted accounts", async () => {
    const post = await newPost(a.ctx);
    await setPair(a.id, b.id, ["BLOCKED", "REJECTING"]);
    expect((await create(b, post.id, { commentText: "Можно?" })).status).toBe(404);
    expect((await list(b, post.id)).status).toBe(404);
    await setPair(a.id, b.id, [null, null]);
    const gone = await signedInAccount();
    await setAccount(gone.id, { isDeleted: true });
    expect((await create(gone, post.id, { commentText: "Я удалён" })).status).toBe(403);
    // A comment by someone the reader blocked is not listed to the reader.
    const byC = await create(c, post.id, { commentText: "От Клары" });
    await setPair(b.id, c.id, ["BLOCKED", "REJECTING"]);
    expect((await list(b, post.id)).body.content.map((x: { id: number }) => x.id)).not.toContain(byC.body.id);
    await setPair(b.id, c.id, [null, null]);
  });

  it("lets only the author edit, delete and recover; deleted text reaches nobody else", async () => {
    const post = await newPost(a.ctx);
    const top = await create(b, post.id, { commentText: "Секрет" });
    await create(c, post.id, { parentId: top.body.id, commentText: "Ответ" });
    const p = { id: String(post.id), commentId: String(top.body.id) };
    const edit = (who: Account | null, body: unknown) => call(editRoute, { method: "PUT", token: who?.accessToken, params: { id: String(post.id) }, body });
    expect((await edit(null, { id: top.body.id, commentText: "x" })).status).toBe(401);
    expect((await edit(a, { id: top.body.id, commentText: "Взлом" })).status).toBe(403);
    const ok = await edit(b, { id: top.body.id, commentText: "Секрет (исправлено)" });
    expect(ok.body).toMatchObject({ commentText: "Секрет (исправлено)", timeChanged: expect.any(String) });

    expect((await call(deleteRoute, { method: "DELETE", params: p })).status).toBe(401);
    // Not a bystander's to delete (the post's author may: issue 27, comment-post-author.test.ts).
    expect((await call(deleteRoute, { method: "DELETE", token: c.accessToken, params: p })).status).toBe(403);
    const del = await call(deleteRoute, { method: "DELETE", token: b.accessToken, params: p });
    expect(del.body).toMatchObject({ isDeleted: true, is_deleted: true });
    expect(await counts(post.id)).toEqual({ n: 1, stored: 1 });
    const seenByA = (await list(a, post.id)).body.content[0];
    expect(seenByA).toMatchObject({ id: top.body.id, isDeleted: true, commentText: "" });
    expect((await list(b, post.id)).body.content[0].commentText).toBe("Секрет (исправлено)");
    expect((await call(likeRoute, { method: "POST", token: a.accessToken, params: p })).status).toBe(404);

    expect((await call(recoverRoute, { method: "PUT", token: a.accessToken, params: p })).status).toBe(403);
    expect((await call(recoverRoute, { method: "PUT", token: b.accessToken, params: p })).body.isDeleted).toBe(false);
    expect((await call(recoverRoute, { method: "PUT", token: b.accessToken, params: p })).status).toBe(409);
    expect(await counts(post.id)).toEqual({ n: 2, stored: 2 });
  });

  it("likes toggle, once per person", async () => {
    const post = await newPost(a.ctx);
    const top = await create(b, post.id, { commentText: "Лайкни" });
    const p = { id: String(post.id), commentId: String(top.body.id) };
    expect((await call(likeRoute, { method: "POST", params: p })).status).toBe(401);
    expect((await call(likeRoute, { method: "POST", token: a.accessToken, params: p })).body).toEqual({ id: top.body.id, likeAmount: 1, myLike: true });
    expect((await call(likeRoute, { method: "POST", token: a.accessToken, params: p })).body.likeAmount).toBe(1);
    expect((await list(a, post.id)).body.content[0]).toMatchObject({ likeAmount: 1, myLike: true });
    expect((await call(unlikeRoute, { method: "DELETE", token: c.accessToken, params: p })).body.likeAmount).toBe(1);
    expect((await call(unlikeRoute, { method: "DELETE", token: a.accessToken, params: p })).body).toEqual({ id: top.body.id, likeAmount: 0, myLike: false });
  });

  it("keeps counts exact under concurrent comments and likes", async () => {
    const post = await newPost(a.ctx);
    const people = await Promise.all(Array.from({ length: 10 }, () => signedInAccount()));
    const made = await Promise.all(people.map((p, i) => createComment({ ctx: p.ctx, input: { postId: post.id, body: { commentText: `Комментарий ${i}` } } })));
    expect(await counts(post.id)).toEqual({ n: 10, stored: 10 });
    const target = made[0];
    await Promise.all([...people, ...people].map((p) => likeComment({ ctx: p.ctx, input: { postId: post.id, id: target.id } })));
    const [row] = await getDb().execute<{ like_amount: number; n: number }>(sql`
      select like_amount, (select count(*)::int from comment_likes where comment_id = ${target.id}) as n from comments where id = ${target.id}`);
    expect(row).toEqual({ like_amount: 10, n: 10 });
  });
  it("answers 401 to every verb without a session and stores nothing", async () => {
    const post = await newPost(a.ctx);
    const top = await create(b, post.id, { commentText: "Есть комментарий" });
    const p = { id: String(post.id), commentId: String(top.body.id) };
    const before = await counts(post.id);
    const answers = await Promise.all([
      call(listRoute, { path: `/api/v1/post/${post.id}/comment`, params: { id: String(post.id) } }),
      call(subRoute, { path: `/api/v1/post/${post.id}/comment/${top.body.id}/subcomment`, params: p }),
      call(createRoute, { method: "POST", params: { id: String(post.id) }, body: { commentText: "Аноним" } }),
      call(replyRoute, { method: "PUT", params: p, body: { commentText: "Аноним" } }),
      call(editRoute, { method: "PUT", params: { id: String(post.id) }, body: { id: top.body.id, commentText: "Аноним" } }),
      call(deleteRoute, { method: "DELETE", params: p }),
      call(recoverRoute, { method: "PUT", params: p }),
      call(likeRoute, { method: "POST", params: p }),
      call(unlikeRoute, { method: "DELETE", params: p }),
    ]);
    expect(answers.map((r) => r.status)).toEqual(Array(9).fill(401));
    for (const r of answers) expect(r.body.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(await counts(post.id)).toEqual(before);
  });

  it("refuses wrong users and wrong addresses on every verb with a 4xx, changing nothing", async () => {
    const post = await newPost(a.ctx);
    const other = await newPost(a.ctx);
    const top = await create(b, post.id, { commentText: "Комментарий Бориса" });
    const p = { id: String(post.id), commentId: String(top.body.id) };
    const wrongPost = { id: String(other.id), commentId: String(top.body.id) };
    // Another person's comment: edit, delete and recover are the author's alone.
    expect((await call(editRoute, { method: "PUT", token: c.accessToken, params: { id: String(post.id) }, body: { id: top.body.id, commentText: "Чужое" } })).status).toBe(403);
    expect((await call(deleteRoute, { method: "DELETE", token: c.accessToken, params: p })).status).toBe(403);
    await call(deleteRoute, { method: "DELETE", token: b.accessToken, params: p });
    expect((await call(recoverRoute, { method: "PUT", token: c.accessToken, params: p })).status).toBe(403);
    expect((await call(recoverRoute, { method: "PUT", token: b.accessToken, params: p })).status).toBe(200);
    // The comment addressed under another post is not there.
    expect((await call(deleteRoute, { method: "DELETE", token: b.accessToken, params: wrongPost })).status).toBe(404);
    expect((await call(likeRoute, { method: "POST", token: c.accessToken, params: wrongPost })).status).toBe(404);
    expect((await call(subRoute, { path: "/x", token: c.accessToken, params: wrongPost })).status).toBe(404);
    expect((await call(replyRoute, { method: "PUT", token: c.accessToken, params: wrongPost, body: { commentText: "Не туда" } })).status).toBe(422);
    // Malformed ids and queries.
    expect((await call(deleteRoute, { method: "DELETE", token: b.accessToken, params: { id: String(post.id), commentId: "abc" } })).status).toBe(422);
    expect((await list(b, post.id, "size=500")).status).toBe(422);
    expect((await call(editRoute, { method: "PUT", token: b.accessToken, params: { id: String(post.id) }, body: { id: top.body.id, commentText: "я".repeat(2001) } })).status).toBe(422);
    const after = (await list(b, post.id)).body.content[0];
    expect(after).toMatchObject({ id: top.body.id, commentText: "Комментарий Бориса", isDeleted: false, likeAmount: 0, commentsCount: 0 });
    expect(await counts(post.id)).toEqual({ n: 1, stored: 1 });
  });

  it("keeps a thread's reply count exact under concurrent replies, deletes, likes and unlikes", async () => {
    const post = await newPost(a.ctx);
    const top = await createComment({ ctx: b.ctx, input: { postId: post.id, body: { commentText: "Тред" } } });
    const people = await Promise.all(Array.from({ length: 8 }, () => signedInAccount()));
    const replies = await Promise.all(
      people.map((p, i) => createComment({ ctx: p.ctx, input: { postId: post.id, body: { parentId: top.id, commentText: `Ответ ${i}` } } })),
    );
    await Promise.all([
      ...people.slice(0, 3).map((p, i) => deleteComment({ ctx: p.ctx, input: { postId: post.id, id: replies[i].id } })),
      ...people.map((p) => likeComment({ ctx: p.ctx, input: { postId: post.id, id: top.id } })),
      ...people.slice(0, 4).map((p) => unlikeComment({ ctx: p.ctx, input: { postId: post.id, id: top.id } })),
    ]);
    const [row] = await getDb().execute<{ comments_count: number; live: number; like_amount: number; likes: number }>(sql`
      select comments_count, like_amount,
             (select count(*)::int from comments r where r.parent_id = ${top.id} and not r.is_deleted) as live,
             (select count(*)::int from comment_likes l where l.comment_id = ${top.id}) as likes
      from comments where id = ${top.id}`);
    expect(row.comments_count).toBe(5);
    expect(row.live).toBe(5);
    expect(row.like_amount).toBe(row.likes);
    expect(await counts(post.id)).toEqual({ n: 6, stored: 6 });
  });
});
