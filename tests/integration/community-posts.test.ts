// Posts on communities' walls (issue 42): who may post and sign as the community, the wall by kind, and
// that a community's posts stay in it — never on the author's wall, in the global feed, the friends feed,
// news search or the followers' notifications, and a closed one's never readable, reactable, commentable
// or repostable by a non-member. A community's moderators remove posts with the author's own DELETE.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { PUT as feedRoute } from "@/app/api/v1/communities/[id]/feed/route";
import { DELETE as removeMemberRoute, PUT as updateMemberRoute } from "@/app/api/v1/communities/[id]/members/[accountId]/route";
import { POST as joinRoute } from "@/app/api/v1/communities/[id]/members/route";
import { POST as createCommunityRoute } from "@/app/api/v1/communities/route";
import { POST as commentRoute } from "@/app/api/v1/post/[id]/comment/route";
import { POST as likeRoute } from "@/app/api/v1/post/[id]/like/route";
import { POST as repostRoute } from "@/app/api/v1/post/[id]/repost/route";
import { DELETE as deletePostRoute, GET as getPostRoute } from "@/app/api/v1/post/[id]/route";
import { GET as newsRoute } from "@/app/api/v1/post/newsPosts/route";
import { GET as listRoute, POST as createPostRoute } from "@/app/api/v1/post/route";
import { getDb } from "@/db/client";
import { makeFriends } from "./friends-support";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";

vi.stubEnv("DATA_DIR", mkdtempSync(path.join(os.tmpdir(), "krug-community-posts-")));

type Account = Awaited<ReturnType<typeof signedInAccount>>;
const EN = { "accept-language": "en" };
const p = (id: number) => ({ id: String(id) });

const community = async (who: Account, type: "OPEN" | "CLOSED" | "PRIVATE", wall: "ADMINS" | "MEMBERS" = "MEMBERS") => {
  const res = await call(createCommunityRoute, { method: "POST", token: who.accessToken, body: { name: `Wall ${type} ${who.id}`, type, wall }, headers: EN });
  expect(res.status).toBe(201);
  return res.body.id as number;
};
const join = (who: Account, id: number) => call(joinRoute, { method: "POST", token: who.accessToken, params: p(id), headers: EN });
const accept = (admin: Account, id: number, accountId: number) =>
  call(updateMemberRoute, { method: "PUT", token: admin.accessToken, params: { id: String(id), accountId: String(accountId) }, body: { status: "MEMBER" }, headers: EN });
const makeAdmin = (owner: Account, id: number, accountId: number) =>
  call(updateMemberRoute, { method: "PUT", token: owner.accessToken, params: { id: String(id), accountId: String(accountId) }, body: { role: "ADMIN" }, headers: EN });
const makeModerator = (owner: Account, id: number, accountId: number) =>
  call(updateMemberRoute, { method: "PUT", token: owner.accessToken, params: { id: String(id), accountId: String(accountId) }, body: { role: "MODERATOR" }, headers: EN });
const post = (who: Account, body: Record<string, unknown>) =>
  call(createPostRoute, { method: "POST", token: who.accessToken, body: { title: "News", postText: "<p>Saturday tournament at six</p>", ...body }, headers: EN });
const wall = (who: Account, query: string) => call(listRoute, { token: who.accessToken, path: `/api/v1/post?${query}`, headers: EN });
const news = (who: Account, query: string) => call(newsRoute, { token: who.accessToken, path: `/api/v1/post/newsPosts?${query}`, headers: EN });
const getPost = (who: Account, id: number) => call(getPostRoute, { token: who.accessToken, params: p(id), headers: EN });
const ids = (res: { body: { content: { id: number }[] } }) => res.body.content.map((x) => x.id);

let owner: Account;
let member: Account;
let stranger: Account;
beforeEach(async () => {
  [owner, member, stranger] = await Promise.all([
    signedInAccount({ firstName: "Olga", lastName: "Owner" }),
    signedInAccount({ firstName: "Mark", lastName: "Member" }),
    signedInAccount({ firstName: "Sofia", lastName: "Stranger" }),
  ]);
});

