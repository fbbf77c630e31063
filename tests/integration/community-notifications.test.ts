// Issue 42: the four notifications of communities — COMMUNITY_REQUEST (someone asked to join a closed one: its
// owner and admins, grouped per community), COMMUNITY_ACCEPTED (an admin accepted my request), COMMUNITY_INVITATION
// (a member invited me), COMMUNITY_POST (a new post where I switched "notify me of new posts" on) — who is told,
// each one's switch, blocks either way, and that nobody outside a community hears of its posts.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { createTranslator } from "next-intl";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { POST as inviteRoute } from "@/app/api/v1/communities/[id]/invitations/route";
import { DELETE as removeRoute, PUT as updateMemberRoute } from "@/app/api/v1/communities/[id]/members/[accountId]/route";
import { POST as joinRoute } from "@/app/api/v1/communities/[id]/members/route";
import { PUT as notificationsRoute } from "@/app/api/v1/communities/[id]/notifications/route";
import { DELETE as deleteCommunityRoute } from "@/app/api/v1/communities/[id]/route";
import { POST as createCommunityRoute } from "@/app/api/v1/communities/route";
import { GET as pageRoute } from "@/app/api/v1/notifications/page/route";
import { GET as settingsRoute } from "@/app/api/v1/notifications/settings/route";
import { POST as createPostRoute } from "@/app/api/v1/post/route";
import { getDb } from "@/db/client";
import { notificationHref, notificationText, type NotificationsTranslate } from "@/lib/notification-text";
import { notify } from "@/lib/server/services/notifications/produce";
import { blockAccount } from "@/lib/server/services/friends/actions";
import { COMMUNITY_POST_FANOUT_MAX, notifyCommunityInvitation } from "@/lib/server/services/notifications/producers";
import { publishDuePosts } from "@/lib/server/services/notifications/scheduled-posts";
import { setNotificationSetting } from "@/lib/server/services/notifications/settings";
import { pushMessage } from "@/lib/server/services/push/deliver";
import type { NotificationDto, NotificationType } from "@/lib/validation/notifications";
import en from "@/messages/en.json";
import ru from "@/messages/ru.json";
import { eventsAfter, lastEventId, makeFriends, setAccount, setPair } from "./friends-support";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";

vi.stubEnv("DATA_DIR", mkdtempSync(path.join(os.tmpdir(), "krug-community-notifications-")));

type Account = Awaited<ReturnType<typeof signedInAccount>>;
const EN = { "accept-language": "en" };
const p = (id: number) => ({ id: String(id) });
const pm = (id: number, accountId: number) => ({ id: String(id), accountId: String(accountId) });

const create = async (who: Account, name: string, type: "OPEN" | "CLOSED" | "PRIVATE") => {
  const res = await call(createCommunityRoute, { method: "POST", token: who.accessToken, body: { name, type }, headers: EN });
  expect(res.status).toBe(201);
  return res.body.id as number;
};
const join = (who: Account, id: number) => call(joinRoute, { method: "POST", token: who.accessToken, params: p(id), headers: EN });
const setMember = (who: Account, id: number, accountId: number, body: unknown) =>
  call(updateMemberRoute, { method: "PUT", token: who.accessToken, params: pm(id, accountId), body, headers: EN });
const remove = (who: Account, id: number, accountId: number) => call(removeRoute, { method: "DELETE", token: who.accessToken, params: pm(id, accountId), headers: EN });
const invite = (who: Account, id: number, accountId: number) => call(inviteRoute, { method: "POST", token: who.accessToken, params: p(id), body: { accountId }, headers: EN });
const notifyPosts = (who: Account, id: number, body: unknown) => call(notificationsRoute, { method: "PUT", token: who.accessToken, params: p(id), body, headers: EN });
const post = (who: Account, body: Record<string, unknown>) =>
  call(createPostRoute, { method: "POST", token: who.accessToken, body: { title: "Турнир в субботу", postText: "<p>Secret: the door code is 4711</p>", ...body }, headers: EN });

const mine = async (who: Account): Promise<NotificationDto[]> =>
  (await call(pageRoute, { path: "/api/v1/notifications/page?size=100", token: who.accessToken })).body.content;
