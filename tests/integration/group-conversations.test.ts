// Group conversations (issue 41, docs/adr/0169): creating, membership and roles, messages with their
// read state and unread counts, the visible window of people who join late or leave, mentions and
// mute, and every refusal in the standard envelope with nothing changed.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { GET as getRoute, PATCH as patchRoute, PUT as markReadRoute } from "@/app/api/v1/dialogs/[id]/route";
import { DELETE as removeRoute, PUT as roleRoute } from "@/app/api/v1/dialogs/[id]/members/[accountId]/route";
import { GET as membersRoute, POST as addRoute } from "@/app/api/v1/dialogs/[id]/members/route";
import { DELETE as deleteMessageRoute, PUT as editRoute } from "@/app/api/v1/dialogs/[id]/messages/[messageId]/route";
import { GET as readersRoute } from "@/app/api/v1/dialogs/[id]/messages/[messageId]/readers/route";
import { POST as sendRoute } from "@/app/api/v1/dialogs/[id]/messages/route";
import { PUT as muteRoute } from "@/app/api/v1/dialogs/[id]/mute/route";
import { GET as messagesRoute } from "@/app/api/v1/dialogs/messages/route";
import { GET as listRoute, POST as createRoute } from "@/app/api/v1/dialogs/route";
import { GET as unreadRoute } from "@/app/api/v1/dialogs/unread/route";
import { POST as storageRoute } from "@/app/api/v1/storage/route";
import { getDb } from "@/db/client";
import { sequenceEvents } from "@/lib/server/events/outbox";
import { anonymiseExpiredAccounts } from "@/lib/server/services/accounts/anonymise";
import { deleteMyAccount } from "@/lib/server/services/accounts/delete-account";
import { typingAudience } from "@/lib/server/services/dialogs/messages";
import { blockAccount } from "@/lib/server/services/friends/actions";
import { updatePrivacySettings } from "@/lib/server/services/privacy/settings";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { png, upload } from "./helpers/upload";
import { eventsAfter, lastEventId, makeFriends } from "./friends-support";

vi.stubEnv("DATA_DIR", mkdtempSync(path.join(os.tmpdir(), "krug-groups-")));
// Per account, and every test has its own accounts: low enough for the limits test to reach.
vi.stubEnv("RATE_LIMIT_GROUP_CREATE", "5/1h");
vi.stubEnv("RATE_LIMIT_GROUP_ADD", "8/1h");

type Account = Awaited<ReturnType<typeof signedInAccount>>;
const EN = { "accept-language": "en" };

const create = (who: Account, body: unknown) => call(createRoute, { method: "POST", token: who.accessToken, body, headers: EN });
const getOne = (who: Account, id: number) => call(getRoute, { token: who.accessToken, params: { id: String(id) }, headers: EN });
const patch = (who: Account, id: number, body: unknown) => call(patchRoute, { method: "PATCH", token: who.accessToken, params: { id: String(id) }, body, headers: EN });
const markRead = (who: Account, id: number) => call(markReadRoute, { method: "PUT", token: who.accessToken, params: { id: String(id) }, headers: EN });
const members = (who: Account, id: number, query = "") =>
  call(membersRoute, { token: who.accessToken, params: { id: String(id) }, path: `/api/v1/dialogs/${id}/members${query}`, headers: EN });
const add = (who: Account, id: number, accountIds: unknown) =>
  call(addRoute, { method: "POST", token: who.accessToken, params: { id: String(id) }, body: { accountIds }, headers: EN });
const remove = (who: Account, id: number, accountId: number) =>
  call(removeRoute, { method: "DELETE", token: who.accessToken, params: { id: String(id), accountId: String(accountId) }, headers: EN });
const setRole = (who: Account, id: number, accountId: number, role: unknown) =>
  call(roleRoute, { method: "PUT", token: who.accessToken, params: { id: String(id), accountId: String(accountId) }, body: { role }, headers: EN });
