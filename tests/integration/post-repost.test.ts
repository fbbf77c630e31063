// Issue 27: POST post/{id}/repost {comment?} — sharing a post on one's own wall (docs/adr/0130).
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { DELETE as deleteRoute, GET as getRoute } from "@/app/api/v1/post/[id]/route";
import { POST as repostRoute } from "@/app/api/v1/post/[id]/repost/route";
import { GET as listRoute, PUT as editRoute } from "@/app/api/v1/post/route";
import { PUT as settingsRoute } from "@/app/api/v1/notifications/settings/route";
import { getDb } from "@/db/client";
import { POST_TEXT_MAX } from "@/lib/validation/post";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { eventsAfter, lastEventId, makeFriends, setPair } from "./friends-support";
import { newPost, validPost } from "./post-support";

// RATE_LIMIT_POST counts reposts as new posts of the wall; this file proves it with a small limit
// (every other test uses fresh accounts and stays below it).
vi.stubEnv("RATE_LIMIT_POST", "6/1m");

type Account = Awaited<ReturnType<typeof signedInAccount>>;
const person = (firstName: string) => signedInAccount({ firstName, lastName: "Test" });

const repost = (who: Account | null, id: number | string, body?: unknown, headers: Record<string, string> = {}) =>
  call(repostRoute, { method: "POST", path: `/api/v1/post/${id}/repost`, body, token: who?.accessToken, params: { id: String(id) }, headers });
const get = (who: Account, id: number) => call(getRoute, { token: who.accessToken, params: { id: String(id) } });

async function repostNotifications(receiverId: number) {
  return getDb().execute<{ post_id: string; author_id: string; content: string; group_count: number }>(sql`
    select post_id, author_id, content, group_count from notifications where receiver_id = ${receiverId} and notification_type = 'REPOST' order by id`);
}

let a: Account;
let b: Account;
beforeAll(async () => {
  a = await person("Anna");
  b = await person("Boris");
});