const ofType = async (who: Account, type: NotificationType) => (await mine(who)).filter((n) => n.notificationType === type);
const switchOff = (who: Account, notificationType: NotificationType) =>
  setNotificationSetting({ ctx: who.ctx, input: { notificationType, enable: false } });
const stored = async (type: NotificationType, communityId: number) =>
  (
    await getDb().execute<{ receiver_id: string }>(sql`
      select receiver_id from notifications where notification_type = ${type} and community_id = ${communityId} order by receiver_id`)
  ).map((r) => Number(r.receiver_id));
const translator = (locale: "ru" | "en") =>
  createTranslator({ locale, messages: locale === "ru" ? ru : en, namespace: "notifications" }) as unknown as NotificationsTranslate;

/** A member of `id` (an open community: joins; a closed one: asks and the owner accepts). */
async function member(owner: Account, id: number, who: Account) {
  const res = await join(who, id);
  expect(res.status).toBe(200);
  if (res.body.membership === "REQUESTED") expect((await setMember(owner, id, who.id, { status: "MEMBER" })).status).toBe(200);
}

let owner: Account;
let admin: Account;
let plain: Account;
let asker: Account;
beforeEach(async () => {
  [owner, admin, plain, asker] = await Promise.all([
    signedInAccount({ firstName: "Olga", lastName: "Owner" }),
    signedInAccount({ firstName: "Adam", lastName: "Admin" }),
    signedInAccount({ firstName: "Mark", lastName: "Member" }),
    signedInAccount({ firstName: "Anna", lastName: "Asker" }),
  ]);
});