const send = (who: Account, id: number, body: unknown) => call(sendRoute, { method: "POST", token: who.accessToken, params: { id: String(id) }, body, headers: EN });
const history = (who: Account, id: number) =>
  call(messagesRoute, { token: who.accessToken, path: `/api/v1/dialogs/messages?dialogId=${id}&sort=time,asc&size=100`, headers: EN });
const list = (who: Account) => call(listRoute, { token: who.accessToken, path: "/api/v1/dialogs", headers: EN });
const unread = (who: Account) => call(unreadRoute, { token: who.accessToken, path: "/api/v1/dialogs/unread", headers: EN });
const readers = (who: Account, id: number, messageId: number) =>
  call(readersRoute, { token: who.accessToken, params: { id: String(id), messageId: String(messageId) }, path: `/api/v1/dialogs/${id}/messages/${messageId}/readers`, headers: EN });
const mute = (who: Account, id: number, duration: unknown) => call(muteRoute, { method: "PUT", token: who.accessToken, params: { id: String(id) }, body: { duration }, headers: EN });
const del = (who: Account, id: number, messageId: number, forEveryone: boolean) =>
  call(deleteMessageRoute, {
    method: "DELETE",
    token: who.accessToken,
    params: { id: String(id), messageId: String(messageId) },
    path: `/api/v1/dialogs/${id}/messages/${messageId}?forEveryone=${forEveryone}`,
    headers: EN,
  });
const edit = (who: Account, id: number, messageId: number, messageText: string) =>
  call(editRoute, { method: "PUT", token: who.accessToken, params: { id: String(id), messageId: String(messageId) }, body: { messageText }, headers: EN });

const count = async (q: ReturnType<typeof sql>) => Number((await getDb().execute<{ n: string }>(q))[0].n);
const groupsCount = () => count(sql`select count(*) as n from dialogs where kind = 'GROUP'`);

let owner: Account;
let b: Account;
let c: Account;
let d: Account;
beforeEach(async () => {
  [owner, b, c, d] = await Promise.all([
    signedInAccount({ firstName: "Anna", lastName: "Owner" }),
    signedInAccount({ firstName: "Boris", lastName: "Member" }),
    signedInAccount({ firstName: "Chen", lastName: "Member" }),
    signedInAccount({ firstName: "Dina", lastName: "Later" }),
  ]);
});

async function group(title = "House 5", people: Account[] = [b, c]): Promise<number> {
  const res = await create(owner, { title, memberIds: people.map((p) => p.id) });
  expect(res.status).toBe(201);
  return res.body.id;
}

