import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DELETE as deleteRoute, GET as getRoute } from "@/app/api/v1/post/[id]/route";
import { DELETE as unlikeRoute, POST as likeRoute } from "@/app/api/v1/post/[id]/like/route";
import { GET as newsRoute } from "@/app/api/v1/post/newsPosts/route";
import { GET as listRoute, POST as createRoute, PUT as editRoute } from "@/app/api/v1/post/route";
import { POST as uploadRoute } from "@/app/api/v1/post/storagePostPhoto/route";
import { GET as tagRoute } from "@/app/api/v1/tag/route";
import { getDb } from "@/db/client";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { upload } from "./helpers/upload";
import { setAccount, setPair } from "./friends-support";
import { newPost, postTables, validPost } from "./post-support";
import sharp from "sharp";

type Account = Awaited<ReturnType<typeof signedInAccount>>;
let a: Account;
let b: Account;

beforeAll(async () => {
  a = await signedInAccount({ firstName: "Anna", lastName: "Ivanova" });
  b = await signedInAccount({ firstName: "Boris", lastName: "Orlov" });
});

const create = (who: Account | null, body: unknown, headers: Record<string, string> = {}) =>
  call(createRoute, { method: "POST", path: "/api/v1/post", body, token: who?.accessToken, headers });

describe("POST post", () => {
  it("creates a post with the whole DTO, sanitised HTML, global tags and an uploaded image", async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#f00" } }).png().toBuffer();
    const up = await upload(uploadRoute, { token: a.accessToken, bytes: png, path: "/api/v1/post/storagePostPhoto" });
    expect(up.status).toBe(200);
    const res = await create(a, {
      title: "  Про <b>котов</b>  ",
      postText: '<p>Коты <strong>спят</strong> <a href="javascript:alert(1)">тут</a><script>alert(1)</script></p><img src=x onerror=alert(1)>',
      tags: [{ name: "Коты" }, { id: 999, name: "коты" }, "cat life"],
      imagePath: up.body.data,
      publishDate: false,
      authorId: b.id,
      likeAmount: 50,
      isDeleted: true,
      myLike: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      authorId: a.id,
      author: { id: a.id, firstName: "Anna", lastName: "Ivanova", photo: null },
      title: "Про <b>котов</b>",
      postText: '<p>Коты <strong>спят</strong> <a rel="nofollow noopener ugc">тут</a></p>',
      imagePath: up.body.data,
      tags: [
        { id: expect.any(Number), name: "cat_life" },
        { id: expect.any(Number), name: "Коты" },
      ],
      publishDate: expect.any(String),
      type: "POSTED",
      time: expect.any(String),
      timeChanged: null,
      isDeleted: false,
      isBlocked: false,
      commentsCount: 0,
      likeAmount: 0,
      myLike: false,
      myReaction: null,
      reactionType: [],
      reactions: [],
      repostOf: null,
      communityId: null,
      community: null,
      asCommunity: false,
    });
    // The same tag name by someone else, in another case, is the same tag.
    const other = await create(b, validPost({ tags: [{ name: "КОТЫ" }] }));
    expect(other.body.tags).toEqual([res.body.tags.find((t: { name: string }) => t.name === "Коты")]);
  });

  it("refuses bad input with the spec's texts and stores nothing", async () => {
    const before = await postTables();
    const cases: [unknown, string][] = [
      [validPost({ title: "abc" }), "Тема должна быть более трех символов, текст - не менее семи."],
      [validPost({ postText: "<p><em>1234567</em></p>" }), "Тема должна быть более трех символов, текст - не менее семи."],
      [validPost({ postText: "<script>alert('long enough text')</script>" }), "Тема должна быть более трех символов, текст - не менее семи."],
      [validPost({ publishDate: "2020-01-01T00:00:00Z" }), "Запланированное время не может быть в прошлом времени!"],
      [validPost({ tags: Array.from({ length: 11 }, (_, i) => ({ name: `t${i}` })) }), "Можно добавить максимум 10 тэгов"],
      [validPost({ imagePath: "https://evil.example/x.webp" }), "uploadErrors"],
      [validPost({ imagePath: `/api/v1/storage/files/${"0".repeat(32)}.webp` }), "uploadErrors"],
      [validPost({ title: 42 }), ""],
      [[1, 2], ""],
    ];
    for (const [body, message] of cases) {
      const res = await create(a, body, { "accept-language": "ru" });
      expect(res.status, JSON.stringify(body)).toBe(422);
      if (message && !message.startsWith("uploadErrors")) expect(res.body.error.message).toBe(message);
    }
    const malformed = await call(createRoute, { method: "POST", rawBody: "{nope", token: a.accessToken, headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
    expect(await postTables()).toEqual(before);
  });

  it("answers in English when asked", async () => {
    const res = await create(a, validPost({ title: "ab" }), { "accept-language": "en" });
    expect(res.body.error.message).toBe("The title must be longer than three characters and the text at least seven.");
  });

  it("refuses the signed-out and deleted accounts", async () => {
    expect((await create(null, validPost())).status).toBe(401);
    const gone = await signedInAccount();
    await setAccount(gone.id, { isDeleted: true });
    const res = await create(gone, validPost());
    expect(res.status).toBe(403);
  });

  it("schedules a post: QUEUED for the author, invisible to others until its time", async () => {
    const when = new Date(Date.now() + 3 * 3600_000).toISOString();
    const res = await create(a, validPost({ title: "Будущий пост", publishDate: when }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: "QUEUED", publishDate: when });
    const id = res.body.id;
    expect((await call(getRoute, { token: a.accessToken, params: { id: String(id) } })).body.type).toBe("QUEUED");
    expect((await call(getRoute, { token: b.accessToken, params: { id: String(id) } })).status).toBe(404);
    const wallForA = await call(listRoute, { path: `/api/v1/post?accountIds=${a.id}`, token: a.accessToken });
    expect(wallForA.body.content.map((p: { id: number }) => p.id)).toContain(id);
    const wallForB = await call(listRoute, { path: `/api/v1/post?accountIds=${a.id}`, token: b.accessToken });
    expect(wallForB.body.content.map((p: { id: number }) => p.id)).not.toContain(id);
    const like = await call(likeRoute, { token: b.accessToken, params: { id: String(id) }, body: { type: "POST", reactionType: "fire" } });
    expect(like.status).toBe(404);
    // Its time comes: visible with no request needed.
    await getDb().execute(sql`update posts set publish_date = now() - interval '1 second' where id = ${id}`);
    expect((await call(getRoute, { token: b.accessToken, params: { id: String(id) } })).body.type).toBe("POSTED");
  });
});

describe("PUT post", () => {
  it("lets the author edit, with the same rules, and refuses everyone else", async () => {
    const post = await newPost(a.ctx, { tags: ["one", "two"] });
    const edit = (who: Account | null, body: unknown) => call(editRoute, { method: "PUT", body, token: who?.accessToken });
    const ok = await edit(a, { id: post.id, title: "Новый заголовок", postText: "<h2>Новый текст поста</h2>", tags: [{ name: "two" }, { name: "three" }], publishDate: post.publishDate });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ id: post.id, title: "Новый заголовок", postText: "<h2>Новый текст поста</h2>", type: "POSTED", publishDate: post.publishDate });
    expect(ok.body.tags.map((t: { name: string }) => t.name)).toEqual(["three", "two"]);
    expect(ok.body.timeChanged).not.toBeNull();

    const before = await postTables();
    expect((await edit(null, { id: post.id, ...validPost() })).status).toBe(401);
    const wrong = await edit(b, { id: post.id, ...validPost({ title: "Чужой" }) });
    expect(wrong.status).toBe(403);
    expect((await edit(a, { id: post.id, ...validPost({ title: "no" }) })).status).toBe(422);
    expect((await edit(a, { id: 999999999, ...validPost() })).status).toBe(404);
    expect((await edit(a, { id: "abc", ...validPost() })).status).toBe(422);
    expect(await postTables()).toEqual(before);
  });

  it("reschedules or publishes a queued post, refusing a past time", async () => {
    const post = await newPost(a.ctx, { publishDate: new Date(Date.now() + 3600_000).toISOString() });
    const past = await call(editRoute, { method: "PUT", token: a.accessToken, body: { id: post.id, ...validPost(), publishDate: "2021-05-05T10:00:00Z" } });
    expect(past.status).toBe(422);
    expect(past.body.error.message).toBe("Запланированное время не может быть в прошлом времени!");
    const now = await call(editRoute, { method: "PUT", token: a.accessToken, body: { id: post.id, ...validPost(), publishDate: null } });
    expect(now.body.type).toBe("POSTED");
  });
});

