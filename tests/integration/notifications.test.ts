import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { GET as countRoute } from "@/app/api/v1/notifications/count/route";
import { GET as pageRoute } from "@/app/api/v1/notifications/page/route";
import { PUT as readedRoute } from "@/app/api/v1/notifications/readed/route";
import { GET as listRoute } from "@/app/api/v1/notifications/route";
import { getDb } from "@/db/client";
import { requestEmailChangeLink } from "@/lib/server/services/auth/email-change";
import { requestPasswordChangeLink } from "@/lib/server/services/auth/password-change";
import { createComment, likeComment } from "@/lib/server/services/comments/comments";
import { sendMessage } from "@/lib/server/services/dialogs/messages";
import {
  approveFriendRequest,
  blockAccount,
  sendFriendRequest,
  subscribeToAccount,
  unblockAccount,
} from "@/lib/server/services/friends/actions";
import { sendBirthdayNotifications } from "@/lib/server/services/notifications/birthdays";
import { sendNotificationDigests } from "@/lib/server/services/notifications/digest";
import { publishDuePosts } from "@/lib/server/services/notifications/scheduled-posts";
import { setNotificationSetting } from "@/lib/server/services/notifications/settings";
import { setPostReaction } from "@/lib/server/services/posts/reactions";
import type { NotificationDto } from "@/lib/validation/notifications";
import { TEST_PASSWORD, signedInAccount } from "./helpers/factories";
import { allMails } from "./helpers/auth";
import { call } from "./helpers/http";
import { eventsAfter, lastEventId, makeFriends, setAccount, setPair } from "./friends-support";
import { newPost } from "./post-support";

type Account = Awaited<ReturnType<typeof signedInAccount>>;

const page = (who: Account | null, q = "page=0&sort=sentTime,desc") =>
  call(pageRoute, { path: `/api/v1/notifications/page?${q}`, token: who?.accessToken });
const count = async (who: Account) => (await call(countRoute, { token: who.accessToken })).body.count as number;
const mine = async (who: Account): Promise<NotificationDto[]> => (await page(who, "size=100")).body.content;
const off = (who: Account, notificationType: string) => setNotificationSetting({ ctx: who.ctx, input: { notificationType, enable: false } });

let a: Account;
let b: Account;
let c: Account;

beforeEach(async () => {
  a = await signedInAccount({ firstName: "Anna", lastName: "Ivanova" });
  b = await signedInAccount({ firstName: "Boris", lastName: "Orlov" });
  c = await signedInAccount({ firstName: "Clara", lastName: "Smirnova" });
});

/** The NOTIFICATION events appended after `after`, as the sidecar would send them. */
async function frames(after: number) {
  return (await eventsAfter(after, true)).filter((e) => e.type === "NOTIFICATION");
}