describe("creating a conversation", () => {
  it("makes a GROUP with its owner, its members, a CREATED line and a GROUP_ADDED notice for each added person", async () => {
    const since = await lastEventId();
    const res = await create(owner, { title: "  House 5  ", memberIds: [b.id, c.id] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: "GROUP", title: "House 5", photo: null, membersCount: 3, role: "OWNER", left: false, canWrite: true, partner: null, conversationPartner2: null });
    expect(res.body.collage.map((m: { id: number }) => m.id).sort()).toEqual([b.id, c.id].sort());
    const id = res.body.id;
    // Everyone sees it with their own role; the creation is the first line of the history.
    expect((await getOne(b, id)).body).toMatchObject({ type: "GROUP", role: "MEMBER", title: "House 5", unreadCount: 1 });
    const h = await history(c, id);
    expect(h.body.content).toHaveLength(1);
    expect(h.body.content[0]).toMatchObject({ messageText: "", recipientId: null, event: { type: "CREATED", actorId: owner.id, title: "House 5" } });
    expect(h.body.content[0].event.people.map((p: { firstName: string }) => p.firstName)).toEqual(["Anna"]);
    const notices = await getDb().execute<{ receiver_id: string; dialog_id: string }>(sql`
      select receiver_id, dialog_id from notifications where notification_type = 'GROUP_ADDED' and dialog_id = ${id} order by receiver_id`);
    expect(notices.map((n) => Number(n.receiver_id))).toEqual([b.id, c.id].sort((x, y) => x - y));
    const line = (await eventsAfter(since)).find((e) => e.type === "MESSAGE");
    expect(line?.recipients.sort()).toEqual([owner.id, b.id, c.id].sort());
    // The list shows it beside personal dialogs, with the event as its preview.
    const l = await list(b);
    expect(l.body.content[0]).toMatchObject({ id, type: "GROUP", title: "House 5", lastMessage: { event: { type: "CREATED" } } });
  });

  it("refuses bad input with 422 and creates nothing", async () => {
    const before = await groupsCount();
    const cases: [unknown, string][] = [
      [{ title: "", memberIds: [b.id] }, "Give the conversation a title"],
      [{ title: "   ", memberIds: [b.id] }, "Give the conversation a title"],
      [{ title: "x".repeat(101), memberIds: [b.id] }, "The title is too long (at most 100 characters)"],
      [{ title: "T", memberIds: [] }, "Choose at least one person"],
      [{ title: "T", memberIds: [b.id, b.id] }, "The same person is listed twice"],
      [{ title: "T", memberIds: Array.from({ length: 500 }, (_, i) => i + 1) }, "A conversation can have at most 500 members"],
      [{ title: "T", memberIds: ["1"] }, "There is no such person"],
      [{ title: "T", memberIds: [99_999_999] }, "There is no such person"],
      [{ title: "T" }, "Give the conversation a title"],
      [{ title: "T", memberIds: [b.id], recipientId: b.id }, "Either a recipient or a title and members"],
    ];
    for (const [body, message] of cases) {
      const res = await create(owner, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.body.error.code).toBe("validation_failed");
      if (message) expect(res.body.error.issues?.[0]?.message ?? res.body.error.message, JSON.stringify(res.body)).toBe(message);
    }
    expect(await groupsCount()).toBe(before);
    // A title is one line: control characters never reach Postgres.
    const clean = await create(owner, { title: "Tea\u0000 time\n", memberIds: [b.id] });
    expect(clean.status).toBe(201);
    expect(clean.body.title).toBe("Tea time");
  });

  it("nobody is added by someone they blocked or who blocked them, nor against their messagesFrom: 403, nothing created", async () => {
    const before = await groupsCount();
    await blockAccount({ ctx: c.ctx, input: { id: owner.id } });
    const blocked = await create(owner, { title: "T", memberIds: [b.id, c.id] });
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.message).toBe("This person cannot be added to the conversation");
    await blockAccount({ ctx: owner.ctx, input: { id: d.id } });
    expect((await create(owner, { title: "T", memberIds: [d.id] })).status).toBe(403);
    await updatePrivacySettings({ ctx: b.ctx, input: { messagesFrom: "FRIENDS" } });
    expect((await create(owner, { title: "T", memberIds: [b.id] })).status).toBe(403);
    expect(await groupsCount()).toBe(before);
    // A friend may add them.
    await makeFriends(owner.id, b.id);
    expect((await create(owner, { title: "T", memberIds: [b.id] })).status).toBe(201);
  });

  it("a personal dialog says type PERSONAL and is made as before", async () => {
    const res = await create(owner, { recipientId: b.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: "PERSONAL", conversationPartner2: b.id, title: null, membersCount: 2, role: null, left: false });
  });
});

