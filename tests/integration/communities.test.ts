// Communities (issue 42): creating, reading by kind, joining, asking and accepting, invitations, roles,
// bans, leaving, deleting and restoring, search and a person's communities — and every refusal in the
// standard envelope with nothing changed, members_count always the count of MEMBER rows.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { POST as inviteRoute } from "@/app/api/v1/communities/[id]/invitations/route";
import { DELETE as removeRoute, PUT as updateMemberRoute } from "@/app/api/v1/communities/[id]/members/[accountId]/route";
import { GET as membersRoute, POST as joinRoute } from "@/app/api/v1/communities/[id]/members/route";
import { POST as restoreRoute } from "@/app/api/v1/communities/[id]/restore/route";
import { DELETE as deleteRoute, GET as getRoute, PATCH as patchRoute } from "@/app/api/v1/communities/[id]/route";
import { GET as listRoute, POST as createRoute } from "@/app/api/v1/communities/route";
import { POST as storageRoute } from "@/app/api/v1/storage/route";
import { getDb } from "@/db/client";
import { anonymiseExpiredAccounts } from "@/lib/server/services/accounts/anonymise";
import { deleteMyAccount } from "@/lib/server/services/accounts/delete-account";
import { blockAccount } from "@/lib/server/services/friends/actions";
import { makeFriends } from "./friends-support";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { png, upload } from "./helpers/upload";

vi.stubEnv("DATA_DIR", mkdtempSync(path.join(os.tmpdir(), "krug-communities-")));
// Per account, and every test has its own accounts: low enough for the limits test to reach.
vi.stubEnv("RATE_LIMIT_COMMUNITY_CREATE", "4/1h");
vi.stubEnv("RATE_LIMIT_COMMUNITY_JOIN", "6/1h");

type Account = Awaited<ReturnType<typeof signedInAccount>>;
const EN = { "accept-language": "en" };
const p = (id: number) => ({ id: String(id) });
const pm = (id: number, accountId: number) => ({ id: String(id), accountId: String(accountId) });

const create = (who: Account, body: unknown) => call(createRoute, { method: "POST", token: who.accessToken, body, headers: EN });
const getOne = (who: Account, id: number) => call(getRoute, { token: who.accessToken, params: p(id), headers: EN });
const patch = (who: Account, id: number, body: unknown) => call(patchRoute, { method: "PATCH", token: who.accessToken, params: p(id), body, headers: EN });
const del = (who: Account, id: number) => call(deleteRoute, { method: "DELETE", token: who.accessToken, params: p(id), headers: EN });
const restore = (who: Account, id: number) => call(restoreRoute, { method: "POST", token: who.accessToken, params: p(id), headers: EN });
const join = (who: Account, id: number) => call(joinRoute, { method: "POST", token: who.accessToken, params: p(id), headers: EN });
const members = (who: Account, id: number, query = "") =>
  call(membersRoute, { token: who.accessToken, params: p(id), path: `/api/v1/communities/${id}/members${query}`, headers: EN });
const setMember = (who: Account, id: number, accountId: number, body: unknown) =>
  call(updateMemberRoute, { method: "PUT", token: who.accessToken, params: pm(id, accountId), body, headers: EN });
const remove = (who: Account, id: number, accountId: number) => call(removeRoute, { method: "DELETE", token: who.accessToken, params: pm(id, accountId), headers: EN });
const invite = (who: Account, id: number, accountId: unknown) => call(inviteRoute, { method: "POST", token: who.accessToken, params: p(id), body: { accountId }, headers: EN });
const list = (who: Account, query: string) => call(listRoute, { token: who.accessToken, path: `/api/v1/communities${query}`, headers: EN });

const db = () => getDb();
/** The stored count and the count of MEMBER rows of community `id`. */
async function counts(id: number): Promise<[number, number]> {
  const [r] = await db().execute<{ stored: number; rows: string }>(sql`
    select c.members_count as stored, (select count(*) from community_members m where m.community_id = c.id and m.status = 'MEMBER') as rows
    from communities c where c.id = ${id}`);
  return [r.stored, Number(r.rows)];
}
const expectCount = async (id: number, n: number) => expect(await counts(id)).toEqual([n, n]);