describe("GET post/{id} and DELETE post/{id}", () => {
  it("reads a visible post, hides it behind a block either way, and lets only the author delete", async () => {
    const post = await newPost(a.ctx);
    const get = (who: Account | null) => call(getRoute, { token: who?.accessToken, params: { id: String(post.id) } });
    expect((await get(null)).status).toBe(401);
    expect((await get(b)).body.id).toBe(post.id);
    expect((await call(getRoute, { token: b.accessToken, params: { id: "x1" } })).status).toBe(422);

    await setPair(a.id, b.id, ["BLOCKED", "REJECTING"]);
    expect((await get(b)).status).toBe(404);
    await setPair(b.id, a.id, ["BLOCKED", "REJECTING"]);
    expect((await get(b)).status).toBe(404);
    await setPair(a.id, b.id, [null, null]);

    const del = (who: Account | null) => call(deleteRoute, { method: "DELETE", token: who?.accessToken, params: { id: String(post.id) } });
    expect((await del(null)).status).toBe(401);
    expect((await del(b)).status).toBe(403);
    expect((await get(b)).status).toBe(200);
    expect((await del(a)).status).toBe(200);
    expect((await get(a)).status).toBe(404);
    expect((await del(a)).status).toBe(404);
  });

  it("hides the posts and the wall of a deleted account", async () => {
    const c = await signedInAccount();
    const post = await newPost(c.ctx);
    await setAccount(c.id, { isDeleted: true });
    expect((await call(getRoute, { token: b.accessToken, params: { id: String(post.id) } })).status).toBe(404);
    const wall = await call(listRoute, { path: `/api/v1/post?accountId=${c.id}`, token: b.accessToken });
    expect(wall.body).toMatchObject({ content: [], totalElements: 0 });
    const feed = await call(newsRoute, { path: "/api/v1/post/newsPosts?size=50", token: b.accessToken });
    expect(feed.body.content.map((p: { id: number }) => p.id)).not.toContain(post.id);
  });
});