describe("producers", () => {
  it("friend request, approval and subscription reach the other person live and in the list, with the author", async () => {
    const before = await lastEventId();
    await sendFriendRequest({ ctx: a.ctx, input: { id: b.id } });
    await approveFriendRequest({ ctx: b.ctx, input: { id: a.id } });
    await subscribeToAccount({ ctx: c.ctx, input: { id: a.id } });

    const [request] = await mine(b);
    expect(request).toMatchObject({
      notificationType: "FRIEND_REQUEST",
      isRead: false,
      data: { authorId: a.id, receiverId: b.id, author: { id: a.id, firstName: "Anna", lastName: "Ivanova", photo: null } },
    });
    const forA = await mine(a);
    expect(forA.map((n) => n.notificationType)).toEqual(["FRIEND_SUBSCRIBE", "FRIEND_APPROVE"]);
    expect(forA[0].data.authorId).toBe(c.id);

    // Each row travelled as one NOTIFICATION frame to its receiver only, with exactly the listed data.
    const live = await frames(before);
    expect(live).toHaveLength(3);
    expect(live[0].recipients).toEqual([b.id]);
    // The frame went while the request was waiting (issue 27: the bell's requestPending); b has approved since.
    // A live frame carries `timestamp` (the spec's live field, = sentTime); data repeats id, type, content and
    // sentTime for the original client (issue 29 §3).
    expect(live[0].data).toEqual({ ...request, timestamp: request.sentTime, data: { ...request.data, requestPending: true } });
    expect(request.data.requestPending).toBe(false);
    expect(request.data).toMatchObject({ id: request.id, notificationType: "FRIEND_REQUEST", content: request.content, sentTime: request.sentTime });
    expect(live[2].data).toEqual({ ...forA[0], timestamp: forA[0].sentTime });
  });

  it("a switch that is off means no row and no frame; switching it back on works for later actions", async () => {
    await off(b, "FRIEND_REQUEST");
    const before = await lastEventId();
    await sendFriendRequest({ ctx: a.ctx, input: { id: b.id } });
    expect(await mine(b)).toEqual([]);
    expect(await frames(before)).toEqual([]);
    await setNotificationSetting({ ctx: b.ctx, input: { notificationType: "FRIEND_REQUEST", enable: true } });
    await subscribeToAccount({ ctx: c.ctx, input: { id: b.id } });
    expect((await mine(b)).map((n) => n.notificationType)).toEqual(["FRIEND_SUBSCRIBE"]);
  });

  it("a block is told to nobody: not the blocked person, not the blocker's own bell (issue 24 item 15), and what they notified each other of goes", async () => {
    await sendFriendRequest({ ctx: a.ctx, input: { id: b.id } });
    expect(await mine(b)).toHaveLength(1);
    const before = await lastEventId();
    await blockAccount({ ctx: b.ctx, input: { id: a.id } });
    expect(await mine(a)).toEqual([]);
    // Nothing "from" the blocked person in the blocker's bell, nothing unread, no live frame either.
    expect(await mine(b)).toEqual([]);
    expect(await frames(before)).toEqual([]);
    await unblockAccount({ ctx: b.ctx, input: { id: a.id } });
    expect(await mine(a)).toEqual([]);
    expect(await mine(b)).toEqual([]);
    expect(await frames(before)).toEqual([]);
  });

  it("POST reaches friends and subscribers (set-based), not strangers, not blocked people, not the author; honours enablePost", async () => {
    const d = await signedInAccount();
    const e = await signedInAccount();
    await makeFriends(a.id, b.id);
    await setPair(c.id, a.id, ["SUBSCRIBED", "WATCHING"]);
    await makeFriends(a.id, d.id);
    await off(d, "POST");
    await setPair(a.id, e.id, ["BLOCKED", "REJECTING"]);
    const before = await lastEventId();
    const post = await newPost(a.ctx, { title: "Весна пришла" });
    const live = await frames(before);
    // One shared event for the whole fan-out; each receiver still gets exactly its own row as listed.
    expect(new Set(live.map((f) => f.id)).size).toBe(1);
    expect(live.map((f) => f.recipients[0]).sort((x, y) => x - y)).toEqual([b.id, c.id].sort((x, y) => x - y));
    for (const who of [b, c]) {
      const [n] = await mine(who);
      expect(n).toMatchObject({ notificationType: "POST", content: "Весна пришла", data: { authorId: a.id, postId: post.id } });
      // The shared event is personalised: the receiver's own row id, in data too.
      expect(live.find((f) => f.recipients[0] === who.id)?.data).toEqual({ ...n, timestamp: n.sentTime });
      expect(n.data.id).toBe(n.id);
    }
    expect(await mine(d)).toEqual([]);
    expect(await mine(e)).toEqual([]);
    expect(await mine(a)).toEqual([]);
  });

  it("a scheduled post notifies nobody until the job finds it due, then exactly once", async () => {
    await makeFriends(a.id, b.id);
    const later = new Date(Date.now() + 3600_000);
    const post = await newPost(a.ctx, { publishDate: later.toISOString() });
    expect(await mine(b)).toEqual([]);
    expect(await publishDuePosts(getDb())).toBe(0);
    const due = new Date(later.getTime() + 1000);
    const before = await lastEventId();
    expect(await publishDuePosts(getDb(), due)).toBeGreaterThanOrEqual(1);
    expect(await publishDuePosts(getDb(), due)).toBe(0);
    expect((await mine(b)).map((n) => [n.notificationType, n.data.postId])).toEqual([["POST", post.id]]);
    // The feeds' "post reached its time" event travels with it.
    const published = (await eventsAfter(before)).filter((ev) => ev.type === "POST_PUBLISHED");
    expect(published.map((ev) => ev.data.postId)).toContain(post.id);
  });

  it("a post whose time has come by the database's clock when it is stored reaches the friends (issue 24 item 11)", async () => {
    await makeFriends(a.id, b.id);
    // The web server's clock 10 s behind the database's: a time 5 s ahead by its clock has already come
    // when the row is written (also a post sent in the last moments before its hour).
    const real = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: real - 10_000 });
    let post;
    try {
      post = await newPost(a.ctx, { title: "Ровно в семь", publishDate: new Date(real - 5_000).toISOString() });
    } finally {
      vi.useRealTimers();
    }
    expect(post.type).toBe("POSTED");
    await publishDuePosts(getDb());
    expect((await mine(b)).map((n) => [n.notificationType, n.data.postId])).toEqual([["POST", post.id]]);
    // Once only: the job does not announce it again.
    expect(await publishDuePosts(getDb(), new Date(Date.now() + 1000))).toBe(0);
  });

  it("POST_COMMENT to the post's author and COMMENT_COMMENT to the replied author, each with its switch, never to oneself", async () => {
    await makeFriends(a.id, b.id);
    const post = await newPost(a.ctx);
    const first = await createComment({ ctx: b.ctx, input: { postId: post.id, body: { commentText: "Отличный пост!" } } });
    const [n] = await mine(a);
    expect(n).toMatchObject({ notificationType: "POST_COMMENT", content: "Отличный пост!", data: { authorId: b.id, postId: post.id, commentId: first.id } });

    await createComment({ ctx: c.ctx, input: { postId: post.id, body: { parentId: first.id, commentText: "Согласна полностью" } } });
    const [reply] = await mine(b);
    expect(reply).toMatchObject({ notificationType: "COMMENT_COMMENT", data: { authorId: c.id, postId: post.id } });

    // The author commenting on their own post, or replying to themselves: nothing.
    await call(readedRoute, { method: "PUT", token: a.accessToken });
    await createComment({ ctx: a.ctx, input: { postId: post.id, body: { commentText: "Спасибо всем" } } });
    expect(await count(a)).toBe(0);

    await off(a, "POST_COMMENT");
    await off(b, "COMMENT_COMMENT");
    const bBefore = await count(b);
    await createComment({ ctx: c.ctx, input: { postId: post.id, body: { parentId: first.id, commentText: "Ещё одна мысль" } } });
    expect(await count(a)).toBe(0);
    expect(await count(b)).toBe(bBefore);
  });

  it("unread comments on one post group into one entry with the count and the newest authors", async () => {
    const d = await signedInAccount({ firstName: "Dina", lastName: "Petrova" });
    const post = await newPost(a.ctx);
    for (const who of [b, c, d]) await createComment({ ctx: who.ctx, input: { postId: post.id, body: { commentText: `Комментарий ${who.id}` } } });
    const list = await mine(a);
    expect(list).toHaveLength(1);
    expect(list[0].data.count).toBe(3);
    expect(list[0].data.authors.map((p) => p.id)).toEqual([d.id, c.id, b.id]);
    expect(list[0].data.author?.id).toBe(d.id);
    expect(await count(a)).toBe(1);
  });

  it("a block takes the blocked person out of shared grouped entries wherever they are in them; the others stay", async () => {
    const d = await signedInAccount({ firstName: "Dina", lastName: "Petrova" });
    // Comments: b, then c (the newest). Blocking c leaves b's entry with b's own comment and text.
    const talked = await newPost(a.ctx);
    const fromB = await createComment({ ctx: b.ctx, input: { postId: talked.id, body: { commentText: "Первый от Бориса" } } });
    await createComment({ ctx: c.ctx, input: { postId: talked.id, body: { commentText: "Секрет Клары" } } });
    // Likes: b, then c, then d (the newest). Blocking c (in the middle) leaves d newest and b.
    const liked = await newPost(a.ctx, { title: "Про котов" });
    for (const who of [b, c, d]) await setPostReaction({ ctx: who.ctx, input: { id: liked.id, body: { type: "POST", reactionType: "heart" } } });
    // c alone: an entry of only the blocked person goes.
    const alone = await newPost(a.ctx, { title: "Тишина" });
    await setPostReaction({ ctx: c.ctx, input: { id: alone.id, body: { type: "POST", reactionType: "heart" } } });

    await blockAccount({ ctx: a.ctx, input: { id: c.id } });
    const list = await mine(a);
    const comments = list.find((n) => n.notificationType === "POST_COMMENT");
    expect(comments).toMatchObject({ content: "Первый от Бориса", data: { authorId: b.id, commentId: fromB.id, count: 1 } });
    expect(comments!.data.authors.map((p) => p.id)).toEqual([b.id]);
    const likes = list.filter((n) => n.notificationType === "LIKE");
    expect(likes).toHaveLength(1);
    expect(likes[0]).toMatchObject({ data: { postId: liked.id, authorId: d.id, count: 2 } });
    expect(likes[0].data.authors.map((p) => p.id)).toEqual([d.id, b.id]);
    expect(JSON.stringify(list)).not.toContain("Секрет Клары");
    expect(list.filter((n) => n.data.authorId === c.id || n.data.authors.some((p) => p.id === c.id))).toEqual([]);
  });

  it("LIKE: a first reaction and a comment like notify the author; unread likes of one post group; no self-like notice", async () => {
    const d = await signedInAccount({ firstName: "Dina", lastName: "Petrova" });
    const post = await newPost(a.ctx, { title: "Про котов" });
    for (const who of [b, c, d]) await setPostReaction({ ctx: who.ctx, input: { id: post.id, body: { type: "POST", reactionType: "heart" } } });
    // Switching to another reaction is not a new like; liking one's own post tells nobody.
    await setPostReaction({ ctx: b.ctx, input: { id: post.id, body: { type: "POST", reactionType: "fire" } } });
    await setPostReaction({ ctx: a.ctx, input: { id: post.id, body: { type: "POST", reactionType: "fire" } } });
    const [like] = await mine(a);
    expect(await mine(a)).toHaveLength(1);
    expect(like).toMatchObject({ notificationType: "LIKE", content: "Про котов", data: { postId: post.id, commentId: null, count: 3 } });
    expect(like.data.authors.map((p) => p.id)).toEqual([d.id, c.id, b.id]);

    // After reading, a new like starts a new entry.
    await call(readedRoute, { method: "PUT", token: a.accessToken });
    const comment = await createComment({ ctx: c.ctx, input: { postId: post.id, body: { commentText: "Котики лучшие" } } });
    await likeComment({ ctx: b.ctx, input: { postId: post.id, id: comment.id } });
    const [commentLike] = await mine(c);
    expect(commentLike).toMatchObject({ notificationType: "LIKE", data: { authorId: b.id, postId: post.id, commentId: comment.id, count: 1 } });
  });

  it("a comment like and a new comment on the same post at once both succeed (no lock cycle with the outbox)", async () => {
    const post = await newPost(a.ctx);
    const comment = await createComment({ ctx: b.ctx, input: { postId: post.id, body: { commentText: "Первый комментарий" } } });
    for (let i = 0; i < 5; i++) {
      const settled = await Promise.allSettled([
        i % 2 === 0
          ? likeComment({ ctx: c.ctx, input: { postId: post.id, id: comment.id } })
          : setPostReaction({ ctx: c.ctx, input: { id: post.id, body: { type: "POST", reactionType: i % 4 === 1 ? "heart" : "fire" } } }),
        createComment({ ctx: a.ctx, input: { postId: post.id, body: { commentText: `Ответ номер ${i}` } } }),
        createComment({ ctx: b.ctx, input: { postId: post.id, body: { commentText: `Ещё номер ${i}` } } }),
      ]);
      expect(settled.filter((r) => r.status === "rejected")).toEqual([]);
    }
    expect((await mine(b)).some((n) => n.notificationType === "LIKE" && n.data.commentId === comment.id)).toBe(true);
  });

  it("MESSAGE reaches the recipient, grouped per dialog, honouring enableMessage", async () => {
    await sendMessage({ ctx: a.ctx, input: { recipientId: b.id, messageText: "Привет!" } });
    const sent = await sendMessage({ ctx: a.ctx, input: { recipientId: b.id, messageText: "Как дела?" } });
    const list = await mine(b);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ notificationType: "MESSAGE", content: "Как дела?", data: { authorId: a.id, dialogId: sent.message.dialogId, count: 1 } });
    expect(await mine(a)).toEqual([]);
    await off(c, "MESSAGE");
    await sendMessage({ ctx: a.ctx, input: { recipientId: c.id, messageText: "Тишина" } });
    expect(await mine(c)).toEqual([]);
  });

  it("SEND_EMAIL_MESSAGE when Krug mails a password-change or e-mail-change link", async () => {
    await requestPasswordChangeLink({ ctx: a.ctx });
    await requestEmailChangeLink({ ctx: a.ctx, input: { email: `new-${a.id}@example.com`, password: TEST_PASSWORD } });
    const list = await mine(a);
    expect(list.map((n) => [n.notificationType, n.content, n.data.author])).toEqual([
      ["SEND_EMAIL_MESSAGE", "EMAIL_CHANGE", null],
      ["SEND_EMAIL_MESSAGE", "PASSWORD_CHANGE", null],
    ]);
  });

  it("birthdays: the person gets USER_BIRTHDAY, friends FRIEND_BIRTHDAY (switch honoured), once per day however often the job runs", async () => {
    const d = await signedInAccount();
    await makeFriends(a.id, b.id);
    await makeFriends(a.id, c.id);
    await makeFriends(a.id, d.id);
    await off(d, "FRIEND_BIRTHDAY");
    // A day nobody else in this database was born on, far in the future, so other suites' accounts stay out.
    const day = new Date(Date.UTC(2199, 6, 14, 0, 5));
    await setAccount(a.id, { birthDate: "1990-07-14" });
    const first = await sendBirthdayNotifications(getDb(), day);
    expect(first).toBeGreaterThanOrEqual(3);
    expect(await sendBirthdayNotifications(getDb(), day)).toBe(0);
    expect(await sendBirthdayNotifications(getDb(), new Date(day.getTime() + 3600_000))).toBe(0);
    expect((await mine(a)).map((n) => [n.notificationType, n.data.author])).toEqual([["USER_BIRTHDAY", null]]);
    for (const who of [b, c]) {
      expect((await mine(who)).map((n) => [n.notificationType, n.data.authorId])).toEqual([["FRIEND_BIRTHDAY", a.id]]);
    }
    expect(await mine(d)).toEqual([]);
  });

  it("a birthday set to today after the day's first run is announced on the next run, once (issue 24 item 22)", async () => {
    await makeFriends(a.id, b.id);
    const morning = new Date(Date.UTC(2199, 8, 21, 0, 5));
    // The day's first run: nobody of this suite is born on 21 September yet.
    expect(await sendBirthdayNotifications(getDb(), morning)).toBe(0);
    // Later that day a's birth date is set to today; the next run (ten minutes on) announces it.
    await setAccount(a.id, { birthDate: "1991-09-21" });
    const later = new Date(morning.getTime() + 10 * 60_000);
    expect(await sendBirthdayNotifications(getDb(), later)).toBe(2);
    expect((await mine(b)).map((n) => [n.notificationType, n.data.authorId])).toEqual([["FRIEND_BIRTHDAY", a.id]]);
    expect((await mine(a)).map((n) => n.notificationType)).toEqual(["USER_BIRTHDAY"]);
    // A third run and the runs after it write nothing more that day.
    expect(await sendBirthdayNotifications(getDb(), new Date(later.getTime() + 10 * 60_000))).toBe(0);
    expect(await sendBirthdayNotifications(getDb(), new Date(Date.UTC(2199, 8, 21, 23, 55)))).toBe(0);
    expect(await mine(b)).toHaveLength(1);
    expect(await mine(a)).toHaveLength(1);
  });

  it("e-mail digest: only with enableSendEmailMessage, only without a socket, at most one per 15 minutes, only about newer ones", async () => {
    await setNotificationSetting({ ctx: b.ctx, input: { notificationType: "SEND_EMAIL_MESSAGE", enable: true } });
    await setNotificationSetting({ ctx: c.ctx, input: { notificationType: "SEND_EMAIL_MESSAGE", enable: true } });
    await sendFriendRequest({ ctx: a.ctx, input: { id: b.id } }); // b: switch on, offline
    await sendFriendRequest({ ctx: a.ctx, input: { id: c.id } }); // c: switch on, but online
    const d = await signedInAccount();
    await subscribeToAccount({ ctx: d.ctx, input: { id: a.id } }); // a: switch off (the default)
    await setAccount(b.id, { lastOnlineTime: new Date(Date.now() - 3600_000) });
    await setAccount(c.id, { lastOnlineTime: new Date() });
    await setAccount(a.id, { lastOnlineTime: null });
    const now = new Date();
    await sendNotificationDigests(getDb(), now);
    const toB = await allMails(b.email);
    expect(toB).toHaveLength(1);
    expect(await allMails(c.email)).toHaveLength(0);
    expect(await allMails(a.email)).toHaveLength(0);
    // Within 15 minutes nothing more, even with a new notification; after them, one more.
    await sendFriendRequest({ ctx: c.ctx, input: { id: b.id } });
    await sendNotificationDigests(getDb(), new Date(now.getTime() + 10 * 60_000));
    expect(await allMails(b.email)).toHaveLength(1);
    await sendNotificationDigests(getDb(), new Date(now.getTime() + 16 * 60_000));
    expect(await allMails(b.email)).toHaveLength(2);
    // Nothing new since: no mail.
    await sendNotificationDigests(getDb(), new Date(now.getTime() + 40 * 60_000));
    expect(await allMails(b.email)).toHaveLength(2);
  });

  it("a deleted author shows as none", async () => {
    await sendFriendRequest({ ctx: a.ctx, input: { id: b.id } });
    await setAccount(a.id, { isDeleted: true });
    const [n] = await mine(b);
    expect(n.data.author).toBeNull();
    expect(n.data.authors).toEqual([]);
    expect(n.data.authorId).toBe(a.id);
  });

  it("hard deletes still reach the rows without foreign keys: a post's and an account's notifications go with them", async () => {
    const db = getDb();
    await makeFriends(a.id, b.id);
    const post = await newPost(a.ctx, { title: "Уйдёт" });
    await setPostReaction({ ctx: b.ctx, input: { id: post.id, body: { type: "POST", reactionType: "heart" } } });
    const rows = async (where: ReturnType<typeof sql>) =>
      Number((await db.execute<{ n: string }>(sql`select count(*) as n from notifications where ${where}`))[0].n);
    expect(await rows(sql`post_id = ${post.id}`)).toBe(2); // POST to b, LIKE to a
    await db.execute(sql`delete from posts where id = ${post.id}`);
    expect(await rows(sql`post_id = ${post.id}`)).toBe(0);

    await sendFriendRequest({ ctx: c.ctx, input: { id: b.id } });
    const before = await lastEventId();
    await sendFriendRequest({ ctx: c.ctx, input: { id: a.id } });
    await eventsAfter(before, true); // sequenced: event_recipients rows exist for a
    await db.execute(sql`delete from accounts where id = ${a.id}`);
    expect(await rows(sql`receiver_id = ${a.id}`)).toBe(0);
    expect(Number((await db.execute<{ n: string }>(sql`select count(*) as n from event_recipients where account_id = ${a.id}`))[0].n)).toBe(0);
    await db.execute(sql`delete from accounts where id = ${c.id}`);
    const [left] = await mine(b);
    expect(left).toMatchObject({ notificationType: "FRIEND_REQUEST", data: { authorId: null, author: null } });
  });
});