let owner: Account;
let b: Account;
let c: Account;
let d: Account;
beforeEach(async () => {
  [owner, b, c, d] = await Promise.all([
    signedInAccount({ firstName: "Anna", lastName: "Owner" }),
    signedInAccount({ firstName: "Boris", lastName: "Second" }),
    signedInAccount({ firstName: "Clara", lastName: "Third" }),
    signedInAccount({ firstName: "Denis", lastName: "Fourth" }),
  ]);
});

async function community(who: Account, type: "OPEN" | "CLOSED" | "PRIVATE", extra: Record<string, unknown> = {}): Promise<number> {
  const res = await create(who, { name: `Club ${type} ${who.id}`, type, ...extra });
  expect(res.status).toBe(201);
  return res.body.id;
}

describe("creating and reading", () => {
  it("creates a community owned by its creator, the first member; refuses bad input with 422 and creates nothing", async () => {
    const res = await create(owner, { name: "  Chess club  ", description: "Saturdays", type: "CLOSED", wall: "ADMINS" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "Chess club", description: "Saturdays", type: "CLOSED", wall: "ADMINS", membersCount: 1, role: "OWNER", membership: "MEMBER", canRead: true, canPost: true, deletedAt: null });
    await expectCount(res.body.id, 1);
    const before = Number((await db().execute<{ n: string }>(sql`select count(*) as n from communities`))[0].n);
    for (const body of [
      { name: "", type: "OPEN" },
      { name: "x".repeat(101), type: "OPEN" },
      { name: "ok", type: "SECRET" },
      { name: "ok", type: "OPEN", wall: "EVERYONE" },
      { name: "ok", type: "OPEN", description: "y".repeat(501) },
      { name: "ok", type: "OPEN", photo: "https://evil.example/x.png" },
      { name: "ok", type: "OPEN", ownerId: 1 },
      { name: "\u0000\u0001", type: "OPEN" },
    ]) {
      const bad = await create(owner, body);
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(bad.body.error.code).toBe("validation_failed");
    }
    expect(Number((await db().execute<{ n: string }>(sql`select count(*) as n from communities`))[0].n)).toBe(before);
  });

  it("takes a stored photo and cover, refuses a stored-looking path that is not there", async () => {
    const up = await upload(storageRoute, { token: owner.accessToken, bytes: await png(30, 30), contentType: "image/png" });
    expect(up.status).toBe(200);
    const res = await create(owner, { name: "Pictures", type: "OPEN", photo: up.body.data, cover: up.body.data });
    expect(res.status).toBe(201);
    expect(res.body.photo).toBe(up.body.data);
    const missing = await patch(owner, res.body.id, { cover: `/api/v1/storage/files/${"a".repeat(32)}.webp` });
    expect(missing.status).toBe(422);
    expect((await getOne(owner, res.body.id)).body.cover).toBe(up.body.data);
    expect((await patch(owner, res.body.id, { photo: null })).body.photo).toBeNull();
  });

  it("shows an open community to everyone, a closed one's card to everyone, a private one to its members only (404)", async () => {
    const open = await community(owner, "OPEN");
    const closed = await community(owner, "CLOSED");
    const priv = await community(owner, "PRIVATE");
    expect((await getOne(b, open)).body).toMatchObject({ membership: "NONE", role: null, canRead: true, canPost: false });
    expect((await getOne(b, closed)).body).toMatchObject({ membership: "NONE", canRead: false, canPost: false, membersCount: 1 });
    const hidden = await getOne(b, priv);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.message).toBe("Community not found");
    expect((await members(b, closed)).status).toBe(403);
    expect((await members(b, priv)).status).toBe(404);
    expect((await members(b, open)).body.content.map((m: { id: number }) => m.id)).toEqual([owner.id]);
    expect((await getOne(b, 999_999_999)).status).toBe(404);
    expect((await getOne(b, "abc" as unknown as number)).status).toBe(422);
  });
});