describe("messages in a group", () => {
  it("reach every present member once; unread counts for the others; READ once another member read it; the author sees who read it", async () => {
    const id = await group();
    await Promise.all([markRead(b, id), markRead(c, id)]);
    const since = await lastEventId();
    const sent = await send(owner, id, { messageText: "Meeting at 7" });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ dialogId: id, recipientId: null, conversationPartner2: null, readStatus: "SENT", author: { id: owner.id, firstName: "Anna" } });
    const frames = (await eventsAfter(since)).filter((e) => e.type === "MESSAGE");
    expect(frames).toHaveLength(1);
    expect(frames[0].recipients.sort()).toEqual([owner.id, b.id, c.id].sort());
    expect(frames[0].data).toMatchObject({ id: sent.body.id, author: { firstName: "Anna" } });
    // Nothing per member per message (docs/adr/0169): one resume row for the conversation, not one per member.
    await sequenceEvents(getDb());
    const resumeRows = await getDb().execute<{ account_id: string }>(sql`
      select r.account_id from event_recipients r join events e on e.id = r.event_id
      where e.type = 'MESSAGE' and e.payload->>'id' = ${String(sent.body.id)}`);
    expect(resumeRows.map((r) => Number(r.account_id))).toEqual([-id]);
    // The others' member rows were not written: their unread counts are computed.
    expect((await unread(b)).body.count).toBe(1);
    expect((await unread(c)).body.count).toBe(1);
    expect((await unread(owner)).body.count).toBe(0);
    expect((await getOne(b, id)).body.unreadCount).toBe(1);
    const readSince = await lastEventId();
    expect((await markRead(b, id)).body.unreadCount).toBe(0);
    const read = (await eventsAfter(readSince)).find((e) => e.type === "DIALOG_READ");
    expect(read?.data).toMatchObject({ dialogId: id, readerId: b.id, authorId: null, lastReadMessageId: sent.body.id });
    expect(read?.recipients.sort()).toEqual([owner.id, b.id, c.id].sort());
    const h = await history(owner, id);
    expect(h.body.content.at(-1)).toMatchObject({ id: sent.body.id, readStatus: "READ" });
    const who = await readers(owner, id, sent.body.id);
    expect(who.status).toBe(200);
    expect(who.body.content.map((r: { id: number }) => r.id)).toEqual([b.id]);
    expect(who.body.totalElements).toBe(1);
    // Only the author asks.
    expect((await readers(c, id, sent.body.id)).status).toBe(403);
    // A reply in the group quotes it; the sender has then read everything, their own message SENT until someone reads.
    const reply = await send(c, id, { messageText: "ok", replyTo: sent.body.id });
    expect(reply.body).toMatchObject({ replyTo: { id: sent.body.id, messageText: "Meeting at 7" }, readStatus: "SENT" });
    expect((await unread(c)).body.count).toBe(0);
  });

  it("a message that is not a member's: 404 for a stranger everywhere, nothing stored", async () => {
    const id = await group();
    const before = await count(sql`select count(*) as n from messages where dialog_id = ${id}`);
    expect((await send(d, id, { messageText: "hi" })).status).toBe(404);
    expect((await getOne(d, id)).status).toBe(404);
    expect((await members(d, id)).status).toBe(404);
    expect((await history(d, id)).status).toBe(404);
    expect((await patch(d, id, { title: "Mine" })).status).toBe(404);
    expect((await add(d, id, [d.id])).status).toBe(404);
    expect((await mute(d, id, "HOUR")).status).toBe(404);
    expect(await count(sql`select count(*) as n from messages where dialog_id = ${id}`)).toBe(before);
  });

  it("edits by the author; deletion for everyone by the author, or by the owner and admins at any time; a member cannot delete another's", async () => {
    const id = await group();
    const m = (await send(b, id, { messageText: "draft" })).body;
    expect((await edit(b, id, m.id, "final")).body).toMatchObject({ messageText: "final", editedAt: expect.any(String) });
    expect((await edit(owner, id, m.id, "owner's words")).status).toBe(403);
    expect((await del(c, id, m.id, true)).status).toBe(403);
    // c had not read it: deleting it takes it off c's unread count.
    expect((await unread(c)).body.count).toBe(2);
    const gone = await del(owner, id, m.id, true);
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ deleted: true, messageText: "" });
    expect((await unread(c)).body.count).toBe(1);
    // The event lines are nobody's to change.
    const created = (await history(owner, id)).body.content[0];
    expect((await edit(owner, id, created.id, "x")).status).toBe(403);
    // Deleting for oneself an unread message lowers one's own count only.
    const n = (await send(b, id, { messageText: "second" })).body;
    expect((await unread(c)).body.count).toBe(2);
    expect((await del(c, id, n.id, false)).status).toBe(200);
    expect((await unread(c)).body.count).toBe(1);
    expect((await unread(owner)).body.count).toBe(1);
  });
});