describe("POST post/{id}/repost", () => {
  it("shares a post with sanitised words: 201, the new post carries the original; the author hears of it; followers' feeds too", async () => {
    const original = await newPost(a.ctx, { title: "Оригинал", postText: "<p>Текст оригинала здесь</p>" });
    const follower = await person("Fedor");
    await makeFriends(b.id, follower.id);
    const since = await lastEventId();
    const res = await repost(b, original.id, { comment: '<p>Смотрите <strong>это</strong><script>alert(1)</script><img src=x onerror=alert(1)></p>', authorId: a.id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      authorId: b.id,
      title: "",
      postText: "<p>Смотрите <strong>это</strong></p>",
      type: "POSTED",
      repostOf: { id: original.id, authorId: a.id, title: "Оригинал", postText: "<p>Текст оригинала здесь</p>", repostOf: null, isDeleted: false },
    });
    // A's bell: one REPOST entry by B, leading to the repost, saying the original's title.
    expect(await repostNotifications(a.id)).toEqual([{ post_id: String(res.body.id), author_id: String(b.id), content: "Оригинал", group_count: 1 }]);
    const events = await eventsAfter(since);
    expect(events.filter((e) => e.type === "POST_PUBLISHED")).toEqual([
      expect.objectContaining({ recipients: [follower.id], data: { postId: res.body.id, authorId: b.id } }),
    ]);
    // The wall, the feed and the post itself read it the same way.
    const wall = await call(listRoute, { token: a.accessToken, path: `/api/v1/post?accountIds=${b.id}` });
    expect(wall.body.content[0]).toMatchObject({ id: res.body.id, repostOf: { id: original.id, title: "Оригинал" } });
    expect((await get(a, res.body.id)).body.repostOf.id).toBe(original.id);
  });

  it("without a body (or with empty words) is a repost without words; a repost of a repost points to the original", async () => {
    const [x, y, z] = [await person("Xenia"), await person("Yuri"), await person("Zoya")];
    const original = await newPost(x.ctx);
    const first = await call(repostRoute, { method: "POST", token: y.accessToken, params: { id: String(original.id) } });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.postText).toBe("");
    const second = await repost(z, first.body.id, { comment: "<p>   </p>" });
    expect(second.status).toBe(201);
    expect(second.body.postText).toBe("");
    expect(second.body.repostOf.id).toBe(original.id);
    const [row] = await getDb().execute<{ repost_of_id: string }>(sql`select repost_of_id from posts where id = ${second.body.id}`);
    expect(Number(row.repost_of_id)).toBe(original.id);
    // Both shares reach the original's author, grouped into one unread entry leading to the newest.
    expect(await repostNotifications(x.id)).toEqual([{ post_id: String(second.body.id), author_id: String(z.id), content: original.title, group_count: 2 }]);
    // Nobody is told of their own share.
    await repost(x, original.id);
    expect((await repostNotifications(x.id))[0].group_count).toBe(2);
  });

  it("the original's deletion shows as a marker on every repost; a repost cannot be edited", async () => {
    const [x, y] = [await person("Xenia"), await person("Yuri")];
    const original = await newPost(x.ctx);
    const shared = await repost(y, original.id, { comment: "<p>Моё мнение</p>" });
    expect((await call(deleteRoute, { method: "DELETE", token: x.accessToken, params: { id: String(original.id) } })).status).toBe(200);
    expect((await get(y, shared.body.id)).body.repostOf).toEqual({ id: original.id, gone: "DELETED" });
    const wall = await call(listRoute, { token: x.accessToken, path: `/api/v1/post?accountIds=${y.id}` });
    expect(wall.body.content[0].repostOf).toEqual({ id: original.id, gone: "DELETED" });
    // A deleted original, or a repost of it, cannot be shared any more.
    expect((await repost(x, original.id)).status).toBe(404);
    expect((await repost(x, shared.body.id)).status).toBe(404);
    const edit = await call(editRoute, { method: "PUT", token: y.accessToken, body: { id: shared.body.id, ...validPost() } });
    expect(edit.status).toBe(409);
    expect(edit.body.error).toBeTruthy();
  });

  it("an original the viewer may no longer read (a block) shows as hidden, its content never leaves", async () => {
    const [x, y, z] = [await person("Xenia"), await person("Yuri"), await person("Zoya")];
    const original = await newPost(x.ctx, { title: "Секрет", postText: "<p>Скрытый текст оригинала</p>" });
    const shared = await repost(y, original.id);
    await setPair(x.id, z.id, ["BLOCKED", "REJECTING"]);
    const seen = await get(z, shared.body.id);
    expect(seen.status).toBe(200);
    expect(seen.body.repostOf).toEqual({ id: original.id, gone: "HIDDEN" });
    expect(JSON.stringify(seen.body)).not.toContain("Скрытый");
  });

  it("refuses hostile input with the standard envelope and stores nothing", async () => {
    const [x, y] = [await person("Xenia"), await person("Yuri")];
    const original = await newPost(x.ctx);
    const count = async () => Number((await getDb().execute<{ n: string }>(sql`select count(*) as n from posts where author_id = ${y.id}`))[0].n);
    const cases: [number | string, unknown, number][] = [
      ["abc", {}, 422],
      ["0", {}, 422],
      ["-1", {}, 422],
      ["99999999999999999999", {}, 422],
      [Number.MAX_SAFE_INTEGER, {}, 404],
      [original.id, { comment: "x".repeat(POST_TEXT_MAX + 1) }, 422],
      [original.id, { comment: 42 }, 422],
      [original.id, { comment: ["<p>a</p>"] }, 422],
      [original.id, { comment: "<b>".repeat(20_000) }, 422],
      [original.id, [1, 2], 422],
    ];
    for (const [id, body, status] of cases) {
      const res = await repost(y, id, body, { "accept-language": "ru" });
      expect(res.status, `${id} ${JSON.stringify(body).slice(0, 60)}`).toBe(status);
      expect(res.body.error.message, JSON.stringify(res.body)).toEqual(expect.any(String));
    }
    const huge = await call(repostRoute, {
      method: "POST",
      token: y.accessToken,
      params: { id: String(original.id) },
      rawBody: JSON.stringify({ comment: "я".repeat(200_000) }),
      headers: { "content-type": "application/json" },
    });
    expect(huge.status).toBe(413);
    const malformed = await call(repostRoute, { method: "POST", token: y.accessToken, params: { id: String(original.id) }, rawBody: "{", headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
    expect((await repost(null, original.id)).status).toBe(401);
    expect(await count()).toBe(0);
  });

  it("only posts the reposter may read: not a blocked author's, a closed page's, a scheduled one, a moderator-blocked one", async () => {
    const [x, y] = [await person("Xenia"), await person("Yuri")];
    const blockedAuthor = await newPost(x.ctx);
    await setPair(x.id, y.id, ["BLOCKED", "REJECTING"]);
    expect((await repost(y, blockedAuthor.id)).status).toBe(404);
    await setPair(x.id, y.id, ["REJECTING", "BLOCKED"]);
    expect((await repost(y, blockedAuthor.id)).status).toBe(404);
    await setPair(x.id, y.id, [null, null]);

    const [p, q] = [await person("Petr"), await person("Quinn")];
    const closed = await newPost(p.ctx);
    await getDb().execute(sql`update accounts set profile_visibility = 'FRIENDS' where id = ${p.id}`);
    expect((await repost(q, closed.id)).status).toBe(404);
    await makeFriends(p.id, q.id);
    expect((await repost(q, closed.id)).status).toBe(201);

    const [s, t] = [await person("Sasha"), await person("Tanya")];
    const queued = await newPost(s.ctx, { publishDate: new Date(Date.now() + 3600_000).toISOString() });
    expect((await repost(t, queued.id)).status).toBe(404);
    expect((await repost(s, queued.id)).status).toBe(404);
    const moderated = await newPost(s.ctx);
    await getDb().execute(sql`update posts set is_blocked = true where id = ${moderated.id}`);
    expect((await repost(t, moderated.id)).status).toBe(404);
    expect((await repost(s, moderated.id)).status).toBe(404);
  });

  it("a deleted page may not share; the REPOST switch off keeps the bell quiet", async () => {
    const [x, y] = [await person("Xenia"), await person("Yuri")];
    const original = await newPost(x.ctx);
    const off = await call(settingsRoute, { method: "PUT", token: x.accessToken, body: { notificationType: "REPOST", enable: false } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.enableRepost).toBe(false);
    expect((await repost(y, original.id)).status).toBe(201);
    expect(await repostNotifications(x.id)).toEqual([]);
    await getDb().execute(sql`update accounts set is_deleted = true, deletion_timestamp = now() where id = ${y.id}`);
    const again = await repost(y, original.id);
    expect([401, 403]).toContain(again.status);
  });

  it("RATE_LIMIT_POST counts reposts: past the limit 429, another account unaffected", async () => {
    const [x, y, z] = [await person("Xenia"), await person("Yuri"), await person("Zoya")];
    const original = await newPost(x.ctx);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await repost(y, original.id)).status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(6);
    expect(statuses.slice(6)).toEqual([429, 429]);
    expect((await repost(z, original.id)).status).toBe(201);
  });

  it("the reposts of a post are found by the partial index on repost_of_id (the foreign key's check when a post row goes)", async () => {
    const [author, sharer] = await Promise.all([person("Indexa"), person("Indexb")]);
    const original = await newPost(author.ctx);
    expect((await repost(sharer, original.id)).status).toBe(201);
    const plan = await getDb().transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const rows = await tx.execute<{ "QUERY PLAN": string }>(sql`explain select id from posts where repost_of_id = ${original.id}`);
      return rows.map((r) => r["QUERY PLAN"]).join("\n");
    });
    expect(plan).toContain("posts_repost_of_idx");
    // A reposted original's row cannot go while a repost points to it; the reposts go first (as a purge does).
    await expect(getDb().execute(sql`delete from posts where id = ${original.id}`)).rejects.toThrow();
    await getDb().execute(sql`delete from posts where repost_of_id = ${original.id}`);
    await getDb().execute(sql`delete from posts where id = ${original.id}`);
    expect(Number((await getDb().execute<{ n: string }>(sql`select count(*) as n from posts where id = ${original.id}`))[0].n)).toBe(0);
  });
});
