// Reports of communities and the staff's block of one (issue 42): a community is reported to the site's
// moderators like a post or a profile (its card kept, its owner answerable), only by someone who sees it —
// a private one is absent to the others, exactly as a missing one; BLOCK_CONTENT blocks it, the admin
// unblocks it, both in the audit log with the reason; a blocked community is gone from its page, search, its
// posts and the members' feed, and comes back whole; the statistics count communities.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { createTranslator } from "next-intl";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { GET as auditRoute } from "@/app/api/v1/admin/audit/route";
import { PUT as blockCommunityRoute } from "@/app/api/v1/admin/communities/[id]/block/route";
import { PUT as unblockCommunityRoute } from "@/app/api/v1/admin/communities/[id]/unblock/route";
import { GET as statisticsRoute } from "@/app/api/v1/admin/statistics/route";
import { POST as joinRoute } from "@/app/api/v1/communities/[id]/members/route";
import { GET as communityRoute } from "@/app/api/v1/communities/[id]/route";
import { GET as listCommunitiesRoute, POST as createCommunityRoute } from "@/app/api/v1/communities/route";
import { GET as getPostRoute } from "@/app/api/v1/post/[id]/route";
import { GET as newsRoute } from "@/app/api/v1/post/newsPosts/route";
import { POST as createPostRoute } from "@/app/api/v1/post/route";
import { getDb } from "@/db/client";
import { notificationHref, notificationText, type NotificationsTranslate } from "@/lib/notification-text";
import en from "@/messages/en.json";
import ru from "@/messages/ru.json";
import { call } from "./helpers/http";
import { groupOf, notificationsOf, openGroupRow, queue, report, resolve, withRole, type Account } from "./report-support";

vi.stubEnv("DATA_DIR", mkdtempSync(path.join(os.tmpdir(), "krug-community-reports-")));
vi.stubEnv("RATE_LIMIT_REPORT", "50/1h");

const EN = { "accept-language": "en" };
const translator = (locale: "ru" | "en") =>
  createTranslator({ locale, messages: locale === "ru" ? ru : en, namespace: "notifications" }) as unknown as NotificationsTranslate;
const p = (id: number) => ({ id: String(id) });

const community = async (who: Account, type: "OPEN" | "CLOSED" | "PRIVATE", name = `Club ${type} ${who.id}`) => {
  const res = await call(createCommunityRoute, { method: "POST", token: who.accessToken, body: { name, description: "Chess on Saturdays", type }, headers: EN });
  expect(res.status).toBe(201);
  return res.body.id as number;
};
const join = (who: Account, id: number) => call(joinRoute, { method: "POST", token: who.accessToken, params: p(id), headers: EN });
const invite = (who: Account, id: number, accountId: number) =>
  getDb().execute(sql`insert into community_members (community_id, account_id, status, by_id) values (${id}, ${accountId}, 'INVITED', ${who.id})`);
const getCommunity = (who: Account, id: number) => call(communityRoute, { token: who.accessToken, params: p(id), headers: EN });
const search = async (who: Account, query: string) =>
  (await call(listCommunitiesRoute, { token: who.accessToken, path: `/api/v1/communities?query=${encodeURIComponent(query)}`, headers: EN })).body.content.map(
    (c: { id: number }) => c.id,
  );
const feed = async (who: Account) =>
  (await call(newsRoute, { token: who.accessToken, path: "/api/v1/post/newsPosts?withFriends=true&size=50", headers: EN })).body.content.map((x: { id: number }) => x.id);
const block = (who: Account, id: number, reason?: string) =>
  call(blockCommunityRoute, { method: "PUT", token: who.accessToken, params: p(id), body: reason ? { reason } : {}, headers: EN });
const unblock = (who: Account, id: number, reason?: string) =>
  call(unblockCommunityRoute, { method: "PUT", token: who.accessToken, params: p(id), body: reason ? { reason } : {}, headers: EN });
const auditOf = async (who: Account, accountId: number) =>
  (await call(auditRoute, { token: who.accessToken, path: `/api/v1/admin/audit?accountId=${accountId}` })).body.content as {
    action: string;
    targetType: string;
    targetId: number;
    reason: string | null;
    details: Record<string, unknown> | null;
    actor: { id: number } | null;
  }[];

let owner: Account;
let member: Account;
let reader: Account;
let moderator: Account;
let admin: Account;
beforeEach(async () => {
  [owner, member, reader, moderator, admin] = await Promise.all([
    withRole("USER", "Olga"),
    withRole("USER", "Mark"),
    withRole("USER", "Rita"),
    withRole("MODERATOR", "Mod"),
    withRole("ADMIN", "Adm"),
  ]);
});

