// Issue 24 item 3 (docs/adr/0109-write-rate-limits.md): per-account limits on posts, comments, messages
// (POST and the socket's MESSAGE frame share one budget), reactions, friend requests and subscriptions —
// 429 with Retry-After in the standard envelope, nothing stored beyond; a re-subscription rings once.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as sendRoute } from "@/app/api/v1/dialogs/[id]/messages/route";
import { DELETE as removeRoute } from "@/app/api/v1/friends/[id]/route";
import { POST as requestRoute } from "@/app/api/v1/friends/[id]/request/route";
import { POST as subscribeRoute } from "@/app/api/v1/friends/subscribe/[id]/route";
import { POST as commentRoute, PUT as editCommentRoute } from "@/app/api/v1/post/[id]/comment/route";
import { DELETE as deleteCommentRoute } from "@/app/api/v1/post/[id]/comment/[commentId]/route";
import { PUT as recoverCommentRoute } from "@/app/api/v1/post/[id]/comment/[commentId]/recover/route";
import { PUT as recoverPostRoute } from "@/app/api/v1/post/[id]/recover/route";
import { DELETE as deletePostRoute } from "@/app/api/v1/post/[id]/route";
import { POST as commentLikeRoute } from "@/app/api/v1/post/[id]/comment/[commentId]/like/route";
import { DELETE as unreactRoute, POST as reactRoute } from "@/app/api/v1/post/[id]/like/route";
import { POST as postRoute, PUT as editPostRoute } from "@/app/api/v1/post/route";
import { GET as countRoute } from "@/app/api/v1/notifications/count/route";
import { getDb } from "@/db/client";
import { hashToken } from "@/lib/server/auth/tokens";
import { closeRateLimitStore, consumeAccountLimits } from "@/lib/server/http/rate-limit";
import { createComment } from "@/lib/server/services/comments/comments";
import { createDialog } from "@/lib/server/services/dialogs/dialogs";
import { createRealtimeServer, type RealtimeServer } from "@/realtime/server";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { TestSocket, type Frame } from "./helpers/ws-client";
import { newPost } from "./post-support";

// Small limits of this suite's own (tests/integration/setup.ts raises them for every other suite).
vi.stubEnv("RATE_LIMIT_POST", "4/1m");
vi.stubEnv("RATE_LIMIT_COMMENT", "5/1m");
vi.stubEnv("RATE_LIMIT_MESSAGE", "60/1m");
vi.stubEnv("RATE_LIMIT_MESSAGE_BURST", "6/10s");
vi.stubEnv("RATE_LIMIT_REACTION", "6/1m");
vi.stubEnv("RATE_LIMIT_FRIEND_REQUEST", "3/1h");
vi.stubEnv("RATE_LIMIT_SUBSCRIBE", "22/1h");
vi.stubEnv("RATE_LIMIT_CONTENT_CHANGE", "6/1m");

let server: RealtimeServer;
beforeAll(async () => {
  server = await createRealtimeServer({ port: 0 });
});
afterAll(async () => {
  await server.close();
  await closeRateLimitStore();
  vi.unstubAllEnvs();
});

type Account = Awaited<ReturnType<typeof signedInAccount>>;
type Answer = Awaited<ReturnType<typeof call>>;

const count = async (query: ReturnType<typeof sql>) => Number((await getDb().execute<{ n: string }>(query))[0].n);

/** `answers` are `allowed` successes and then only refusals: 429, Retry-After, the envelope with `message`. */
function expectCut(answers: Answer[], allowed: number, message: string) {
  const ok = answers.filter((a) => a.status < 300);
  const refused = answers.filter((a) => a.status >= 300);
  expect(ok.length).toBe(allowed);
  expect(refused.length).toBe(answers.length - allowed);
  for (const r of refused) {
    expect(r.status).toBe(429);
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(r.headers.get("retry-after"))).toBeLessThanOrEqual(3600);
    expect(r.body).toEqual({ error: { code: "rate_limited", message }, requestId: expect.any(String) });
  }
}

const burst = <T>(n: number, one: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => one(i)));