describe("posting on a community's wall", () => {
  it("a member posts on a MEMBERS wall; the post names its community; outsiders are refused (403, private 404)", async () => {
    const open = await community(owner, "OPEN");
    const priv = await community(owner, "PRIVATE");
    await join(member, open);
    const made = await post(member, { communityId: open });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ authorId: member.id, communityId: open, asCommunity: false, community: { id: open, name: `Wall OPEN ${owner.id}`, photo: null, type: "OPEN" } });
    const outsider = await post(stranger, { communityId: open });
    expect(outsider.status).toBe(403);
    expect(outsider.body.error.message).toBe("You may not do this");
    expect((await post(stranger, { communityId: priv })).status).toBe(404);
    expect((await post(stranger, { communityId: 999_999_999 })).status).toBe(404);
    expect((await post(stranger, { communityId: "x1" })).status).toBe(422);
    expect(Number((await getDb().execute<{ n: string }>(sql`select count(*) as n from posts where author_id = ${stranger.id}`))[0].n)).toBe(0);
  });

  it("an ADMINS wall takes its admins' posts only; only the owner and admins sign as the community", async () => {
    const page = await community(owner, "OPEN", "ADMINS");
    await join(member, page);
    expect((await post(member, { communityId: page })).status).toBe(403);
    const signed = await post(owner, { communityId: page, asCommunity: true });
    expect(signed.body).toMatchObject({ asCommunity: true, communityId: page });
    await makeAdmin(owner, page, member.id);
    expect((await post(member, { communityId: page, asCommunity: true })).status).toBe(201);
    const club = await community(owner, "OPEN");
    await join(stranger, club);
    expect((await post(stranger, { communityId: club, asCommunity: true })).status).toBe(403);
    expect((await post(stranger, { asCommunity: true })).status).toBe(422);
  });
});

describe("the wall by kind", () => {
  it("an open wall is read by anyone; a closed one by members (others 403), a private one 404; newest first", async () => {
    const open = await community(owner, "OPEN");
    const closed = await community(owner, "CLOSED");
    const priv = await community(owner, "PRIVATE");
    const a = (await post(owner, { communityId: open, title: "first" })).body.id;
    const b = (await post(owner, { communityId: open, title: "second" })).body.id;
    const c = (await post(owner, { communityId: closed })).body.id;
    await post(owner, { communityId: priv });
    expect(ids(await wall(stranger, `communityId=${open}&size=10`))).toEqual([b, a]);
    expect((await wall(stranger, `communityId=${closed}`)).status).toBe(403);
    expect((await wall(stranger, `communityId=${priv}`)).status).toBe(404);
    await join(member, closed);
    expect((await wall(member, `communityId=${closed}`)).status).toBe(403);
    await accept(owner, closed, member.id);
    expect(ids(await wall(member, `communityId=${closed}`))).toEqual([c]);
    // A closed community's post read by a non-member is 404, as a closed page's; its reactions, comments and reposts too.
    expect((await getPost(stranger, c)).status).toBe(404);
    expect((await getPost(member, c)).status).toBe(200);
    expect((await call(likeRoute, { method: "POST", token: stranger.accessToken, params: p(c), headers: EN })).status).toBe(404);
    expect((await call(commentRoute, { method: "POST", token: stranger.accessToken, params: p(c), body: { commentText: "hi" }, headers: EN })).status).toBe(404);
    expect((await call(repostRoute, { method: "POST", token: member.accessToken, params: p(c), body: {}, headers: EN })).status).toBe(404);
    // An open community's post is shared like any other.
    expect((await call(repostRoute, { method: "POST", token: stranger.accessToken, params: p(a), body: {}, headers: EN })).status).toBe(201);
  });
});