describe("reactions", () => {
  it("sets, replaces and removes one reaction per person with the counts on the post", async () => {
    const post = await newPost(a.ctx);
    const id = String(post.id);
    const like = (who: Account | null, body: unknown) => call(likeRoute, { token: who?.accessToken, params: { id }, body });
    expect((await like(null, { type: "POST", reactionType: "fire" })).status).toBe(401);
    expect((await like(b, { type: "POST", reactionType: "nope" })).status).toBe(422);
    expect((await like(b, { type: "COMMENT", reactionType: "fire" })).status).toBe(422);

    expect((await like(b, { type: "POST", reactionType: "fire" })).body).toEqual({
      id: post.id, likeAmount: 1, myLike: true, myReaction: "fire", reactionType: [{ reactionType: "fire", count: 1 }],
      // The same list under the original client's name (issue 29 §3).
      reactions: [{ reactionType: "fire", count: 1 }],
    });
    expect((await like(a, { type: "POST", reactionType: "owl" })).body.likeAmount).toBe(2);
    expect((await like(b, { type: "POST", reactionType: "owl" })).body).toEqual({
      id: post.id, likeAmount: 2, myLike: true, myReaction: "owl", reactionType: [{ reactionType: "owl", count: 2 }],
      reactions: [{ reactionType: "owl", count: 2 }],
    });
    const readB = await call(getRoute, { token: b.accessToken, params: { id } });
    expect(readB.body).toMatchObject({ likeAmount: 2, myLike: true, myReaction: "owl", reactions: [{ reactionType: "owl", count: 2 }] });

    // DELETE by someone without a reaction changes nothing; the signed-out are refused.
    const c = await signedInAccount();
    expect((await call(unlikeRoute, { method: "DELETE", token: c.accessToken, params: { id } })).body.likeAmount).toBe(2);
    expect((await call(unlikeRoute, { method: "DELETE", params: { id } })).status).toBe(401);
    expect((await call(unlikeRoute, { method: "DELETE", token: b.accessToken, params: { id } })).body).toEqual({
      id: post.id, likeAmount: 1, myLike: false, myReaction: null, reactionType: [{ reactionType: "owl", count: 1 }],
      reactions: [{ reactionType: "owl", count: 1 }],
    });
  });

  it("refuses reactions across a block and on deleted posts", async () => {
    const post = await newPost(a.ctx);
    await setPair(b.id, a.id, ["BLOCKED", "REJECTING"]);
    const res = await call(likeRoute, { token: b.accessToken, params: { id: String(post.id) }, body: { type: "POST", reactionType: "heart" } });
    expect(res.status).toBe(404);
    await setPair(b.id, a.id, [null, null]);
  });
});