describe("per-account write limits", () => {
  it("posts: a burst past RATE_LIMIT_POST stores exactly the allowed ones; another account is not affected", async () => {
    const [me, other] = await Promise.all([signedInAccount(), signedInAccount()]);
    const answers = await burst(7, (i) =>
      call(postRoute, { token: me.accessToken, headers: { "accept-language": "en" }, body: { title: `Post ${i}`, postText: "<p>Some text of a post</p>" } }),
    );
    expectCut(answers, 4, "You are posting too often — please wait a minute.");
    expect(await count(sql`select count(*) as n from posts where author_id = ${me.id}`)).toBe(4);
    // The Russian text for a Russian reader.
    const ru = await call(postRoute, { token: me.accessToken, headers: { "accept-language": "ru" }, body: { title: "Пост", postText: "<p>Текст поста здесь</p>" } });
    expect(ru.body.error.message).toBe("Вы публикуете слишком часто — подождите минуту.");
    expect((await call(postRoute, { token: other.accessToken, body: { title: "Другой", postText: "<p>Текст другого автора</p>" } })).status).toBe(201);
  });

  it("comments and replies share RATE_LIMIT_COMMENT; nothing beyond is stored or counted on the post", async () => {
    const [author, me] = await Promise.all([signedInAccount(), signedInAccount()]);
    const post = await newPost(author.ctx);
    const first = await createComment({ ctx: me.ctx, input: { postId: post.id, body: { commentText: "первый" } } });
    const answers = await burst(8, (i) =>
      call(commentRoute, {
        token: me.accessToken,
        params: { id: String(post.id) },
        body: i % 2 ? { commentText: `ответ ${i}`, parentId: first.id } : { commentText: `комментарий ${i}` },
      }),
    );
    expectCut(answers, 4, "Слишком много комментариев — подождите немного.");
    expect(await count(sql`select count(*) as n from comments where author_id = ${me.id}`)).toBe(5);
    expect(await count(sql`select comments_count as n from posts where id = ${post.id}`)).toBe(5);
  });

  it("reactions: setting and taking back share RATE_LIMIT_REACTION (no like/unlike loop), comment likes included", async () => {
    const [author, me] = await Promise.all([signedInAccount(), signedInAccount()]);
    const post = await newPost(author.ctx);
    const comment = await createComment({ ctx: author.ctx, input: { postId: post.id, body: { commentText: "нравится?" } } });
    const params = { id: String(post.id) };
    const answers: Answer[] = [];
    for (let i = 0; i < 2; i++) {
      answers.push(await call(reactRoute, { token: me.accessToken, params, body: { type: "POST", reactionType: "heart" } }));
      answers.push(await call(unreactRoute, { method: "DELETE", token: me.accessToken, params }));
    }
    answers.push(await call(commentLikeRoute, { token: me.accessToken, params: { id: String(post.id), commentId: String(comment.id) } }));
    answers.push(await call(reactRoute, { token: me.accessToken, params, body: { type: "POST", reactionType: "fire" } }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const refused = await burst(3, () => call(reactRoute, { token: me.accessToken, params, body: { type: "POST", reactionType: "heart" } }));
    expectCut(refused, 0, "Слишком много попыток. Попробуйте позже.");
    expect(await count(sql`select like_amount as n from posts where id = ${post.id}`)).toBe(1);
    const [mine] = await getDb().execute<{ reaction_type: string }>(sql`select reaction_type from post_reactions where post_id = ${post.id} and account_id = ${me.id}`);
    expect(mine.reaction_type).toBe("fire");
  });

  it("edits, deletions and restorations of posts and comments share RATE_LIMIT_CONTENT_CHANGE; a refused one changes nothing", async () => {
    const [me, guest, other] = await Promise.all([signedInAccount(), signedInAccount(), signedInAccount()]);
    const post = await newPost(me.ctx, { title: "Исходный" });
    const theirs = await createComment({ ctx: guest.ctx, input: { postId: post.id, body: { commentText: "гость" } } });
    const mine = await createComment({ ctx: me.ctx, input: { postId: post.id, body: { commentText: "мой" } } });
    const postParams = { id: String(post.id) };
    const answers: Answer[] = [
      await call(deletePostRoute, { method: "DELETE", token: me.accessToken, params: postParams }),
      await call(recoverPostRoute, { method: "PUT", token: me.accessToken, params: postParams }),
      await call(editPostRoute, { method: "PUT", token: me.accessToken, body: { id: post.id, title: "Правка", postText: "<p>Новый текст</p>" } }),
      await call(editCommentRoute, { method: "PUT", token: me.accessToken, params: postParams, body: { id: mine.id, commentText: "правка" } }),
      // The post's author deleting someone else's comment on their post counts too (issue 27).
      await call(deleteCommentRoute, { method: "DELETE", token: me.accessToken, params: { id: String(post.id), commentId: String(theirs.id) } }),
      await call(recoverCommentRoute, { method: "PUT", token: me.accessToken, params: { id: String(post.id), commentId: String(theirs.id) } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const refused = [
      await call(deletePostRoute, { method: "DELETE", token: me.accessToken, params: postParams, headers: { "accept-language": "en" } }),
      await call(editPostRoute, { method: "PUT", token: me.accessToken, body: { id: post.id, title: "Ещё одна правка", postText: "<p>Ещё один новый текст</p>" } }),
      await call(deleteCommentRoute, { method: "DELETE", token: me.accessToken, params: { id: String(post.id), commentId: String(mine.id) } }),
    ];
    expectCut(refused.slice(1), 0, "Слишком много изменений за короткое время — подождите минуту.");
    expectCut(refused.slice(0, 1), 0, "Too many changes in a short time — please wait a minute.");
    // Nothing of the refused ones happened.
    const [row] = await getDb().execute<{ title: string; is_deleted: boolean }>(sql`select title, is_deleted from posts where id = ${post.id}`);
    expect(row).toEqual({ title: "Правка", is_deleted: false });
    expect(await count(sql`select count(*) as n from comments where post_id = ${post.id} and not is_deleted`)).toBe(2);
    // Another account's budget is its own.
    expect((await call(deleteCommentRoute, { method: "DELETE", token: guest.accessToken, params: { id: String(post.id), commentId: String(theirs.id) } })).status).toBe(200);
    expect((await call(editPostRoute, { method: "PUT", token: other.accessToken, body: { id: post.id, title: "Чужой", postText: "<p>Чужой текст</p>" } })).status).toBe(403);
  });

  it("friend requests: RATE_LIMIT_FRIEND_REQUEST per account, counted by the verb", async () => {
    const me = await signedInAccount();
    const people = await burst(5, () => signedInAccount());
    const answers = await burst(5, (i) => call(requestRoute, { token: me.accessToken, params: { id: String(people[i].id) } }));
    expectCut(answers, 3, "Слишком много попыток. Попробуйте позже.");
    expect(await count(sql`select count(*) as n from friendships where account_id = ${me.id}`)).toBe(3);
  });
});

describe("messages: one budget for POST and the socket", () => {
  const open = (who: Account) => TestSocket.open(server.port, { token: who.accessToken });
  /** The answer to the frame sent with `clientId`: its MESSAGE or its MESSAGE_REJECTED (the POSTed ones' frames are skipped). */
  async function answerTo(socket: TestSocket, clientId: string): Promise<Frame> {
    for (;;) {
      const f = await socket.next();
      if ((f.type === "MESSAGE" || f.type === "MESSAGE_REJECTED") && (f.data as { clientId?: string })?.clientId === clientId) return f;
    }
  }

  it("a burst over POST and the socket together stops at RATE_LIMIT_MESSAGE_BURST, with the chat's text on both", async () => {
    const [a, b] = await Promise.all([signedInAccount(), signedInAccount()]);
    const { dialog } = await createDialog({ ctx: a.ctx, input: { recipientId: b.id } });
    const post = (text: string) =>
      call(sendRoute, { method: "POST", token: a.accessToken, params: { id: String(dialog.id) }, headers: { "accept-language": "ru" }, body: { messageText: text } });
    const a1 = await open(a);
    // Four by POST, then two on the socket: all six within the burst of 6.
    for (const t of ["1", "2", "3", "4"]) expect((await post(t)).status).toBe(201);
    for (const t of ["5", "6"]) {
      const clientId = randomUUID();
      a1.send({ type: "MESSAGE", data: { dialogId: dialog.id, messageText: t, clientId } });
      expect(await answerTo(a1, clientId)).toMatchObject({ type: "MESSAGE", data: { clientId, messageText: t } });
    }
    // The seventh, by either way, is refused.
    const clientId = randomUUID();
    a1.send({ type: "MESSAGE", data: { dialogId: dialog.id, messageText: "7", clientId } });
    expect(await answerTo(a1, clientId)).toEqual({
      type: "MESSAGE_REJECTED",
      data: { clientId, dialogId: dialog.id, recipientId: null, status: 429, code: "rate_limited", messageKey: "chatErrors.rateLimited" },
    });
    expectCut([await post("8")], 0, "Слишком много сообщений — подождите немного");
    // The same budget refuses a parallel burst too.
    expectCut(await burst(5, (i) => post(`x${i}`)), 0, "Слишком много сообщений — подождите немного");
    expect(await count(sql`select count(*) as n from messages where dialog_id = ${dialog.id}`)).toBe(6);
    expect(await count(sql`select message_count as n from dialogs where id = ${dialog.id}`)).toBe(6);
    await a1.close();
  });

  it("several windows are counted together in their own rows; the first spent one refuses, from memory after that", async () => {
    const me = await signedInAccount();
    const key = hashToken(`account:${me.id}`).slice(0, 40);
    const outcomes = [];
    for (let i = 0; i < 6; i++) outcomes.push(await consumeAccountLimits(["post", "comment"], me.id).then(() => "ok", (e: Error) => e.name));
    expect(outcomes).toEqual(["ok", "ok", "ok", "ok", "ServiceError", "ServiceError"]); // post: 4 a minute
    const rows = await getDb().execute<{ key: string; points: number }>(sql`select key, points from rate_limits where key in (${`post:${key}`}, ${`comment:${key}`}) order by key`);
    // The fourth spent the post window (4 of 4): the fifth and sixth never reached the database.
    expect(rows.map((r) => [r.key.split(":")[0], r.points])).toEqual([["comment", 4], ["post", 4]]);
  });

  it("a parallel burst of POSTs stores exactly the burst's budget", async () => {
    const [a, b] = await Promise.all([signedInAccount(), signedInAccount()]);
    const { dialog } = await createDialog({ ctx: a.ctx, input: { recipientId: b.id } });
    const answers = await burst(15, (i) =>
      call(sendRoute, { method: "POST", token: a.accessToken, params: { id: String(dialog.id) }, headers: { "accept-language": "en" }, body: { messageText: `m${i}` } }),
    );
    expectCut(answers, 6, "Too many messages — please wait a moment");
    expect(await count(sql`select count(*) as n from messages where dialog_id = ${dialog.id}`)).toBe(6);
  });
});

describe("subscriptions", () => {
  it("20 subscribe/unsubscribe rounds give the target one unread notification and one live frame; then RATE_LIMIT_SUBSCRIBE", async () => {
    const [me, target] = await Promise.all([signedInAccount({ firstName: "Sasha" }), signedInAccount({ firstName: "Tanya" })]);
    const params = { id: String(target.id) };
    for (let i = 0; i < 20; i++) {
      expect((await call(subscribeRoute, { token: me.accessToken, params })).status).toBe(200);
      expect((await call(removeRoute, { method: "DELETE", token: me.accessToken, params })).status).toBe(200);
    }
    const rows = await getDb().execute<{ n: string; group_count: number }>(sql`
      select count(*) over () as n, group_count from notifications where receiver_id = ${target.id} and notification_type = 'FRIEND_SUBSCRIBE'`);
    expect(rows.map((r) => [Number(r.n), r.group_count])).toEqual([[1, 1]]);
    expect((await call(countRoute, { token: target.accessToken })).body.count).toBe(1);
    expect(
      await count(sql`select count(*) as n from events where type = 'NOTIFICATION' and ${target.id}::bigint = any(recipients) and payload->>'notificationType' = 'FRIEND_SUBSCRIBE'`),
    ).toBe(1);
    // Two more fit (22 per hour); the 23rd subscription is refused and stores nothing.
    expect((await call(subscribeRoute, { token: me.accessToken, params })).status).toBe(200);
    expect((await call(removeRoute, { method: "DELETE", token: me.accessToken, params })).status).toBe(200);
    expect((await call(subscribeRoute, { token: me.accessToken, params })).status).toBe(200);
    expect((await call(removeRoute, { method: "DELETE", token: me.accessToken, params })).status).toBe(200); // unsubscribing is never limited
    expectCut([await call(subscribeRoute, { token: me.accessToken, params })], 0, "Слишком много попыток. Попробуйте позже.");
    expect(await count(sql`select count(*) as n from friendships where account_id = ${me.id}`)).toBe(0);
    // Spent, the limit refuses from memory: a flood of refused attempts costs the database nothing.
    expectCut(await burst(5, () => call(subscribeRoute, { token: me.accessToken, params })), 0, "Слишком много попыток. Попробуйте позже.");
    expect(await count(sql`select max(points) as n from rate_limits where key like 'subscribe:%'`)).toBe(22);
  });
});
