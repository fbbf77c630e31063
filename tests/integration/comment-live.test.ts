import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUT as recoverRoute } from "@/app/api/v1/post/[id]/comment/[commentId]/recover/route";
import { DELETE as unlikeRoute, POST as likeRoute } from "@/app/api/v1/post/[id]/comment/[commentId]/like/route";
import { DELETE as deleteRoute } from "@/app/api/v1/post/[id]/comment/[commentId]/route";
import { POST as createRoute, PUT as editRoute } from "@/app/api/v1/post/[id]/comment/route";
import { COMMENT_CHANGED, MAX_WATCHED_POSTS, WATCH_POSTS, WATCHING_POSTS } from "@/lib/validation/comment-live";
import { createRealtimeServer, type RealtimeServer } from "@/realtime/server";
import { setPair } from "./friends-support";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { TestSocket, type Frame } from "./helpers/ws-client";
import { newPost } from "./post-support";

type Account = Awaited<ReturnType<typeof signedInAccount>>;

let server: RealtimeServer;
beforeAll(async () => {
  server = await createRealtimeServer({ port: 0 });
});
afterAll(async () => {
  await server.close();
});

const open = (who: Account) => TestSocket.open(server.port, { token: who.accessToken });

async function nextOf(socket: TestSocket, ...types: string[]): Promise<Frame> {
  for (;;) {
    const f = await socket.next();
    if (types.includes(f.type)) return f;
  }
}

/** Opens a socket of `who` watching `postIds`, once the sidecar has confirmed the list. */
async function watcher(who: Account, postIds: number[]) {
  const s = await open(who);
  s.send({ type: WATCH_POSTS, postIds });
  expect(await nextOf(s, WATCHING_POSTS)).toEqual({ type: WATCHING_POSTS, data: { postIds } });
  return s;
}