describe("GET tag", () => {
  it("suggests at most 5 tags by prefix, case-insensitively, most used first", async () => {
    const c = await signedInAccount();
    for (const [name, uses] of [["pref_a", 1], ["Pref_b", 3], ["pref_c", 2], ["pref_d", 1], ["pref_e", 1], ["pref_f", 1], ["other", 5]] as const) {
      for (let i = 0; i < uses; i++) await newPost(c.ctx, { tags: [name] });
    }
    const res = await call(tagRoute, { path: "/api/v1/tag?name=PREF", token: c.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(5);
    expect(res.body.slice(0, 2).map((t: { name: string }) => t.name)).toEqual(["Pref_b", "pref_c"]);
    expect((await call(tagRoute, { path: "/api/v1/tag?name=pref_", token: c.accessToken })).body).toHaveLength(5);
    expect((await call(tagRoute, { path: "/api/v1/tag?name=", token: c.accessToken })).body).toEqual([]);
    expect((await call(tagRoute, { path: "/api/v1/tag?name=pref" })).status).toBe(401);
  });

  it("never suggests a tag the viewer cannot see on any post: scheduled, behind a block, of a deleted author", async () => {
    const author = await signedInAccount();
    const viewer = await signedInAccount();
    const suggest = async (who: Account, name: string) =>
      (await call(tagRoute, { path: `/api/v1/tag?name=${encodeURIComponent(name)}`, token: who.accessToken })).body.map((t: { name: string }) => t.name);
    // A post scheduled for tomorrow: its tag is a secret until then, except to its author.
    const tomorrow = new Date(Date.now() + 24 * 3600_000).toISOString();
    await newPost(author.ctx, { tags: ["lksched"], publishDate: tomorrow });
    expect(await suggest(viewer, "lksch")).toEqual([]);
    expect(await suggest(author, "lksch")).toEqual(["lksched"]);
    // Once another, published post carries it, everyone may see it.
    await newPost(author.ctx, { tags: ["lksched"] });
    expect(await suggest(viewer, "lksch")).toEqual(["lksched"]);

    // Behind a block (either direction), a tag only the other side uses is not suggested.
    await newPost(author.ctx, { tags: ["lkblock"] });
    expect(await suggest(viewer, "lkbl")).toEqual(["lkblock"]);
    await setPair(author.id, viewer.id, ["BLOCKED", "REJECTING"]);
    expect(await suggest(viewer, "lkbl")).toEqual([]);
    await setPair(viewer.id, author.id, ["BLOCKED", "REJECTING"]);
    expect(await suggest(viewer, "lkbl")).toEqual([]);
    await setPair(viewer.id, author.id, [null, null]);
    expect(await suggest(viewer, "lkbl")).toEqual(["lkblock"]);

    // A deleted author's posts are unreadable, and so are their tags.
    await setAccount(author.id, { isDeleted: true });
    expect(await suggest(viewer, "lkbl")).toEqual([]);
    await setAccount(author.id, { isDeleted: false });
  });
});