describe("membership and roles", () => {
  it("someone added later sees the history from their ADDED line; someone removed keeps it up to then and gets nothing after", async () => {
    const id = await group();
    await send(owner, id, { messageText: "before Dina" });
    const added = await add(b, id, [d.id]);
    expect(added.status).toBe(200);
    expect(added.body.membersCount).toBe(4);
    expect((await add(owner, id, [d.id])).status).toBe(409);
    const dh = await history(d, id);
    expect(dh.body.content.map((m: { event: { type: string } | null }) => m.event?.type ?? "text")).toEqual(["ADDED"]);
    expect(dh.body.totalElements).toBe(1);
    expect((await getOne(d, id)).body).toMatchObject({ role: "MEMBER", unreadCount: 1 });
    // The owner removes Chen: Chen sees the line of it and nothing after; cannot send; no frame reaches Chen.
    const since = await lastEventId();
    const removed = await remove(owner, id, c.id);
    expect(removed.status).toBe(200);
    expect(removed.body.membersCount).toBe(3);
    const changed = (await eventsAfter(since)).filter((e) => e.type === "DIALOG_CHANGED");
    expect(changed.some((e) => e.recipients.includes(c.id))).toBe(true);
    const after = await lastEventId();
    await send(owner, id, { messageText: "after Chen" });
    expect((await eventsAfter(after)).every((e) => !e.recipients.includes(c.id))).toBe(true);
    const ch = (await history(c, id)).body;
    expect(ch.content.at(-1)).toMatchObject({ event: { type: "REMOVED", targetIds: [c.id] } });
    expect(ch.content.some((m: { messageText: string; event: { type: string } | null }) => m.messageText === "after Chen" || m.event?.type === "RENAMED")).toBe(false);
    expect(ch.totalElements).toBe(ch.content.length);
    // A rename after Chen left is not Chen's to see: the title, photo and collage stay as they were.
    await patch(owner, id, { title: "Without Chen" });
    const cd = (await getOne(c, id)).body;
    expect(cd).toMatchObject({ title: "House 5", collage: [] });
    expect((await getOne(b, id)).body.title).toBe("Without Chen");
    expect(cd).toMatchObject({ left: true, role: null, canWrite: false, unreadCount: 0, lastMessage: { event: { type: "REMOVED" } } });
    const refused = await send(c, id, { messageText: "still here?" });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe("You are no longer in this conversation");
    expect((await members(c, id)).status).toBe(404);
    expect(await typingAudience(getDb(), c.id, id)).toBeNull();
    expect((await typingAudience(getDb(), owner.id, id))?.members.sort()).toEqual([b.id, d.id].sort());
  });

  it("only the owner and admins remove; an admin removes members but not the owner or admins; the owner sets roles", async () => {
    const id = await group("Team", [b, c, d]);
    expect((await remove(b, id, c.id)).status).toBe(403);
    expect((await setRole(b, id, c.id, "ADMIN")).status).toBe(403);
    const made = await setRole(owner, id, b.id, "ADMIN");
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ id: b.id, role: "ADMIN" });
    expect((await setRole(owner, id, b.id, "KING")).status).toBe(422);
    expect((await remove(b, id, owner.id)).status).toBe(403);
    await setRole(owner, id, c.id, "ADMIN");
    expect((await remove(b, id, c.id)).status).toBe(403);
    expect((await remove(b, id, d.id)).status).toBe(200);
    expect((await remove(b, id, d.id)).status).toBe(404);
    const page = (await members(owner, id)).body;
    expect(page.content.map((m: { id: number; role: string }) => [m.id, m.role])).toEqual([
      [owner.id, "OWNER"],
      ...[b.id, c.id].map((x) => [x, "ADMIN"]),
    ]);
    expect(page.totalElements).toBe(3);
  });

  it("an owner who leaves hands ownership on; renaming and the photo are the owner's and admins'", async () => {
    const id = await group("Old name", [b, c]);
    await setRole(owner, id, c.id, "ADMIN");
    expect((await patch(b, id, { title: "Mine" })).status).toBe(403);
    const renamed = await patch(c, id, { title: "New name" });
    expect(renamed.status).toBe(200);
    expect(renamed.body.title).toBe("New name");
    expect((await patch(c, id, {})).status).toBe(422);
    expect((await patch(c, id, { title: "" })).status).toBe(422);
    // A photo must be one's own upload.
    const up = await upload(storageRoute, { token: c.accessToken, bytes: await png(30, 30), contentType: "image/png" });
    expect((await patch(b, id, { photo: up.body.data })).status).toBe(403);
    await setRole(owner, id, b.id, "ADMIN");
    expect((await patch(b, id, { photo: up.body.data })).status).toBe(422);
    expect((await patch(c, id, { photo: up.body.data })).body.photo).toBe(up.body.data);
    const left = await remove(owner, id, owner.id);
    expect(left.body).toMatchObject({ left: true, role: null });
    const lines = (await history(b, id)).body.content.map((m: { event: { type: string; title: string | null } | null }) => m.event && [m.event.type, m.event.title]);
    expect(lines.filter(Boolean)).toEqual([
      ["CREATED", "Old name"],
      ["ROLE", "ADMIN"],
      ["RENAMED", "New name"],
      ["ROLE", "ADMIN"],
      ["PHOTO", ""],
      ["ROLE", "OWNER"],
      ["LEFT", null],
    ]);
    // The longest-standing admin (c became one first... both admins; the earlier joined by id order) is the owner now.
    const roles = (await members(b, id)).body.content.map((m: { role: string }) => m.role);
    expect(roles[0]).toBe("OWNER");
    expect(roles.filter((r: string) => r === "OWNER")).toHaveLength(1);
  });

  it("at most 500 members: past it 422; someone refused leaves the group unchanged", async () => {
    const id = await group();
    await getDb().execute(sql`update dialogs set members_count = 499 where id = ${id}`);
    const res = await add(owner, id, [d.id, (await signedInAccount()).id]);
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe("A conversation can have at most 500 members");
    expect(await count(sql`select count(*) as n from dialog_members where dialog_id = ${id}`)).toBe(3);
    await blockAccount({ ctx: d.ctx, input: { id: owner.id } });
    await getDb().execute(sql`update dialogs set members_count = 3 where id = ${id}`);
    expect((await add(owner, id, [d.id])).status).toBe(403);
    expect((await add(owner, id, [])).status).toBe(422);
    expect((await add(owner, id, ["x"])).status).toBe(422);
    expect(await count(sql`select count(*) as n from dialog_members where dialog_id = ${id}`)).toBe(3);
  });
});