describe("COMMUNITY_REQUEST", () => {
  it("a request to join a closed community reaches its owner and admins (an entry each, grouped per community), not its members", async () => {
    const id = await create(owner, "Шахматы", "CLOSED");
    await member(owner, id, admin);
    expect((await setMember(owner, id, admin.id, { role: "ADMIN" })).status).toBe(200);
    await member(owner, id, plain);
    // (Their own requests were news to the owner and the admin; read now, so the next request starts an entry of its own.)
    await getDb().execute(sql`update notifications set is_read = true where receiver_id in (${owner.id}, ${admin.id})`);
    const before = await lastEventId();
    expect((await join(asker, id)).body.membership).toBe("REQUESTED");

    for (const who of [owner, admin]) {
      const [n] = (await ofType(who, "COMMUNITY_REQUEST")).filter((x) => !x.isRead);
      expect(n).toMatchObject({
        notificationType: "COMMUNITY_REQUEST",
        isRead: false,
        data: { authorId: asker.id, receiverId: who.id, communityId: id, community: { id, name: "Шахматы", photo: null }, postId: null, dialogId: null, count: 1 },
      });
      expect(n.data.gone ?? null).toBeNull();
      expect(notificationHref(n)).toBe(`/community/${id}`);
    }
    expect(await ofType(plain, "COMMUNITY_REQUEST")).toEqual([]);
    const live = (await eventsAfter(before, true)).filter((e) => e.type === "NOTIFICATION");
    expect(live.flatMap((e) => e.recipients).sort()).toEqual([owner.id, admin.id].sort());

    // A second person asking while it is unread: one entry of two people, "… и ещё 1 хотят вступить".
    const second = await signedInAccount({ firstName: "Boris", lastName: "Second" });
    await join(second, id);
    const grouped = await ofType(owner, "COMMUNITY_REQUEST");
    const entry = grouped.find((x) => x.data.communityId === id && x.data.count === 2)!;
    expect(entry.data.authors.map((a) => a.id)).toEqual([second.id, asker.id]);
    expect(notificationText(translator("ru"), entry)).toEqual({ name: "Boris Second и ещё 1", sentence: "Хотят вступить в сообщество «Шахматы»" });
    // Another community's requests are an entry of their own.
    const other = await create(owner, "Го", "CLOSED");
    await join(asker, other);
    expect((await ofType(owner, "COMMUNITY_REQUEST")).filter((x) => x.data.communityId === other)).toHaveLength(1);
  });

  it("says who asked where in both languages; Web Push collapses one community's requests under one tag", async () => {
    const id = await create(owner, "Шахматы", "CLOSED");
    await join(asker, id);
    const [n] = await ofType(owner, "COMMUNITY_REQUEST");
    expect(notificationText(translator("ru"), n)).toEqual({ name: "Anna Asker", sentence: "Хочет вступить в сообщество «Шахматы»" });
    expect(notificationText(translator("en"), n)).toEqual({ name: "Anna Asker", sentence: "Asked to join the community “Шахматы”" });
    expect(pushMessage(n, "ru").payload).toMatchObject({ title: "Anna Asker", body: "Хочет вступить в сообщество «Шахматы»", url: `/community/${id}`, tag: `COMMUNITY_REQUEST-${id}` });
    expect(ru.settings.notificationType.COMMUNITY_REQUEST).toBeTruthy();
    expect(en.settings.notificationType.COMMUNITY_REQUEST).toBeTruthy();
  });

  it("nothing for joining an open one; nothing with the switch off; nothing across a block either way", async () => {
    const open = await create(owner, "Открытое", "OPEN");
    await join(asker, open);
    expect(await ofType(owner, "COMMUNITY_REQUEST")).toEqual([]);

    const id = await create(owner, "Закрытое", "CLOSED");
    await member(owner, id, admin);
    await setMember(owner, id, admin.id, { role: "ADMIN" });
    const off = await switchOff(admin, "COMMUNITY_REQUEST");
    expect(off.enableCommunityRequest).toBe(false);
    await join(asker, id);
    expect(await stored("COMMUNITY_REQUEST", id)).toEqual([owner.id]);

    const blocked = await signedInAccount();
    const blocker = await signedInAccount();
    await setPair(owner.id, blocked.id, ["BLOCKED", "REJECTING"]); // the owner blocked them
    await setPair(blocker.id, owner.id, ["BLOCKED", "REJECTING"]); // they blocked the owner
    await join(blocked, id);
    await join(blocker, id);
    const rows = await getDb().execute<{ author_id: string }>(sql`
      select author_id from notifications where notification_type = 'COMMUNITY_REQUEST' and community_id = ${id} and receiver_id = ${owner.id}`);
    expect(rows.map((r) => Number(r.author_id))).toEqual([asker.id]);
  });

  it("an entry of a community deleted since says it is gone", async () => {
    const id = await create(owner, "Временное", "CLOSED");
    await join(asker, id);
    expect((await call(deleteCommunityRoute, { method: "DELETE", token: owner.accessToken, params: p(id), headers: EN })).status).toBe(200);
    const [n] = await ofType(owner, "COMMUNITY_REQUEST");
    expect(n.data.gone).toBe("COMMUNITY");
  });
});

describe("COMMUNITY_ACCEPTED", () => {
  it("an admin accepting a request, or inviting someone who asked, tells that person", async () => {
    const id = await create(owner, "Клуб", "CLOSED");
    await join(asker, id);
    expect((await setMember(owner, id, asker.id, { status: "MEMBER" })).status).toBe(200);
    const [n] = await ofType(asker, "COMMUNITY_ACCEPTED");
    expect(n).toMatchObject({ data: { authorId: owner.id, receiverId: asker.id, communityId: id, community: { id, name: "Клуб" } } });
    expect(notificationHref(n)).toBe(`/community/${id}`);
    expect(notificationText(translator("ru"), n).sentence).toBe("Ваша заявка в сообщество «Клуб» принята");
    expect(notificationText(translator("en"), n).sentence).toBe("Accepted your request to join the community “Клуб”");

    // The admin's invitation of someone who asked accepts them: the same notice, no invitation.
    await makeFriends(owner.id, plain.id);
    await join(plain, id);
    expect((await invite(owner, id, plain.id)).status).toBe(201);
    expect((await ofType(plain, "COMMUNITY_ACCEPTED")).map((x) => x.data.communityId)).toEqual([id]);
    expect(await ofType(plain, "COMMUNITY_INVITATION")).toEqual([]);
  });

  it("nothing with the switch off, nor across a block", async () => {
    const id = await create(owner, "Клуб", "CLOSED");
    await switchOff(asker, "COMMUNITY_ACCEPTED");
    await join(asker, id);
    await setMember(owner, id, asker.id, { status: "MEMBER" });
    await join(plain, id);
    await setPair(plain.id, owner.id, ["BLOCKED", "REJECTING"]); // the asker blocked the owner since
    expect((await setMember(owner, id, plain.id, { status: "MEMBER" })).status).toBe(200);
    expect(await stored("COMMUNITY_ACCEPTED", id)).toEqual([]);
  });
});