describe("joining", () => {
  it("joins an open community at once, asks to join a closed one and the owner accepts; counts follow", async () => {
    const open = await community(owner, "OPEN");
    const closed = await community(owner, "CLOSED");
    const joined = await join(b, open);
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ membership: "MEMBER", role: "MEMBER", membersCount: 2, canRead: true, canPost: true });
    expect((await join(b, open)).status).toBe(409);
    await expectCount(open, 2);

    const asked = await join(b, closed);
    expect(asked.body).toMatchObject({ membership: "REQUESTED", canRead: false, membersCount: 1 });
    const again = await join(b, closed);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("The request has been sent already");
    expect((await members(b, closed, "?status=REQUESTED")).status).toBe(403);
    const requests = await members(owner, closed, "?status=REQUESTED");
    expect(requests.body.content).toMatchObject([{ id: b.id, status: "REQUESTED", role: null }]);
    expect((await setMember(c, closed, b.id, { status: "MEMBER" })).status).toBe(403);
    const accepted = await setMember(owner, closed, b.id, { status: "MEMBER" });
    expect(accepted.body).toMatchObject({ id: b.id, status: "MEMBER", role: "MEMBER" });
    expect((await getOne(b, closed)).body).toMatchObject({ membership: "MEMBER", canRead: true });
    await expectCount(closed, 2);
  });

  it("a refused request and a taken-back one leave nothing; a request becomes a join when the community opens", async () => {
    const closed = await community(owner, "CLOSED");
    await join(b, closed);
    expect((await remove(owner, closed, b.id)).status).toBe(200);
    expect((await getOne(b, closed)).body.membership).toBe("NONE");
    await join(b, closed);
    expect((await remove(b, closed, b.id)).body.membership).toBe("NONE");
    await join(c, closed);
    expect((await patch(owner, closed, { type: "OPEN" })).status).toBe(200);
    expect((await join(c, closed)).body).toMatchObject({ membership: "MEMBER", membersCount: 2 });
    await expectCount(closed, 2);
  });

  it("asks the join limit per account (429 with the community's text) and changes nothing past it", async () => {
    const ids = await Promise.all([1, 2, 3, 4].map(() => community(owner, "OPEN")));
    const more = await Promise.all([1, 2, 3].map(() => community(c, "OPEN")));
    const all = [...ids, ...more];
    const answers = [];
    for (const id of all) answers.push((await join(b, id)).status);
    expect(answers.slice(0, 6)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers[6]).toBe(429);
    const refused = await join(b, all[6]);
    expect(refused.body.error.message).toBe("Too many actions. Try again later");
    await expectCount(all[6], 1);
    const created = await create(owner, { name: "fifth", type: "OPEN" });
    expect(created.status).toBe(429);
  });
});

describe("invitations", () => {
  it("a member invites a friend, who sees the private community and joins by accepting; strangers and blocks are refused", async () => {
    const priv = await community(owner, "PRIVATE");
    await makeFriends(owner.id, b.id);
    const invited = await invite(owner, priv, b.id);
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ id: b.id, status: "INVITED", role: null });
    expect((await invite(owner, priv, b.id)).status).toBe(409);
    expect((await getOne(b, priv)).body).toMatchObject({ membership: "INVITED", canRead: false });
    const mine = await list(b, `?memberId=${b.id}&membership=INVITED`);
    expect(mine.body.content.map((x: { id: number }) => x.id)).toEqual([priv]);
    expect((await list(c, `?memberId=${b.id}&membership=INVITED`)).status).toBe(403);
    expect((await join(b, priv)).body).toMatchObject({ membership: "MEMBER", canRead: true, membersCount: 2 });
    // Not a friend of the inviter: 403; nobody: 404; a member who is not an admin in a private one: 403.
    const stranger = await invite(owner, priv, c.id);
    expect(stranger.status).toBe(403);
    expect(stranger.body.error.message).toBe("You can invite only a friend");
    expect((await invite(owner, priv, 999_999_999)).status).toBe(404);
    await makeFriends(b.id, c.id);
    expect((await invite(b, priv, c.id)).status).toBe(403);
    // A block either way: 403, even between friends once blocked.
    const open = await community(owner, "OPEN");
    await makeFriends(owner.id, d.id);
    await blockAccount({ ctx: d.ctx, input: { id: owner.id } });
    const blocked = await invite(owner, open, d.id);
    expect(blocked.status).toBe(403);
    expect(await db().execute(sql`select 1 from community_members where community_id = ${open} and account_id = ${d.id}`)).toHaveLength(0);
  });

  it("declining an invitation leaves nothing; an admin's invitation of someone who asked accepts them", async () => {
    const closed = await community(owner, "CLOSED");
    await makeFriends(owner.id, b.id);
    await makeFriends(owner.id, c.id);
    await invite(owner, closed, b.id);
    expect((await remove(b, closed, b.id)).body.membership).toBe("NONE");
    await join(c, closed);
    expect((await invite(owner, closed, c.id)).body).toMatchObject({ status: "MEMBER", role: "MEMBER" });
    await expectCount(closed, 2);
  });
});