describe("reporting a community", () => {
  it("takes its card as the snapshot, the owner as the person answerable, and joins one group per community", async () => {
    const id = await community(owner, "OPEN", "Шахматный клуб");
    await getDb().execute(sql`update communities set photo = null, cover = null where id = ${id}`);
    await join(member, id);
    const made = await report(reader, { targetType: "COMMUNITY", targetId: id, category: "FRAUD", comment: "Collects money for fake tournaments" });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ targetType: "COMMUNITY", targetId: id, category: "FRAUD" });
    expect((await report(member, { targetType: "COMMUNITY", targetId: id, category: "SPAM" })).status).toBe(201);
    expect((await report(reader, { targetType: "COMMUNITY", targetId: id, category: "SPAM" })).status).toBe(409);
    // Its owner reports it as themselves: refused.
    expect((await report(owner, { targetType: "COMMUNITY", targetId: id, category: "SPAM" })).status).toBe(403);
    expect(await groupOf("COMMUNITY", id)).toEqual([expect.objectContaining({ count: 2, status: "OPEN" })]);

    const row = await openGroupRow(moderator, "COMMUNITY", id);
    expect(row.snapshot).toEqual({
      kind: "COMMUNITY",
      name: "Шахматный клуб",
      description: "Chess on Saturdays",
      photo: null,
      cover: null,
      type: "OPEN",
      owner: { id: owner.id, firstName: "Olga", lastName: expect.any(String), photo: null },
      membersCount: 2,
      images: [],
    });
    expect(row.author).toMatchObject({ id: owner.id, isBlocked: false });
    expect(row.targetState).toEqual({ isDeleted: false, isBlocked: false });
    expect(row.categories).toEqual([
      { category: "FRAUD", count: 1 },
      { category: "SPAM", count: 1 },
    ]);
  });

  it("a private community is absent to a non-member, exactly as a missing one; its members and invitees report it", async () => {
    const priv = await community(owner, "PRIVATE");
    const closed = await community(owner, "CLOSED");
    const invisible = await report(reader, { targetType: "COMMUNITY", targetId: priv, category: "SPAM" });
    const missing = await report(reader, { targetType: "COMMUNITY", targetId: 999_999_999, category: "SPAM" });
    expect(invisible.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(invisible.body.error).toEqual(missing.body.error);
    expect(await groupOf("COMMUNITY", priv)).toEqual([]);
    // A closed one's card is there for everyone signed in, so it is reportable by anyone.
    expect((await report(reader, { targetType: "COMMUNITY", targetId: closed, category: "SPAM" })).status).toBe(201);
    // A member and an invited person see the private one.
    await invite(owner, priv, member.id);
    expect((await report(member, { targetType: "COMMUNITY", targetId: priv, category: "ADULT" })).status).toBe(201);
    // Deleted by its owner: gone for reporters too.
    const gone = await community(owner, "OPEN");
    await getDb().execute(sql`update communities set is_deleted = true, deleted_at = now() where id = ${gone}`);
    expect((await report(reader, { targetType: "COMMUNITY", targetId: gone, category: "SPAM" })).status).toBe(404);
    // Blocked by the staff: gone too.
    const blocked = await community(owner, "OPEN");
    expect((await block(moderator, blocked, "Fraud")).status).toBe(200);
    const refused = await report(reader, { targetType: "COMMUNITY", targetId: blocked, category: "SPAM" });
    expect(refused.status).toBe(404);
    expect(refused.body.error).toEqual(missing.body.error);
  });
});