const comment = async (who: Account, postId: number, body: Record<string, unknown>) => {
  const res = await call(createRoute, { method: "POST", body, token: who.accessToken, params: { id: String(postId) } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; parentId: number | null };
};

describe("live comments over the socket", () => {
  it("a third person watching the post sees every change by id only; a socket not watching sees none", async () => {
    const [a, b, c] = await Promise.all([signedInAccount(), signedInAccount(), signedInAccount()]);
    const post = await newPost(a.ctx);
    const other = await newPost(a.ctx);
    const watching = await watcher(c, [post.id]);
    const elsewhere = await watcher(c, [other.id]);

    const top = await comment(b, post.id, { commentText: "Секретный текст" });
    const f = await nextOf(watching, COMMENT_CHANGED);
    expect(f).toEqual({ type: COMMENT_CHANGED, data: { postId: post.id, commentId: top.id, parentId: null, change: "added" } });
    expect(JSON.stringify(f)).not.toContain("Секретный");

    const reply = await comment(a, post.id, { parentId: top.id, commentText: "Ответ автора" });
    expect((await nextOf(watching, COMMENT_CHANGED)).data).toEqual({ postId: post.id, commentId: reply.id, parentId: top.id, change: "added" });

    const p = { id: String(post.id), commentId: String(top.id) };
    await call(editRoute, { method: "PUT", token: b.accessToken, params: { id: String(post.id) }, body: { id: top.id, commentText: "Исправлено" } });
    expect((await nextOf(watching, COMMENT_CHANGED)).data).toMatchObject({ commentId: top.id, change: "edited" });
    await call(deleteRoute, { method: "DELETE", token: b.accessToken, params: p });
    expect((await nextOf(watching, COMMENT_CHANGED)).data).toMatchObject({ commentId: top.id, change: "deleted" });
    await call(recoverRoute, { method: "PUT", token: b.accessToken, params: p });
    expect((await nextOf(watching, COMMENT_CHANGED)).data).toMatchObject({ commentId: top.id, change: "recovered" });

    // Likes are announced too (ids only), so every open card's count follows; a repeated like changes
    // nothing and announces nothing.
    expect((await call(likeRoute, { method: "POST", token: c.accessToken, params: p })).status).toBe(200);
    expect((await nextOf(watching, COMMENT_CHANGED)).data).toEqual({ postId: post.id, commentId: top.id, parentId: null, change: "liked" });
    expect((await call(likeRoute, { method: "POST", token: c.accessToken, params: p })).status).toBe(200);
    const rp = { id: String(post.id), commentId: String(reply.id) };
    expect((await call(likeRoute, { method: "POST", token: b.accessToken, params: rp })).status).toBe(200);
    expect((await nextOf(watching, COMMENT_CHANGED)).data).toEqual({ postId: post.id, commentId: reply.id, parentId: top.id, change: "liked" });
    expect((await call(unlikeRoute, { method: "DELETE", token: c.accessToken, params: p })).status).toBe(200);
    expect((await nextOf(watching, COMMENT_CHANGED)).data).toMatchObject({ commentId: top.id, change: "unliked" });

    // A refused write (wrong user) notifies nobody: the next frame is the later real comment.
    expect((await call(deleteRoute, { method: "DELETE", token: c.accessToken, params: p })).status).toBe(403);
    const later = await comment(b, post.id, { commentText: "Ещё один" });
    expect((await nextOf(watching, COMMENT_CHANGED)).data).toMatchObject({ commentId: later.id });

    // The other socket watched another post only: its first frame is a comment on that post.
    const onOther = await comment(b, other.id, { commentText: "На другом посте" });
    expect((await nextOf(elsewhere, COMMENT_CHANGED)).data).toMatchObject({ postId: other.id, commentId: onOther.id });
    await Promise.all([watching.close(), elsewhere.close()]);
  });

  it("a socket across a block learns nothing: not of the blocked author's comments, not of a blocked author's post", async () => {
    const [a, b, c, d] = await Promise.all([signedInAccount(), signedInAccount(), signedInAccount(), signedInAccount()]);
    const post = await newPost(a.ctx);
    const free = await newPost(c.ctx);
    // D blocked B (the commenter): D's socket must not hear of B's comment.
    await setPair(d.id, b.id, ["BLOCKED", "REJECTING"]);
    const dSocket = await watcher(d, [post.id, free.id]);
    const cSocket = await watcher(c, [post.id]);
    const hidden = await comment(b, post.id, { commentText: "Д не должен знать" });
    expect((await nextOf(cSocket, COMMENT_CHANGED)).data).toMatchObject({ commentId: hidden.id });
    // Nor of a reply under B's comment by someone D has no block with (its thread is B's).
    const replyUnderHidden = await comment(c, post.id, { parentId: hidden.id, commentText: "Ответ" });
    expect((await nextOf(cSocket, COMMENT_CHANGED)).data).toMatchObject({ commentId: replyUnderHidden.id });
    const seen = await comment(c, post.id, { commentText: "Это Д видит" });
    expect((await nextOf(dSocket, COMMENT_CHANGED)).data).toMatchObject({ commentId: seen.id });

    // Now the post's author blocks D: nothing of the post reaches D, the other post still does.
    await setPair(a.id, d.id, ["BLOCKED", "REJECTING"]);
    await comment(c, post.id, { commentText: "После блокировки" });
    const onFree = await comment(c, free.id, { commentText: "Свободный пост" });
    expect((await nextOf(dSocket, COMMENT_CHANGED)).data).toMatchObject({ postId: free.id, commentId: onFree.id });
    await setPair(a.id, d.id, [null, null]);
    await setPair(d.id, b.id, [null, null]);
    await Promise.all([dSocket.close(), cSocket.close()]);
  });

  it("bounds the watched list, replaces it on every frame and ignores malformed ones", async () => {
    const a = await signedInAccount();
    const s = await open(a);
    const many = Array.from({ length: MAX_WATCHED_POSTS + 10 }, (_, i) => i + 1);
    s.send({ type: WATCH_POSTS, postIds: many });
    expect((await nextOf(s, WATCHING_POSTS)).data).toEqual({ postIds: many.slice(-MAX_WATCHED_POSTS) });
    s.send({ type: WATCH_POSTS, postIds: ["1", -3] });
    s.send({ type: WATCH_POSTS, postIds: [7, 7, 8] });
    expect((await nextOf(s, WATCHING_POSTS)).data).toEqual({ postIds: [7, 8] });
    // The socket still carries resumes as before (ADR 5).
    s.send({ type: "RESUME", lastEventId: 0 });
    expect((await nextOf(s, "READY")).type).toBe("READY");
    await s.close();
  });
});