describe("the wall's one statement", () => {
  it("pages as the filtered wall does: own scheduled posts first, moderated and blocked authors' posts as they are, totals, every size", async () => {
    const open = await community(owner, "OPEN");
    await join(member, open);
    await join(stranger, open);
    const made: number[] = [];
    for (let i = 0; i < 4; i++) made.push((await post(i % 2 ? member : owner, { communityId: open, title: `Wall ${i}` })).body.id);
    // A scheduled post of the member (first on their own reading), a moderated one, and one by someone the member blocks.
    made.push((await post(member, { communityId: open, title: "Later", publishDate: new Date(Date.now() + 3600_000).toISOString() })).body.id);
    await getDb().execute(sql`update posts set is_blocked = true where id = ${made[0]}`);
    made.push((await post(stranger, { communityId: open, title: "Theirs" })).body.id);
    await makeFriends(member.id, stranger.id);
    await getDb().execute(sql`update friendships set status_code = case when account_id = ${member.id} then 'BLOCKED'::friend_status else 'REJECTING'::friend_status end
      where (account_id = ${member.id} and friend_id = ${stranger.id}) or (account_id = ${stranger.id} and friend_id = ${member.id})`);
    // A post deleted by its author, and one erased outright: neither counts (ADR 0187).
    made.push((await post(member, { communityId: open, title: "Gone" })).body.id);
    expect((await call(deletePostRoute, { method: "DELETE", token: member.accessToken, params: p(made[made.length - 1]), headers: EN })).status).toBe(200);
    made.push((await post(stranger, { communityId: open, title: "Erased" })).body.id);
    await getDb().execute(sql`delete from posts where id = ${made[made.length - 1]}`);
    // Staff see the moderated post; nobody else but its author does.
    const staff = await signedInAccount({ firstName: "Stas", lastName: "Staff" });
    await getDb().execute(sql`update accounts set role = 'MODERATOR' where id = ${staff.id}`);
    const [counted] = await getDb().execute<{ kept: number; real: string }>(sql`
      select c.posts_count as kept, (select count(*) from posts p where p.community_id = c.id and not p.is_deleted) as real from communities c where c.id = ${open}`);
    expect(counted.kept).toBe(Number(counted.real));
    expect(counted.kept).toBe(6);
    const totals = new Map<number, number>();
    for (const who of [owner, member, stranger, staff]) {
      totals.set(who.id, (await wall(who, `communityId=${open}&size=10`)).body.totalElements);
      for (const size of [1, 2, 3]) {
        for (let page = 0; page < 7; page++) {
          const plain = await wall(who, `communityId=${open}&size=${size}&page=${page}`);
          // A date filter that keeps every post takes the plan-built path.
          const filtered = await wall(who, `communityId=${open}&size=${size}&page=${page}&dateFrom=2000-01-01T00:00:00Z`);
          expect(plain.status).toBe(200);
          expect(ids(plain), `${who.id} size ${size} page ${page}`).toEqual(ids(filtered));
          expect(plain.body.totalElements).toBe(filtered.body.totalElements);
          expect(plain.body.content).toEqual(filtered.body.content);
        }
      }
    }
    // Five published (the blocked author's counts, as the filtered wall counts it), one of them moderated (its
    // author and staff count it), and the member's scheduled one (theirs only).
    expect(Object.fromEntries(totals)).toEqual({ [owner.id]: 5, [member.id]: 5, [stranger.id]: 4, [staff.id]: 5 });
    expect(ids(await wall(member, `communityId=${open}&size=10`))[0]).toBe(made[4]);
    expect(ids(await wall(owner, `communityId=${open}&size=10`))).not.toContain(made[4]);
  });
});

describe("a community's posts stay in the community", () => {
  it("never on the author's wall, in the global feed, the friends feed or the followers' notifications", async () => {
    const open = await community(owner, "OPEN");
    await makeFriends(owner.id, stranger.id);
    const own = (await post(owner, { title: "Personal" })).body.id;
    const inCommunity = (await post(owner, { communityId: open, title: "Zyxwvut club news", postText: "<p>Zyxwvut tournament</p>" })).body.id;
    expect(ids(await wall(stranger, `accountId=${owner.id}&size=10`))).toEqual([own]);
    expect(ids(await news(stranger, "withFriends=true&size=50"))).toContain(own);
    expect(ids(await news(stranger, "withFriends=true&size=50"))).not.toContain(inCommunity);
    expect(ids(await news(stranger, "size=50"))).not.toContain(inCommunity);
    const told = await getDb().execute(sql`select 1 from notifications where post_id = ${inCommunity}`);
    expect(told).toHaveLength(0);
    expect(await getDb().execute(sql`select 1 from notifications where post_id = ${own}`)).not.toHaveLength(0);
  });
});