describe("roles, bans and leaving", () => {
  it("the owner makes admins and moderators; an admin bans and removes those below, never the owner or another admin", async () => {
    const open = await community(owner, "OPEN");
    for (const who of [b, c, d]) await join(who, open);
    expect((await setMember(b, open, c.id, { role: "ADMIN" })).status).toBe(403);
    expect((await setMember(owner, open, b.id, { role: "ADMIN" })).body).toMatchObject({ role: "ADMIN" });
    expect((await setMember(owner, open, c.id, { role: "MODERATOR" })).body).toMatchObject({ role: "MODERATOR" });
    // A moderator is no admin: no bans.
    expect((await setMember(c, open, d.id, { status: "BANNED" })).status).toBe(403);
    // An admin: not over the owner, not over an admin (themselves included), yes over a moderator.
    expect((await setMember(b, open, owner.id, { status: "BANNED" })).status).toBe(403);
    expect((await setMember(b, open, b.id, { status: "BANNED" })).status).toBe(403);
    expect((await setMember(b, open, c.id, { role: "MEMBER" })).status).toBe(403);
    const banned = await setMember(b, open, c.id, { status: "BANNED" });
    expect(banned.body).toMatchObject({ id: c.id, status: "BANNED", role: null });
    await expectCount(open, 3);
    expect((await getOne(c, open)).body).toMatchObject({ membership: "BANNED", canRead: true, canPost: false });
    const again = await join(c, open);
    expect(again.status).toBe(403);
    expect(again.body.error.message).toBe("You are banned from this community");
    expect((await members(owner, open, "?status=BANNED")).body.content.map((m: { id: number }) => m.id)).toEqual([c.id]);
    // Lifting the ban lets them join again.
    expect((await remove(b, open, c.id)).status).toBe(200);
    expect((await join(c, open)).status).toBe(200);
    // A ban of someone who never joined keeps them out too.
    const outsider = await signedInAccount({ firstName: "Olga", lastName: "Outside" });
    expect((await setMember(owner, open, outsider.id, { status: "BANNED" })).status).toBe(200);
    expect((await join(outsider, open)).status).toBe(403);
    // Removal: the admin removes a member; not the owner.
    expect((await remove(b, open, d.id)).body.membersCount).toBe(3);
    expect((await remove(b, open, owner.id)).status).toBe(403);
    await expectCount(open, 3);
  });

  it("the owner cannot leave before handing the community on; then leaves as an admin", async () => {
    const open = await community(owner, "OPEN");
    await join(b, open);
    const stay = await remove(owner, open, owner.id);
    expect(stay.status).toBe(403);
    expect(stay.body.error.message).toBe("The owner cannot leave: hand the community on to another member first");
    expect((await setMember(owner, open, b.id, { role: "OWNER" })).body.role).toBe("OWNER");
    expect((await getOne(owner, open)).body.role).toBe("ADMIN");
    expect(Number((await db().execute<{ owner_id: string }>(sql`select owner_id from communities where id = ${open}`))[0].owner_id)).toBe(b.id);
    expect((await remove(owner, open, owner.id)).body).toMatchObject({ membership: "NONE", membersCount: 1 });
    await expectCount(open, 1);
  });

  it("refuses bad member input: unknown fields, both role and status, a role for a non-member", async () => {
    const open = await community(owner, "OPEN");
    expect((await setMember(owner, open, b.id, { role: "KING" })).status).toBe(422);
    expect((await setMember(owner, open, b.id, { role: "ADMIN", status: "BANNED" })).status).toBe(422);
    expect((await setMember(owner, open, b.id, {})).status).toBe(422);
    expect((await setMember(owner, open, b.id, { role: "ADMIN" })).status).toBe(404);
    expect((await members(owner, open, "?status=GONE")).status).toBe(422);
    expect((await members(owner, open, "?size=100000")).status).toBe(422);
  });
});