describe("accounts deleted and erased", () => {
  it("a deleted member cannot send (as in a personal dialog); once erased they leave, and an owner's ownership passes on", async () => {
    const id = await group("Erase", [b, c]);
    await setRole(owner, id, c.id, "ADMIN");
    await deleteMyAccount({ ctx: owner.ctx });
    const refused = await send(owner, id, { messageText: "from beyond" });
    expect(refused.status).toBe(403);
    expect((await members(b, id)).body.content.find((m: { id: number }) => m.id === owner.id)).toMatchObject({ role: "OWNER", isDeleted: true });
    await getDb().execute(sql`update accounts set deletion_timestamp = now() - interval '400 days' where id = ${owner.id}`);
    expect(await anonymiseExpiredAccounts(getDb())).toBeGreaterThanOrEqual(1);
    const page = (await members(b, id)).body;
    expect(page.content.map((m: { id: number; role: string }) => [m.id, m.role])).toEqual([
      [c.id, "OWNER"],
      [b.id, "MEMBER"],
    ]);
    expect((await getOne(b, id)).body.membersCount).toBe(2);
    const lines = (await history(b, id)).body.content.slice(-2).map((m: { event: { type: string } }) => m.event.type);
    expect(lines).toEqual(["ROLE", "LEFT"]);
  });
});