describe("searches of every post", () => {
  it("find an open community's posts and the viewer's own communities' — by text, tag, author and date — and never a closed one's for others", async () => {
    const open = await community(owner, "OPEN");
    const closed = await community(owner, "CLOSED");
    await join(member, closed);
    expect((await accept(owner, closed, member.id)).status).toBe(200);
    const own = (await post(owner, { title: "Qwertzuiop at home", tags: ["квиртаг"] })).body.id;
    const inOpen = (await post(owner, { communityId: open, title: "Qwertzuiop club news", postText: "<p>Qwertzuiop tournament</p>", tags: ["квиртаг"] })).body.id;
    const inClosed = (await post(owner, { communityId: closed, title: "Qwertzuiop members only", tags: ["квиртаг"] })).body.id;
    for (const query of ["text=Qwertzuiop", "tags=квиртаг", "author=Olga%20Owner", `dateFrom=${new Date(Date.now() - 3600_000).toISOString()}`]) {
      expect(ids(await news(stranger, `${query}&size=50`)).sort(), query).toEqual(expect.arrayContaining([own, inOpen].sort()));
      expect(ids(await news(stranger, `${query}&size=50`)), query).not.toContain(inClosed);
      expect(ids(await news(member, `${query}&size=50`)), query).toEqual(expect.arrayContaining([own, inOpen, inClosed]));
    }
    const found = await news(stranger, "text=Qwertzuiop&size=50");
    expect(found.body.totalElements).toBe(2);
    expect(found.body.content.find((x: { id: number }) => x.id === inOpen)).toMatchObject({ communityId: open, community: { id: open } });
    expect((await news(member, "text=Qwertzuiop&size=50")).body.totalElements).toBe(3);
    // Pages of the merged branches: newest first, no post twice.
    const paged = [...ids(await news(member, "text=Qwertzuiop&size=2&page=0")), ...ids(await news(member, "text=Qwertzuiop&size=2&page=1"))];
    expect(new Set(paged).size).toBe(3);
    const byTag = [...ids(await news(member, "tags=квиртаг&size=2&page=0")), ...ids(await news(member, "tags=квиртаг&size=2&page=1"))];
    expect(byTag).toEqual([inClosed, inOpen, own]);
    // The plain global feed stays the people's own posts.
    expect(ids(await news(stranger, "size=50"))).not.toContain(inOpen);

    // A community gone (deleted), a block with the author: its posts leave the search.
    await makeFriends(owner.id, stranger.id);
    await getDb().execute(sql`update friendships set status_code = case when account_id = ${stranger.id} then 'BLOCKED'::friend_status else 'REJECTING'::friend_status end
      where (account_id = ${stranger.id} and friend_id = ${owner.id}) or (account_id = ${owner.id} and friend_id = ${stranger.id})`);
    expect(ids(await news(stranger, "text=Qwertzuiop&size=50"))).toEqual([]);
    await getDb().execute(sql`update communities set is_deleted = true, deleted_at = now() where id = ${open}`);
    expect(ids(await news(member, "text=Qwertzuiop&size=50")).sort()).toEqual([own, inClosed].sort());
  });
});

describe("moderation in the community", () => {
  it("its owner, admins and moderators delete members' posts with the author's DELETE; a plain member cannot", async () => {
    const open = await community(owner, "OPEN");
    await join(member, open);
    await join(stranger, open);
    const mine = (await post(member, { communityId: open })).body.id;
    const theirs = (await post(stranger, { communityId: open })).body.id;
    expect((await call(deletePostRoute, { method: "DELETE", token: stranger.accessToken, params: p(mine), headers: EN })).status).toBe(403);
    await makeModerator(owner, open, stranger.id);
    expect((await call(deletePostRoute, { method: "DELETE", token: stranger.accessToken, params: p(mine), headers: EN })).status).toBe(200);
    expect((await call(deletePostRoute, { method: "DELETE", token: owner.accessToken, params: p(theirs), headers: EN })).status).toBe(200);
    expect(ids(await wall(member, `communityId=${open}`))).toEqual([]);
    // Outside the community a moderator is nobody: a member's own-wall post stays theirs.
    const personal = (await post(member, {})).body.id;
    expect((await call(deletePostRoute, { method: "DELETE", token: stranger.accessToken, params: p(personal), headers: EN })).status).toBe(403);
  });
});