describe("members list", () => {
  it("lists the caller's friends first, leaves out people in a block with the caller, pages with the stored total", async () => {
    const open = await community(owner, "OPEN");
    for (const who of [b, c, d]) await join(who, open);
    await makeFriends(d.id, c.id);
    await blockAccount({ ctx: d.ctx, input: { id: b.id } });
    const seen = await members(d, open);
    expect(seen.body.content.map((m: { id: number; isFriend: boolean }) => [m.id, m.isFriend])).toEqual([
      [c.id, true],
      [owner.id, false],
      [d.id, false],
    ]);
    const paged = await members(owner, open, "?size=2&page=1");
    expect(paged.body).toMatchObject({ totalElements: 4, number: 1, size: 2 });
    expect(paged.body.content.map((m: { id: number }) => m.id)).toEqual([c.id, d.id]);
  });
});

describe("deleting and restoring", () => {
  it("only the owner deletes; a deleted community is 404 to everyone else and restorable by its owner", async () => {
    const open = await community(owner, "OPEN");
    await join(b, open);
    expect((await del(b, open)).status).toBe(403);
    const gone = await del(owner, open);
    expect(gone.body.deletedAt).not.toBeNull();
    expect(new Date(gone.body.restoreUntil).getTime()).toBeGreaterThan(Date.now());
    expect((await getOne(b, open)).status).toBe(404);
    expect((await join(c, open)).status).toBe(404);
    expect((await list(b, `?memberId=${b.id}`)).body.content).toEqual([]);
    expect((await getOne(owner, open)).body.deletedAt).not.toBeNull();
    expect((await restore(b, open)).status).toBe(404);
    expect((await restore(owner, open)).body.deletedAt).toBeNull();
    expect((await restore(owner, open)).status).toBe(409);
    expect((await getOne(b, open)).body.membership).toBe("MEMBER");
    // Past the window it stays gone.
    await del(owner, open);
    await db().execute(sql`update communities set deleted_at = now() - interval '400 days' where id = ${open}`);
    expect((await restore(owner, open)).status).toBe(404);
  });
});