describe("API", () => {
  it("pages newest first or oldest first in the paging envelope; the list form has the newest 20", async () => {
    for (const who of [b, c]) await sendFriendRequest({ ctx: who.ctx, input: { id: a.id } });
    await getDb().execute(sql`update notifications set sent_time = sent_time - interval '1 minute' where receiver_id = ${a.id} and author_id = ${b.id}`);
    const desc = await page(a, "page=0&size=1&sort=sentTime,desc");
    expect(desc.status).toBe(200);
    expect(desc.body).toMatchObject({ totalElements: 2, totalPages: 2, size: 1, number: 0 });
    expect(desc.body.content[0].data.authorId).toBe(c.id);
    const asc = await page(a, "page=0&size=1&sort=sentTime,asc");
    expect(asc.body.content[0].data.authorId).toBe(b.id);
    const second = await page(a, "page=1&size=1");
    expect(second.body.content[0].data.authorId).toBe(b.id);

    const list = await call(listRoute, { token: a.accessToken });
    expect(list.status).toBe(200);
    // `content` repeats the items for the original client (issue 29 §3).
    const newest = (await page(a)).body.content;
    expect(list.body).toEqual({ notifications: newest, content: newest, totalElements: 2, totalPages: 1 });
  });

  it("count and readed: the count of unread, all marked read at once", async () => {
    for (const who of [b, c]) await sendFriendRequest({ ctx: who.ctx, input: { id: a.id } });
    expect(await count(a)).toBe(2);
    // The original client reads data.count (issue 29 §3): the same number.
    expect((await call(countRoute, { token: a.accessToken })).body).toEqual({ count: 2, data: { count: 2 } });
    const res = await call(readedRoute, { method: "PUT", token: a.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ count: 0 });
    expect(await count(a)).toBe(0);
    expect((await mine(a)).every((n) => n.isRead)).toBe(true);
    // Someone else's stay unread.
    await sendFriendRequest({ ctx: a.ctx, input: { id: c.id } });
    await call(readedRoute, { method: "PUT", token: b.accessToken });
    expect(await count(c)).toBe(1);
  });

  it("another person's notifications are never readable, whatever the parameters", async () => {
    await sendFriendRequest({ ctx: a.ctx, input: { id: b.id } });
    for (const q of ["receiverId=" + b.id, "accountId=" + b.id, "page=0&size=100"]) {
      expect((await page(c, q)).body.content).toEqual([]);
    }
    expect(await count(c)).toBe(0);
    expect((await call(listRoute, { token: c.accessToken })).body.notifications).toEqual([]);
  });

  it("anonymous 401; bad paging 422 in the error envelope", async () => {
    expect((await page(null)).status).toBe(401);
    expect((await call(countRoute, {})).status).toBe(401);
    expect((await call(listRoute, {})).status).toBe(401);
    expect((await call(readedRoute, { method: "PUT" })).status).toBe(401);
    for (const q of ["page=-1", "size=0", "size=1000", "page=abc", "sort=id,desc"]) {
      const res = await page(a, q);
      expect(res.status, q).toBe(422);
      expect(res.body.error.code).toBe("validation_failed");
    }
  });

  it("a deleted viewer is refused (no bell for them)", async () => {
    await setAccount(a.id, { isDeleted: true });
    const deleted = await signedInAccount();
    await setAccount(deleted.id, { isDeleted: true });
    expect((await call(countRoute, { token: deleted.accessToken })).status).toBe(403);
  });
});