describe("the staff's block of a community", () => {
  it("BLOCK_CONTENT blocks it, audited and announced; it vanishes from its page, search, its posts and the feed; the admin's unblock brings it back", async () => {
    const name = `Zugzwang ${owner.id}`;
    const id = await community(owner, "OPEN", name);
    await join(member, id);
    const made = await call(createPostRoute, { method: "POST", token: owner.accessToken, body: { title: "Tournament", postText: "<p>Saturday tournament at six</p>", communityId: id }, headers: EN });
    expect(made.body.error).toBeUndefined();
    const postId = made.body.id as number;
    // Before: everyone sees it.
    expect((await getCommunity(reader, id)).status).toBe(200);
    expect(await search(reader, name)).toEqual([id]);
    expect((await call(getPostRoute, { token: reader.accessToken, params: p(postId), headers: EN })).status).toBe(200);
    expect(await feed(member)).toEqual([postId]);

    await report(reader, { targetType: "COMMUNITY", targetId: id, category: "FRAUD" });
    const group = (await groupOf("COMMUNITY", id))[0].id;
    const resolved = await resolve(moderator, group, { action: "BLOCK_CONTENT", reason: "Collects money for fake tournaments" });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ status: "RESOLVED", targetState: { isDeleted: false, isBlocked: true }, resolution: { action: "BLOCK_CONTENT" } });
    const [blockedRow] = await getDb().execute<{ is_blocked: boolean }>(sql`select is_blocked from communities where id = ${id}`);
    expect(blockedRow.is_blocked).toBe(true);
    // The reporter is told, the community named.
    const [notice] = await notificationsOf(reader);
    expect(notice).toMatchObject({ content: "BLOCK_CONTENT", data: { details: { targetType: "COMMUNITY", excerpt: name } } });
    // The owner is told which community and why; the notice names it and is not "deleted", and leads to their communities.
    const [ownerNotice] = await notificationsOf(owner, "CONTENT_BLOCKED");
    expect(ownerNotice).toMatchObject({ content: name, data: { communityId: id, details: { targetType: "COMMUNITY", excerpt: name, reason: "Collects money for fake tournaments" } } });
    expect(ownerNotice.data.gone ?? null).toBeNull();
    expect(notificationText(translator("ru"), ownerNotice).sentence).toBe(`Модератор заблокировал ваше сообщество «${name}». Причина: Collects money for fake tournaments`);
    expect(notificationText(translator("en"), ownerNotice).sentence).toBe(`A moderator blocked your community “${name}”. Reason: Collects money for fake tournaments`);
    expect(notificationHref(ownerNotice)).toBe("/communities");
    // Its members hear nothing of it.
    expect(await notificationsOf(member, "CONTENT_BLOCKED")).toEqual([]);
    // In the audit log with the reason, the owner as the target account.
    const [entry] = await auditOf(admin, owner.id);
    expect(entry).toMatchObject({ action: "COMMUNITY_BLOCKED", targetType: "COMMUNITY", targetId: id, reason: "Collects money for fake tournaments", actor: { id: moderator.id }, details: { reportGroupId: group } });

    // Gone everywhere, for its owner and members too, as absent as a missing community.
    const missing = await getCommunity(reader, 999_999_999);
    for (const who of [reader, member, owner]) {
      const res = await getCommunity(who, id);
      expect(res.status).toBe(404);
      expect(res.body.error).toEqual(missing.body.error);
      expect((await call(getPostRoute, { token: who.accessToken, params: p(postId), headers: EN })).status).toBe(404);
    }
    expect(await search(reader, name)).toEqual([]);
    expect(await search(member, name)).toEqual([]);
    expect(await feed(member)).toEqual([]);
    expect((await join(reader, id)).status).toBe(404);
    // Blocking again changes and records nothing.
    expect((await block(admin, id, "Again")).status).toBe(200);
    expect((await auditOf(admin, owner.id)).filter((e) => e.action === "COMMUNITY_BLOCKED")).toHaveLength(1);
    expect(await notificationsOf(owner, "CONTENT_BLOCKED")).toHaveLength(1);

    // The admin unblocks it: back as it was, with its member and post.
    const back = await unblock(admin, id, "The tournaments are real");
    expect(back.status).toBe(200);
    expect(back.body).toEqual({ id, isBlocked: false });
    const [unblockEntry] = await auditOf(admin, owner.id);
    expect(unblockEntry).toMatchObject({ action: "COMMUNITY_UNBLOCKED", targetType: "COMMUNITY", targetId: id, reason: "The tournaments are real", actor: { id: admin.id } });
    expect((await getCommunity(member, id)).body).toMatchObject({ id, membership: "MEMBER", membersCount: 2 });
    expect(await search(reader, name)).toEqual([id]);
    expect((await call(getPostRoute, { token: reader.accessToken, params: p(postId), headers: EN })).status).toBe(200);
    expect(await feed(member)).toEqual([postId]);
    // The queue row, resolved, says it is no longer blocked.
    const resolvedRows = (await queue(moderator, "status=RESOLVED&size=100")).body.content.filter((g: { id: number }) => g.id === group);
    expect(resolvedRows[0].targetState).toEqual({ isDeleted: false, isBlocked: false });
  });

  it("only staff block and unblock; a missing or deleted community is a 404; DISMISS and BLOCK_AUTHOR (the owner) work as for a post", async () => {
    const id = await community(owner, "OPEN");
    expect((await block(reader, id, "No")).status).toBe(403);
    expect((await unblock(owner, id, "No")).status).toBe(403);
    expect((await call(blockCommunityRoute, { method: "PUT", params: p(id), body: {} })).status).toBe(401);
    expect((await block(moderator, 999_999_999, "x")).status).toBe(404);
    expect((await block(moderator, id, "x".repeat(5000))).status).toBe(422);
    const deleted = await community(owner, "OPEN");
    await getDb().execute(sql`update communities set is_deleted = true, deleted_at = now() where id = ${deleted}`);
    expect((await block(moderator, deleted, "x")).status).toBe(404);

    await report(reader, { targetType: "COMMUNITY", targetId: id, category: "SPAM" });
    const first = (await groupOf("COMMUNITY", id))[0].id;
    expect((await resolve(moderator, first, { action: "DISMISS", reason: "Not spam" })).status).toBe(200);
    expect((await getCommunity(reader, id)).status).toBe(200);
    expect((await auditOf(admin, owner.id))[0]).toMatchObject({ action: "REPORT_DISMISSED", targetType: "COMMUNITY", targetId: id });

    await report(member, { targetType: "COMMUNITY", targetId: id, category: "INSULT" });
    const second = (await groupOf("COMMUNITY", id)).find((g) => g.status === "OPEN")!.id;
    const row = await openGroupRow(moderator, "COMMUNITY", id);
    expect(row.history).toEqual({ earlierReports: 1, blocks: 0 });
    const owned = await resolve(moderator, second, { action: "BLOCK_AUTHOR", reason: "Insults", days: 7 });
    expect(owned.status).toBe(200);
    expect(owned.body.author).toMatchObject({ id: owner.id, isBlocked: true });
    // The owner is blocked; the community itself is not.
    const [c] = await getDb().execute<{ is_blocked: boolean }>(sql`select is_blocked from communities where id = ${id}`);
    expect(c.is_blocked).toBe(false);
  });

  it("a moderator who owns the community never sees its group, nor resolves it", async () => {
    const staffOwner = await withRole("MODERATOR", "Stas");
    const id = await community(staffOwner, "OPEN");
    await report(reader, { targetType: "COMMUNITY", targetId: id, category: "SPAM" });
    const group = (await groupOf("COMMUNITY", id))[0].id;
    expect(await openGroupRow(staffOwner, "COMMUNITY", id)).toBeUndefined();
    expect((await resolve(staffOwner, group, { action: "BLOCK_CONTENT", reason: "Mine" })).status).toBe(403);
    expect(await openGroupRow(moderator, "COMMUNITY", id)).toBeDefined();
  });
});