describe("in the members' news feed", () => {
  const feed = async (who: Account) => ids(await news(who, "withFriends=true&size=50"));
  const setFeed = (who: Account, id: number, inFeed: unknown) => call(feedRoute, { method: "PUT", token: who.accessToken, params: p(id), body: { inFeed }, headers: EN });

  it("a member reads their communities' posts beside their friends', newest first; others never; the switch, leaving and a ban take them out", async () => {
    const open = await community(owner, "OPEN");
    const closed = await community(owner, "CLOSED");
    await makeFriends(member.id, stranger.id);
    await join(member, open);
    await join(member, closed);
    await accept(owner, closed, member.id);
    const first = (await post(owner, { communityId: open, title: "Open news" })).body.id;
    const friends = (await post(stranger, { title: "A friend's news" })).body.id;
    const second = (await post(owner, { communityId: closed, title: "Closed news" })).body.id;
    expect(await feed(member)).toEqual([second, friends, first]);
    const page = await news(member, "withFriends=true&size=2");
    expect(page.body).toMatchObject({ totalElements: 3 });
    expect(ids(await news(member, "withFriends=true&size=2&page=1"))).toEqual([first]);
    // Neither the friend (no member) nor the owner's friends see the closed community's post.
    expect(await feed(stranger)).toEqual([friends]);
    // Switched off: out of the feed, still a member; back on: back.
    const off = await setFeed(member, closed, false);
    expect(off.body).toMatchObject({ membership: "MEMBER", inFeed: false });
    expect(await feed(member)).toEqual([friends, first]);
    expect((await setFeed(member, closed, true)).body.inFeed).toBe(true);
    expect(await feed(member)).toEqual([second, friends, first]);
    expect((await setFeed(stranger, closed, false)).status).toBe(403);
    expect((await setFeed(member, closed, "no")).status).toBe(422);
    // Leaving, and a ban.
    await call(removeMemberRoute, { method: "DELETE", token: member.accessToken, params: { id: String(open), accountId: String(member.id) }, headers: EN });
    expect(await feed(member)).toEqual([second, friends]);
    await call(updateMemberRoute, { method: "PUT", token: owner.accessToken, params: { id: String(closed), accountId: String(member.id) }, body: { status: "BANNED" }, headers: EN });
    expect(await feed(member)).toEqual([friends]);
  });

  it("the feed's search finds what the feed shows: a community's post by its words, beside a friend's, with the same rules", async () => {
    const closed = await community(owner, "CLOSED");
    await makeFriends(member.id, stranger.id);
    await join(member, closed);
    await accept(owner, closed, member.id);
    const inCommunity = (await post(owner, { communityId: closed, title: "Субботник во дворе", postText: "<p>Приходите с граблями</p>" })).body.id;
    const byFriend = (await post(stranger, { title: "Субботник у реки", postText: "<p>Соберёмся утром</p>" })).body.id;
    await post(owner, { communityId: closed, title: "Другая новость", postText: "<p>Ни слова о нём</p>" });
    const searched = await news(member, `withFriends=true&size=50&text=${encodeURIComponent("субботник")}`);
    expect(ids(searched).sort()).toEqual([inCommunity, byFriend].sort());
    expect(searched.body).toMatchObject({ totalElements: 2 });
    // The friend is no member: the closed community's post is not theirs to find.
    expect(ids(await news(stranger, `withFriends=true&size=50&text=${encodeURIComponent("субботник")}`))).toEqual([byFriend]);
    // Switched off for the feed, it leaves the feed's search too.
    await setFeed(member, closed, false);
    expect(ids(await news(member, `withFriends=true&size=50&text=${encodeURIComponent("субботник")}`))).toEqual([byFriend]);
  });

  it("a blocked author's community posts stay out of the reader's feed", async () => {
    const open = await community(owner, "OPEN");
    await join(member, open);
    await join(stranger, open);
    const theirs = (await post(stranger, { communityId: open })).body.id;
    expect(await feed(member)).toEqual([theirs]);
    await makeFriends(member.id, stranger.id);
    await getDb().execute(sql`update friendships set status_code = case when account_id = ${member.id} then 'BLOCKED'::friend_status else 'REJECTING'::friend_status end
      where (account_id = ${member.id} and friend_id = ${stranger.id}) or (account_id = ${stranger.id} and friend_id = ${member.id})`);
    expect(await feed(member)).toEqual([]);
    expect(ids(await wall(member, `communityId=${open}`))).toEqual([]);
  });
});