describe("finding communities", () => {
  it("searches names by three letters or more, biggest first, never another's private one; LIKE's characters are literal", async () => {
    const tag = `Zq${owner.id}x`;
    const small = (await create(owner, { name: `${tag} small`, type: "OPEN" })).body.id;
    const big = (await create(owner, { name: `${tag} big`, type: "CLOSED" })).body.id;
    const priv = (await create(owner, { name: `${tag} private`, type: "PRIVATE" })).body.id;
    await join(b, big);
    await setMember(owner, big, b.id, { status: "MEMBER" });
    const found = await list(c, `?query=${encodeURIComponent(tag.toLowerCase())}`);
    expect(found.body.content.map((x: { id: number }) => x.id)).toEqual([big, small]);
    expect((await list(owner, `?query=${encodeURIComponent(tag)}`)).body.content.map((x: { id: number }) => x.id)).toContain(priv);
    expect((await list(c, "?query=zq")).body).toMatchObject({ content: [], totalElements: 0 });
    expect((await list(c, `?query=${encodeURIComponent("%%%")}`)).body.content.every((x: { name: string }) => x.name.includes("%%%"))).toBe(true);
    expect((await list(c, `?query=${"a".repeat(101)}`)).status).toBe(422);
  });

  it("looks among the biggest first and beyond them when a page is not all there: every page as sorting every match (ADR 0171)", async () => {
    // A window of the 3 biggest: the pages walk inside it, across its edge and past it.
    vi.stubEnv("COMMUNITY_SEARCH_TOP", "3");
    try {
      const tag = `Wv${owner.id}k`;
      // The biggest of all does not match; the six that do, two of them the same size (the newer first).
      const sizes = [9_000_004, 9_000_002, 9_000_002, 9_000_001, 7, 1];
      const made = await db().execute<{ id: string; members_count: number }>(sql`
        insert into communities (name, type, wall, owner_id, members_count)
        select ${tag} || ' ' || g, 'OPEN', 'MEMBERS', ${owner.id}, (${`{${sizes.join(",")}}`}::int[])[g] from generate_series(1, 6) g
        returning id, members_count`);
      await db().execute(sql`insert into communities (name, type, wall, owner_id, members_count) values ('Ohne ' || ${owner.id}, 'OPEN', 'MEMBERS', ${owner.id}, 9000009)`);
      const expected = made
        .map((r) => ({ id: Number(r.id), n: r.members_count }))
        .sort((x, y) => y.n - x.n || y.id - x.id)
        .map((r) => r.id);
      const q = encodeURIComponent(tag.toLowerCase());
      for (const size of [1, 2, 4]) {
        const seen: number[] = [];
        for (let page = 0; page * size < 6; page++) {
          const res = await list(c, `?query=${q}&size=${size}&page=${page}`);
          expect(res.body.totalElements).toBe(6);
          seen.push(...res.body.content.map((x: { id: number }) => x.id));
        }
        expect(seen, `size ${size}`).toEqual(expected);
      }
      // A text only the smallest has: none among the biggest, found beyond them.
      const smallest = expected[5];
      const name = (await list(c, `?query=${q}&size=10`)).body.content.find((x: { id: number }) => x.id === smallest).name as string;
      expect((await list(c, `?query=${encodeURIComponent(name)}`)).body.content.map((x: { id: number }) => x.id)).toEqual([smallest]);
    } finally {
      vi.stubEnv("COMMUNITY_SEARCH_TOP", "");
    }
  });

  it("lists a person's open communities to others, all of one's own, nothing of a deleted person", async () => {
    const open = await community(owner, "OPEN");
    const closed = await community(owner, "CLOSED");
    expect((await list(b, `?memberId=${owner.id}`)).body.content.map((x: { id: number }) => x.id)).toEqual([open]);
    expect((await list(owner, "")).body.content.map((x: { id: number }) => x.id)).toEqual([closed, open]);
    await db().execute(sql`update accounts set is_deleted = true where id = ${owner.id}`);
    expect((await list(b, `?memberId=${owner.id}`)).body.content).toEqual([]);
  });
});

describe("an erased account", () => {
  it("leaves its communities when its restore window is over: counts follow, an owned one passes to its admin, a lone one is deleted", async () => {
    const shared = await community(owner, "OPEN");
    const alone = await community(owner, "CLOSED");
    const theirs = await community(b, "OPEN");
    for (const who of [b, c]) await join(who, shared);
    await setMember(owner, shared, c.id, { role: "ADMIN" });
    await join(owner, theirs);
    await deleteMyAccount({ ctx: owner.ctx });
    // Within the window nothing moves (the account may come back).
    expect((await getOne(b, shared)).body.membersCount).toBe(3);
    await db().execute(sql`update accounts set deletion_timestamp = now() - interval '400 days' where id = ${owner.id}`);
    expect(await anonymiseExpiredAccounts(db())).toBeGreaterThanOrEqual(1);
    expect((await getOne(c, shared)).body).toMatchObject({ role: "OWNER", membersCount: 2 });
    await expectCount(shared, 2);
    await expectCount(theirs, 1);
    expect((await getOne(b, alone)).status).toBe(404);
    expect(await db().execute(sql`select 1 from community_members where account_id = ${owner.id}`)).toHaveLength(0);
  });
});