describe("statistics", () => {
  it("count new communities per day and month, and the live ones in all", async () => {
    const [a, b, c] = [await community(owner, "OPEN"), await community(owner, "CLOSED"), await community(owner, "PRIVATE")];
    const db = getDb();
    // Placed in 2004, a range no other test of this database writes to.
    await db.execute(sql`update communities set created_at = '2004-05-02T10:00:00Z' where id in (${a}, ${b})`);
    await db.execute(sql`update communities set created_at = '2004-05-04T23:59:00Z' where id = ${c}`);
    // A deleted and a blocked one were activity all the same, but are not live.
    await db.execute(sql`update communities set is_deleted = true, deleted_at = now() where id = ${b}`);
    expect((await block(moderator, c, "Fraud")).status).toBe(200);
    const [{ live }] = await db.execute<{ live: number }>(sql`select count(*)::int as live from communities where not is_deleted and not is_blocked`);

    const res = await call(statisticsRoute, { token: moderator.accessToken, path: "/api/v1/admin/statistics?from=2004-05-01&to=2004-05-04&interval=day" });
    expect(res.status).toBe(200);
    expect(res.body.series.map((s: { date: string; communities: number }) => [s.date, s.communities])).toEqual([
      ["2004-05-01", 0],
      ["2004-05-02", 2],
      ["2004-05-03", 0],
      ["2004-05-04", 1],
    ]);
    expect(res.body.period.communities).toBe(3);
    expect(res.body.previousPeriod.communities).toBe(0);
    expect(res.body.totals.communities).toBe(live);
    const months = await call(statisticsRoute, { token: moderator.accessToken, path: "/api/v1/admin/statistics?from=2004-04-01&to=2004-05-31&interval=month" });
    expect(months.body.series.map((s: { date: string; communities: number }) => [s.date, s.communities])).toEqual([
      ["2004-04", 0],
      ["2004-05", 3],
    ]);
    // Unblocked, it is live again.
    await unblock(admin, c, "Cleared");
    const after = await call(statisticsRoute, { token: moderator.accessToken, path: "/api/v1/admin/statistics?from=2004-05-01&to=2004-05-04&interval=day" });
    expect(after.body.totals.communities).toBe(live + 1);
  });
});