describe("COMMUNITY_INVITATION", () => {
  it("a member's invitation tells the friend invited, naming the inviter and the community; leads to where they accept", async () => {
    const id = await create(owner, "Хор", "OPEN");
    await member(owner, id, plain);
    await makeFriends(plain.id, asker.id);
    expect((await invite(plain, id, asker.id)).status).toBe(201);
    const [n] = await ofType(asker, "COMMUNITY_INVITATION");
    expect(n).toMatchObject({ data: { authorId: plain.id, author: { firstName: "Mark", lastName: "Member" }, communityId: id, community: { name: "Хор" } } });
    expect(notificationHref(n)).toBe(`/community/${id}`);
    expect(notificationText(translator("ru"), n)).toEqual({ name: "Mark Member", sentence: "Приглашает вас в сообщество «Хор»" });
    expect(notificationText(translator("en"), n)).toEqual({ name: "Mark Member", sentence: "Invites you to the community “Хор”" });
  });

  it("nothing with the switch off; nothing across a block (the producer's own check), nor to a deleted account", async () => {
    const id = await create(owner, "Хор", "OPEN");
    await makeFriends(owner.id, asker.id);
    await switchOff(asker, "COMMUNITY_INVITATION");
    expect((await invite(owner, id, asker.id)).status).toBe(201);
    expect(await stored("COMMUNITY_INVITATION", id)).toEqual([]);

    const gone = await signedInAccount();
    await setAccount(gone.id, { isDeleted: true });
    await setPair(owner.id, plain.id, ["BLOCKED", "REJECTING"]);
    await setPair(admin.id, owner.id, ["BLOCKED", "REJECTING"]);
    await getDb().transaction(async (tx) => {
      for (const who of [plain, admin, gone]) await notifyCommunityInvitation(tx, { actorId: owner.id, accountId: who.id, communityId: id });
    });
    expect(await stored("COMMUNITY_INVITATION", id)).toEqual([]);
  });
});