describe("mentions and mute", () => {
  it("a mention notifies even in a muted group; a mention across a block notifies nobody; muting answers its end", async () => {
    const id = await group();
    const muted = await mute(b, id, "HOUR");
    expect(muted.status).toBe(200);
    expect(Date.parse(muted.body.mutedUntil) - Date.now()).toBeGreaterThan(59 * 60_000);
    expect((await mute(b, id, "FOREVER")).body.mutedUntil).toBe("9999-12-31T00:00:00.000Z");
    expect((await mute(b, id, "SOON")).status).toBe(422);
    const m = await send(owner, id, { messageText: "@Boris look", mentions: [b.id, d.id] });
    expect(m.body.mentions).toEqual([b.id]);
    const forB = await getDb().execute<{ content: string }>(sql`
      select content from notifications where receiver_id = ${b.id} and notification_type = 'MESSAGE' and dialog_id = ${id}`);
    expect(forB.map((n) => n.content)).toEqual(["@Boris look"]);
    expect(await count(sql`select count(*) as n from notifications where receiver_id = ${c.id} and notification_type = 'MESSAGE'`)).toBe(0);
    await blockAccount({ ctx: c.ctx, input: { id: owner.id } });
    const across = await send(owner, id, { messageText: "@Chen hi", mentions: [c.id] });
    expect(across.status).toBe(201);
    expect(across.body.mentions).toEqual([]);
    expect(await count(sql`select count(*) as n from notifications where receiver_id = ${c.id} and notification_type = 'MESSAGE'`)).toBe(0);
    // A block does not part them in the group (as in VK): Chen still gets the message.
    expect((await history(c, id)).body.content.at(-1).messageText).toBe("@Chen hi");
    expect((await mute(b, id, "OFF")).body.mutedUntil).toBeNull();
    expect((await send(owner, id, { messageText: "x", mentions: Array.from({ length: 11 }, (_, i) => i + 1) })).status).toBe(422);
  });
});

describe("limits", () => {
  it("creating conversations and adding people are limited per account (429), and nothing changes", async () => {
    const more = await Promise.all(Array.from({ length: 7 }, () => signedInAccount()));
    // Adding: 2 at creation + 6 = 8 people; the next one is over.
    const id = await group("Limited", [b, c]);
    expect((await add(owner, id, more.slice(0, 6).map((p) => p.id))).status).toBe(200);
    const res = await add(owner, id, [more[6].id]);
    expect(res.status).toBe(429);
    expect(res.body.error.message).toBe("Too many changes to conversations. Try again later.");
    expect(res.headers.get("retry-after")).toBeTruthy();
    expect(await count(sql`select count(*) as n from dialog_members where dialog_id = ${id}`)).toBe(9);
    // Creating: 5 an hour (Dina's budget is fresh).
    for (let i = 0; i < 5; i++) expect((await create(d, { title: `D${i}`, memberIds: [b.id] })).status).toBe(201);
    const before = await groupsCount();
    const over = await create(d, { title: "one too many", memberIds: [b.id] });
    expect(over.status).toBe(429);
    expect(await groupsCount()).toBe(before);
  });
});