describe("COMMUNITY_POST", () => {
  it("PUT communities/{id}/notifications: a member's switch in the CommunityDto (off by default); others 403, a private one 404", async () => {
    const id = await create(owner, "Новости", "OPEN");
    await member(owner, id, plain);
    expect((await notifyPosts(plain, id, { posts: true })).body).toMatchObject({ id, membership: "MEMBER", notifyPosts: true });
    expect((await notifyPosts(plain, id, { posts: false })).body.notifyPosts).toBe(false);
    const refused = await notifyPosts(asker, id, { posts: true });
    expect(refused.status).toBe(403);
    expect((await notifyPosts(plain, id, { posts: "yes" })).status).toBe(422);
    const priv = await create(owner, "Тайное", "PRIVATE");
    expect((await notifyPosts(asker, priv, { posts: true })).status).toBe(404);
    expect((await notifyPosts(owner, priv, { posts: true })).body.notifyPosts).toBe(true);
  });

  it("a post published at once reaches the members who asked for it — not the author, the others, a block, the switch off, the banned or those who left", async () => {
    const id = await create(owner, "Новости", "OPEN");
    const [blockedMember, switchedOff, banned, left, quiet] = await Promise.all([0, 1, 2, 3, 4].map(() => signedInAccount()));
    for (const who of [plain, admin, blockedMember, switchedOff, banned, left, quiet]) await member(owner, id, who);
    for (const who of [owner, plain, admin, blockedMember, switchedOff, banned, left]) expect((await notifyPosts(who, id, { posts: true })).status).toBe(200);
    await setPair(blockedMember.id, admin.id, ["BLOCKED", "REJECTING"]);
    await switchOff(switchedOff, "COMMUNITY_POST");
    expect((await setMember(owner, id, banned.id, { status: "BANNED" })).status).toBe(200);
    expect((await remove(left, id, left.id)).status).toBe(200);

    const before = await lastEventId();
    const made = await post(admin, { communityId: id });
    expect(made.status).toBe(201);
    expect((await stored("COMMUNITY_POST", id)).sort()).toEqual([owner.id, plain.id].sort());
    // One shared live event for the fan-out, to exactly them.
    const live = (await eventsAfter(before, true)).filter((e) => e.type === "NOTIFICATION");
    expect(live.flatMap((e) => e.recipients).sort()).toEqual([owner.id, plain.id].sort());
    const [n] = await ofType(plain, "COMMUNITY_POST");
    expect(n).toMatchObject({ content: "Турнир в субботу", data: { authorId: admin.id, postId: made.body.id, communityId: id, community: { id, name: "Новости" } } });
    expect(notificationHref(n)).toBe(`/post/${made.body.id}`);
    expect(notificationText(translator("ru"), n)).toEqual({ name: "Adam Admin", sentence: "Новая запись в сообществе «Новости»: «Турнир в субботу»" });
    expect(notificationText(translator("en"), n).sentence).toBe("New post in the community “Новости”: “Турнир в субботу”");
    expect(await ofType(asker, "COMMUNITY_POST")).toEqual([]);
  });

  it("nothing while notify_posts is off, for a scheduled post before its time, or for a post off the community's wall", async () => {
    const id = await create(owner, "Новости", "OPEN");
    await member(owner, id, plain);
    await member(owner, id, admin);
    expect((await post(admin, { communityId: id })).status).toBe(201);
    expect(await stored("COMMUNITY_POST", id)).toEqual([]);

    await notifyPosts(plain, id, { posts: true });
    const later = new Date(Date.now() + 3600_000).toISOString();
    expect((await post(admin, { communityId: id, publishDate: later })).body.type).toBe("QUEUED");
    expect((await post(admin, {})).status).toBe(201);
    expect(await stored("COMMUNITY_POST", id)).toEqual([]);
  });

  it("a scheduled post tells the members when its time comes, once; not while the community is deleted", async () => {
    const id = await create(owner, "Расписание", "CLOSED");
    await member(owner, id, plain);
    await notifyPosts(plain, id, { posts: true });
    await makeFriends(owner.id, asker.id);
    const later = new Date(Date.now() + 3600_000);
    const made = await post(owner, { communityId: id, publishDate: later.toISOString(), title: "Сбор в восемь" });
    expect(made.body.type).toBe("QUEUED");
    const due = new Date(later.getTime() + 1000);
    expect(await publishDuePosts(getDb(), due)).toBeGreaterThanOrEqual(1);
    expect(await publishDuePosts(getDb(), due)).toBe(0);
    const told = await ofType(plain, "COMMUNITY_POST");
    expect(told.map((n) => [n.data.postId, n.data.communityId])).toEqual([[made.body.id, id]]);
    expect(await stored("COMMUNITY_POST", id)).toEqual([plain.id]);
    // The author's friends hear nothing of a community's post, scheduled or not.
    expect(await ofType(asker, "POST")).toEqual([]);

    const other = await create(owner, "Закрывается", "OPEN");
    await member(owner, other, plain);
    await notifyPosts(plain, other, { posts: true });
    const queued = await post(owner, { communityId: other, publishDate: later.toISOString() });
    expect(queued.body.type).toBe("QUEUED");
    expect((await call(deleteCommunityRoute, { method: "DELETE", token: owner.accessToken, params: p(other), headers: EN })).status).toBe(200);
    await publishDuePosts(getDb(), due);
    expect(await stored("COMMUNITY_POST", other)).toEqual([]);
  });

  it("a post signed by the community shows the community, not the admin who wrote it", async () => {
    const id = await create(owner, "Городская афиша", "OPEN");
    await member(owner, id, plain);
    await notifyPosts(plain, id, { posts: true });
    const made = await post(owner, { communityId: id, asCommunity: true });
    expect(made.status).toBe(201);
    const [n] = await ofType(plain, "COMMUNITY_POST");
    expect(n.data.authorId).toBeNull();
    expect(n.data.author).toBeNull();
    expect(notificationText(translator("ru"), n)).toEqual({ name: "Городская афиша", sentence: "Новая запись в сообществе «Городская афиша»: «Турнир в субботу»" });
    // It is still its writer's: when the member blocks the admin who wrote it, it leaves their list (as the
    // post leaves the wall they read), and so it does when the writer blocks the member.
    await blockAccount({ ctx: plain.ctx, input: { id: owner.id } });
    expect(await ofType(plain, "COMMUNITY_POST")).toEqual([]);
    const other = await signedInAccount();
    await member(owner, id, other);
    await notifyPosts(other, id, { posts: true });
    expect((await post(owner, { communityId: id, asCommunity: true })).status).toBe(201);
    expect(await ofType(other, "COMMUNITY_POST")).toHaveLength(1);
    await blockAccount({ ctx: owner.ctx, input: { id: other.id } });
    expect(await ofType(other, "COMMUNITY_POST")).toEqual([]);
  });

  it("a closed or private community's post reaches its members only: every receiver is a MEMBER, and nobody else holds its text", async () => {
    for (const type of ["CLOSED", "PRIVATE"] as const) {
      const id = await create(owner, `Свои ${type}`, type);
      await makeFriends(owner.id, plain.id);
      await makeFriends(owner.id, asker.id);
      if (type === "CLOSED") await member(owner, id, plain);
      else {
        await invite(owner, id, plain.id);
        await join(plain, id);
      }
      // Asked or invited, not a member yet: a row with notify_posts on (set by hand) still hears nothing.
      if (type === "CLOSED") await join(asker, id);
      else await invite(owner, id, asker.id);
      await getDb().execute(sql`update community_members set notify_posts = true where community_id = ${id}`);
      const made = await post(owner, { communityId: id, title: `Только для своих ${type}` });
      expect(made.status).toBe(201);
      const rows = await getDb().execute<{ receiver_id: string; status: string | null; content: string }>(sql`
        select n.receiver_id, m.status, n.content from notifications n
        left join community_members m on m.community_id = n.community_id and m.account_id = n.receiver_id
        where n.notification_type = 'COMMUNITY_POST' and n.post_id = ${made.body.id}`);
      expect(rows.map((r) => Number(r.receiver_id))).toEqual([plain.id]);
      expect(rows.every((r) => r.status === "MEMBER")).toBe(true);
      const [held] = await getDb().execute<{ n: number }>(sql`
        select count(*)::int as n from notifications where content like ${`%Только для своих ${type}%`} and receiver_id <> ${plain.id}`);
      expect(held.n).toBe(0);
      await getDb().execute(sql`delete from notifications where receiver_id = ${plain.id}`);
    }
  });

  it(`the fan-out is one statement capped at its bound (${COMMUNITY_POST_FANOUT_MAX}), the earliest members first`, async () => {
    const id = await create(owner, "Большое", "OPEN");
    const people = [plain, admin, asker];
    for (const who of people) {
      await member(owner, id, who);
      await notifyPosts(who, id, { posts: true });
    }
    const written = await getDb().transaction((tx) =>
      notify(tx, { type: "COMMUNITY_POST", actorId: owner.id, recipients: { communityMembers: id, limit: 2 }, communityId: id, content: "x" }),
    );
    expect(written).toBe(2);
    expect((await stored("COMMUNITY_POST", id)).sort()).toEqual([plain.id, admin.id].sort());
  });
});

describe("the switches", () => {
  it("notifications/settings carries the four, on by default", async () => {
    const res = await call(settingsRoute, { token: asker.accessToken });
    expect(res.body).toMatchObject({ enableCommunityRequest: true, enableCommunityAccepted: true, enableCommunityInvitation: true, enableCommunityPost: true });
    for (const type of ["COMMUNITY_REQUEST", "COMMUNITY_ACCEPTED", "COMMUNITY_INVITATION", "COMMUNITY_POST"] as const) {
      expect(ru.settings.notificationType[type]).toBeTruthy();
      expect(en.settings.notificationType[type]).toBeTruthy();
    }
  });
});
