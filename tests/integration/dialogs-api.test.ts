import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { GET as getRoute, PUT as markReadRoute } from "@/app/api/v1/dialogs/[id]/route";
import { POST as sendRoute } from "@/app/api/v1/dialogs/[id]/messages/route";
import { GET as messagesRoute } from "@/app/api/v1/dialogs/messages/route";
import { GET as byRecipientRoute } from "@/app/api/v1/dialogs/recipientId/[id]/route";
import { GET as listRoute, POST as createRoute } from "@/app/api/v1/dialogs/route";
import { GET as unreadRoute } from "@/app/api/v1/dialogs/unread/route";
import { getDb } from "@/db/client";
import { blockAccount, unblockAccount } from "@/lib/server/services/friends/actions";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { eventsAfter, lastEventId } from "./friends-support";

type Account = Awaited<ReturnType<typeof signedInAccount>>;
const EN = { "accept-language": "en" };

const create = (who: Account | null, recipientId: unknown) =>
  call(createRoute, { method: "POST", token: who?.accessToken, body: { recipientId }, headers: EN });
const byRecipient = (who: Account | null, id: number | string) =>
  call(byRecipientRoute, { token: who?.accessToken, params: { id: String(id) }, headers: EN });
const send = (who: Account | null, dialogId: number | string, body: unknown) =>
  call(sendRoute, { method: "POST", token: who?.accessToken, params: { id: String(dialogId) }, body, headers: EN });
const markRead = (who: Account | null, dialogId: number | string) =>
  call(markReadRoute, { method: "PUT", token: who?.accessToken, params: { id: String(dialogId) }, headers: EN });
const getOne = (who: Account | null, dialogId: number | string) =>
  call(getRoute, { token: who?.accessToken, params: { id: String(dialogId) }, headers: EN });
const list = (who: Account | null, query = "page=0&sort=unreadCount,desc") =>
  call(listRoute, { token: who?.accessToken, path: `/api/v1/dialogs?${query}`, headers: EN });
const unread = (who: Account | null) => call(unreadRoute, { token: who?.accessToken, path: "/api/v1/dialogs/unread", headers: EN });
const messages = (who: Account | null, query: string) =>
  call(messagesRoute, { token: who?.accessToken, path: `/api/v1/dialogs/messages?${query}`, headers: EN });

async function countRows(table: "dialogs" | "messages" | "dialog_members" | "notifications", where = sql`true`): Promise<number> {
  const [row] = await getDb().execute<{ n: string }>(sql`select count(*) as n from ${sql.identifier(table)} where ${where}`);
  return Number(row.n);
}
const dialogsBetween = (a: number, b: number) =>
  countRows("dialogs", sql`account_low = ${Math.min(a, b)} and account_high = ${Math.max(a, b)}`);

let a: Account;
let b: Account;
let c: Account;
beforeEach(async () => {
  [a, b, c] = await Promise.all([
    signedInAccount({ firstName: "Anna", lastName: "Ivanova" }),
    signedInAccount({ firstName: "Boris", lastName: "Orlov" }),
    signedInAccount({ firstName: "Chen", lastName: "Stranger" }),
  ]);
});

async function dialogOf(x: Account, y: Account): Promise<number> {
  const res = await create(x, y.id);
  expect([200, 201]).toContain(res.status);
  return res.body.id;
}

describe("not signed in", () => {
  it("every verb answers 401 in the standard envelope and changes nothing", async () => {
    const id = await dialogOf(a, b);
    const since = await lastEventId();
    const answers = await Promise.all([
      create(null, b.id),
      byRecipient(null, b.id),
      list(null),
      unread(null),
      markRead(null, id),
      getOne(null, id),
      messages(null, `dialogId=${id}`),
      send(null, id, { messageText: "hi" }),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("unauthorized");
      expect(res.body.requestId).toBeTruthy();
    }
    expect(await countRows("messages", sql`dialog_id = ${id}`)).toBe(0);
    expect(await eventsAfter(since)).toEqual([]);
  });
});

describe("POST dialogs and GET dialogs/recipientId/{id}", () => {
  it("404 before the dialog exists; creating answers it with both partners, a second POST (either side) the same one", async () => {
    const none = await byRecipient(a, b.id);
    expect(none.status).toBe(404);
    expect(none.body.error.message).toBe("Dialog not found");

    const seen = new Date(Date.now() - 10 * 60_000);
    await getDb().execute(sql`update accounts set last_online_time = ${seen.toISOString()} where id = ${b.id}`);
    const first = await create(a, b.id);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      id: expect.any(Number),
      // The spec's fields are ids (as in messages and frames); the cards ride beside them (ADR 0142).
      conversationPartner1: a.id,
      conversationPartner2: b.id,
      viewer: { id: a.id, firstName: "Anna", lastName: "Ivanova", photo: null, isDeleted: false },
      partner: { id: b.id, firstName: "Boris", lastName: "Orlov", photo: null, isOnline: false, lastOnlineTime: seen.toISOString() },
      unreadCount: 0,
      unread_count: 0,
      lastMessage: null,
      canWrite: true,
    });
    const again = await create(a, String(b.id));
    const theirs = await create(b, a.id);
    expect(again.status).toBe(200);
    expect(theirs.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(theirs.body.id).toBe(first.body.id);
    // Each sees themselves as partner 1.
    expect(theirs.body).toMatchObject({ conversationPartner1: b.id, conversationPartner2: a.id, viewer: { id: b.id }, partner: { id: a.id } });
    expect((await byRecipient(b, a.id)).body.id).toBe(first.body.id);
    expect(await dialogsBetween(a.id, b.id)).toBe(1);
  });

  it("both people creating at once end with one dialog", async () => {
    const answers = await Promise.all([create(a, b.id), create(b, a.id), create(a, b.id), create(b, a.id)]);
    expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    expect(await dialogsBetween(a.id, b.id)).toBe(1);
    expect(await countRows("dialog_members", sql`dialog_id = ${answers[0].body.id}`)).toBe(2);
  });

  it("refuses yourself, an unknown or deleted account, a block either way, and malformed input; no dialog left behind", async () => {
    expect((await create(a, a.id)).status).toBe(400);
    expect((await create(a, a.id)).body.error.message).toBe("You cannot start a dialog with yourself");
    expect((await byRecipient(a, a.id)).status).toBe(400);
    const unknown = await create(a, 987_654_321);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe("User not found");
    for (const bad of ["x", -1, 0, 1.5, null, "0x2a"]) expect((await create(a, bad)).status).toBe(422);
    expect((await byRecipient(a, "abc")).status).toBe(422);

    await getDb().execute(sql`update accounts set is_deleted = true where id = ${c.id}`);
    const deleted = await create(a, c.id);
    expect(deleted.status).toBe(403);
    expect(deleted.body.error.message).toBe("This user's page is deleted — you cannot write to them");
    expect(await dialogsBetween(a.id, c.id)).toBe(0);

    await blockAccount({ ctx: b.ctx, input: { id: a.id } });
    const blockedByThem = await create(a, b.id);
    expect(blockedByThem.status).toBe(403);
    expect(blockedByThem.body.error.message).toBe("This user has blocked you — you cannot write to them");
    const iBlocked = await create(b, a.id);
    expect(iBlocked.status).toBe(403);
    expect(iBlocked.body.error.message).toBe("You have blocked this user — unblock them first");
    expect(await dialogsBetween(a.id, b.id)).toBe(0);
  });

  it("answers in Russian by default", async () => {
    const res = await call(createRoute, { method: "POST", token: a.accessToken, body: { recipientId: a.id } });
    expect(res.body.error.message).toBe("Нельзя начать диалог с самим собой");
  });
});

describe("POST dialogs/{id}/messages", () => {
  it("stores the trimmed text, answers the message and appends one MESSAGE event for both partners", async () => {
    const id = await dialogOf(a, b);
    const since = await lastEventId();
    const res = await send(a, id, { messageText: "  Привет, Борис!\n  " });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      dialogId: id,
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      conversationPartner1: a.id,
      conversationPartner2: b.id,
      authorId: a.id,
      recipientId: b.id,
      messageText: "Привет, Борис!",
      readStatus: "SENT",
      clientId: null,
      type: "MESSAGE",
      // Issue 27 (docs/adr/0129): added beside the spec's fields.
      editedAt: null,
      deleted: false,
      replyTo: null,
      // Issue 27 (docs/adr/0134): photos.
      images: [],
    });
    const events = await eventsAfter(since);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "MESSAGE", recipients: [a.id, b.id].sort((x, y) => x - y), data: res.body });
    // The time written into the event and the answer is the one every later read gives.
    expect((await messages(b, `dialogId=${id}`)).body.content[0]).toEqual({ ...res.body, readStatus: "SENT" });
    // The counters moved with it.
    expect((await unread(b)).body).toEqual({ count: 1 });
    expect((await unread(a)).body).toEqual({ count: 0 });
    const [dialog] = (await list(b)).body.content;
    expect(dialog).toMatchObject({ id, unreadCount: 1, unread_count: 1, lastMessage: { id: res.body.id, messageText: "Привет, Борис!", authorId: a.id, readStatus: "SENT" } });
  });

  it("a retry with the same clientId stores one message and one event; the same clientId with another text is a conflict", async () => {
    const id = await dialogOf(a, b);
    const since = await lastEventId();
    const clientId = randomUUID();
    const answers = await Promise.all([1, 2, 3].map(() => send(a, id, { messageText: "once", clientId })));
    const created = answers.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    for (const r of answers) {
      expect([200, 201]).toContain(r.status);
      expect(r.body.id).toBe(created[0].body.id);
      expect(r.body.clientId).toBe(clientId);
    }
    const later = await send(a, id, { messageText: "once", clientId });
    expect(later.status).toBe(200);
    expect(later.body.id).toBe(created[0].body.id);
    const other = await send(a, id, { messageText: "something else", clientId });
    expect(other.status).toBe(409);
    expect(other.body.error.message).toBe("This message was already sent with a different text");
    expect(await countRows("messages", sql`dialog_id = ${id}`)).toBe(1);
    expect(await eventsAfter(since)).toHaveLength(1);
    expect((await unread(b)).body.count).toBe(1);
    // Another author may use the same clientId: it is unique per author.
    expect((await send(b, id, { messageText: "mine", clientId })).status).toBe(201);
  });

  it("refuses empty, too long and malformed input with a 4xx and stores nothing", async () => {
    const id = await dialogOf(a, b);
    const since = await lastEventId();
    const cases: [unknown, number, string?][] = [
      [{ messageText: "   \n " }, 422, "A message cannot be empty"],
      [{ messageText: "" }, 422, "A message cannot be empty"],
      [{}, 422],
      [{ messageText: 5 }, 422],
      [{ messageText: "я".repeat(4001) }, 422, "The message is longer than 4000 characters — please shorten it"],
      [{ messageText: "ok", clientId: "not-a-uuid" }, 422, "Invalid client message id"],
    ];
    for (const [body, status, message] of cases) {
      const res = await send(a, id, body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(status);
      if (message) expect(res.body.error.issues[0].message).toBe(message);
    }
    const raw = await call(sendRoute, { method: "POST", token: a.accessToken, params: { id: String(id) }, rawBody: "{oops", headers: { "content-type": "application/json" } });
    expect(raw.status).toBe(400);
    expect((await send(a, "abc", { messageText: "hi" })).status).toBe(422);
    expect(await countRows("messages", sql`dialog_id = ${id}`)).toBe(0);
    expect(await eventsAfter(since)).toEqual([]);
    // Exactly 4000 characters (emoji count as one) is accepted, never cut.
    const longest = "🙂".repeat(4000);
    const ok = await send(a, id, { messageText: longest });
    expect(ok.status).toBe(201);
    expect(ok.body.messageText).toBe(longest);
  });

  it("a stranger can neither write to, read, nor mark someone else's dialog (404, no event)", async () => {
    const id = await dialogOf(a, b);
    await send(a, id, { messageText: "private" });
    const since = await lastEventId();
    const write = await send(c, id, { messageText: "let me in" });
    expect(write.status).toBe(404);
    expect(write.body.error.message).toBe("Dialog not found");
    expect((await markRead(c, id)).status).toBe(404);
    expect((await getOne(c, id)).status).toBe(404);
    expect((await getOne(b, id)).body).toMatchObject({ id, conversationPartner1: b.id, conversationPartner2: a.id, partner: { id: a.id }, unreadCount: 1 });
    expect((await getOne(b, "x")).status).toBe(422);
    expect((await messages(c, `dialogId=${id}`)).status).toBe(404);
    expect((await list(c)).body.content).toEqual([]);
    expect((await unread(b)).body.count).toBe(1);
    expect(await countRows("messages", sql`dialog_id = ${id}`)).toBe(1);
    expect(await eventsAfter(since)).toEqual([]);
    // An id that does not exist answers the same.
    expect((await send(a, 999_999_999, { messageText: "x" })).status).toBe(404);
  });

  it("a block either way refuses sending, keeps history readable and shows canWrite false; unblocking reopens it", async () => {
    const id = await dialogOf(a, b);
    await send(a, id, { messageText: "before" });
    await blockAccount({ ctx: a.ctx, input: { id: b.id } });
    const since = await lastEventId();
    const mine = await send(a, id, { messageText: "after" });
    expect(mine.status).toBe(403);
    expect(mine.body.error.message).toBe("You have blocked this user — unblock them first");
    const theirs = await send(b, id, { messageText: "after" });
    expect(theirs.status).toBe(403);
    expect(theirs.body.error.message).toBe("This user has blocked you — you cannot write to them");
    expect(await eventsAfter(since)).toEqual([]);
    expect((await messages(b, `dialogId=${id}`)).body.content.map((m: { messageText: string }) => m.messageText)).toEqual(["before"]);
    expect((await byRecipient(b, a.id)).body.canWrite).toBe(false);
    await unblockAccount({ ctx: a.ctx, input: { id: b.id } });
    expect((await send(b, id, { messageText: "again" })).status).toBe(201);
  });

  it("a block racing a burst of messages: each message is stored with its event, or refused with nothing left", async () => {
    const id = await dialogOf(a, b);
    const since = await lastEventId();
    const burst = Array.from({ length: 12 }, (_, i) => send(a, id, { messageText: `burst ${i}` }));
    const [answers] = await Promise.all([Promise.all(burst), blockAccount({ ctx: b.ctx, input: { id: a.id } })]);
    for (const r of answers) expect([201, 403]).toContain(r.status);
    const stored = answers.filter((r) => r.status === 201).map((r) => r.body.id as number);
    expect(await countRows("messages", sql`dialog_id = ${id}`)).toBe(stored.length);
    const messageEvents = (await eventsAfter(since)).filter((e) => e.type === "MESSAGE");
    expect(messageEvents.map((e) => (e.data as { id: number }).id).sort((x, y) => x - y)).toEqual([...stored].sort((x, y) => x - y));
    // Each stored message committed wholly before the block: the block removed what a notified b of,
    // so a message that slipped in after it would have left its MESSAGE notification behind.
    expect(await countRows("notifications", sql`receiver_id = ${b.id} and notification_type = 'MESSAGE'`)).toBe(0);
    // After the block, nothing more gets through.
    expect((await send(a, id, { messageText: "after" })).status).toBe(403);
    expect(await countRows("messages", sql`dialog_id = ${id}`)).toBe(stored.length);
  });

  it("blocked both ways, one unblocking leaves the dialog closed; the second reopens it", async () => {
    const id = await dialogOf(a, b);
    await blockAccount({ ctx: a.ctx, input: { id: b.id } });
    await blockAccount({ ctx: b.ctx, input: { id: a.id } });
    await unblockAccount({ ctx: a.ctx, input: { id: b.id } });
    const still = await send(a, id, { messageText: "hello?" });
    expect(still.status).toBe(403);
    expect(still.body.error.message).toBe("This user has blocked you — you cannot write to them");
    expect((await send(b, id, { messageText: "hello?" })).status).toBe(403);
    expect(await countRows("messages", sql`dialog_id = ${id}`)).toBe(0);
    await unblockAccount({ ctx: b.ctx, input: { id: a.id } });
    expect((await send(a, id, { messageText: "hello again" })).status).toBe(201);
    expect((await send(b, id, { messageText: "hi" })).status).toBe(201);
  });

  it("a deleted account cannot write, and nobody can write to it", async () => {
    const id = await dialogOf(a, b);
    await getDb().execute(sql`update accounts set is_deleted = true where id = ${b.id}`);
    const toDeleted = await send(a, id, { messageText: "hello?" });
    expect(toDeleted.status).toBe(403);
    // The viewer is re-read on every request, so the deletion counts at once for b's tokens.
    const fromDeleted = await send(b, id, { messageText: "I'm gone" });
    expect(fromDeleted.status).toBe(403);
    expect(fromDeleted.body.error.message).toBe("Your page is deleted — restore it to send messages");
    expect((await byRecipient(a, b.id)).body).toMatchObject({ canWrite: false, partner: { isDeleted: true } });
    expect(await countRows("messages", sql`dialog_id = ${id}`)).toBe(0);
  });
});

describe("unread arithmetic, PUT dialogs/{id} and the list order", () => {
  it("counts per dialog and in total, resets only the opened dialog and tells both partners", async () => {
    const ab = await dialogOf(a, b);
    const cb = await dialogOf(c, b);
    const ba = await dialogOf(b, a);
    expect(ba).toBe(ab);
    for (const t of ["1", "2", "3"]) expect((await send(a, ab, { messageText: t })).status).toBe(201);
    for (const t of ["x", "y"]) await send(c, cb, { messageText: t });
    // b answers once in ab: own messages never count as unread.
    const reply = await send(b, ab, { messageText: "ok" });
    expect((await unread(b)).body).toEqual({ count: 5 });
    expect((await unread(a)).body).toEqual({ count: 1 });

    let page = (await list(b)).body;
    expect(page).toMatchObject({ totalElements: 2, totalPages: 1, number: 0, size: 20 });
    // Both unread; ab has the newest message (b's reply).
    expect(page.content.map((d: { id: number; unreadCount: number }) => [d.id, d.unreadCount])).toEqual([
      [ab, 3],
      [cb, 2],
    ]);
    expect(page.content[0].lastMessage).toMatchObject({ id: reply.body.id, authorId: b.id, messageText: "ok" });

    const since = await lastEventId();
    const read = await markRead(b, ab);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: ab, unreadCount: 0, unread_count: 0 });
    expect((await unread(b)).body).toEqual({ count: 2 });
    const events = await eventsAfter(since);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: "DIALOG_READ",
      recipients: [a.id, b.id].sort((x, y) => x - y),
      data: { dialogId: ab, readerId: b.id, authorId: a.id, lastReadMessageId: reply.body.id },
    });
    // a's messages are READ now; b's reply is not (a has not opened the dialog).
    const history = (await messages(a, `dialogId=${ab}&sort=time,asc`)).body.content;
    expect(history.map((m: { messageText: string; readStatus: string }) => `${m.messageText}:${m.readStatus}`)).toEqual(["1:READ", "2:READ", "3:READ", "ok:SENT"]);

    // Marking again changes nothing and tells nobody.
    const since2 = await lastEventId();
    expect((await markRead(b, ab)).body.unreadCount).toBe(0);
    expect(await eventsAfter(since2)).toEqual([]);

    // Now the unread dialog comes first even though ab's message is newer.
    page = (await list(b)).body;
    expect(page.content.map((d: { id: number }) => d.id)).toEqual([cb, ab]);
    await send(a, ab, { messageText: "4" });
    expect((await list(b)).body.content.map((d: { id: number; unreadCount: number }) => [d.id, d.unreadCount])).toEqual([
      [ab, 1],
      [cb, 2],
    ]);
    // The other dialogs stay untouched; the sum follows.
    expect((await unread(b)).body).toEqual({ count: 3 });
    // A stored counter always equals what it counts.
    const [check] = await getDb().execute<{ stored: string; counted: string }>(sql`
      select (select unread_count from dialog_members where dialog_id = ${ab} and account_id = ${b.id}) as stored,
             (select count(*) from messages m where m.dialog_id = ${ab} and m.recipient_id = ${b.id}
                and m.id > (select last_read_message_id from dialog_members where dialog_id = ${ab} and account_id = ${b.id})) as counted`);
    expect(Number(check.stored)).toBe(Number(check.counted));
  });

  it("pages and validates the dialog list", async () => {
    for (const x of [a, c]) await dialogOf(x, b);
    const p0 = (await list(b, "page=0&size=1")).body;
    const p1 = (await list(b, "page=1&size=1")).body;
    expect(p0).toMatchObject({ totalElements: 2, totalPages: 2, size: 1, number: 0 });
    expect(p0.content).toHaveLength(1);
    expect(p1.content).toHaveLength(1);
    expect(p0.content[0].id).not.toBe(p1.content[0].id);
    expect((await list(b, "sort=time,desc")).status).toBe(200);
    for (const q of ["page=-1", "size=0", "size=1000", "sort=name,asc", "accountId=1"]) expect((await list(b, q)).status, q).toBe(422);
    expect((await unread(b)).status).toBe(200);
    expect((await call(unreadRoute, { token: b.accessToken, path: "/api/v1/dialogs/unread?x=1" })).status).toBe(422);
  });
});

describe("GET dialogs/messages", () => {
  it("pages both ways by dialogId or recipientId, with a stable order and a keyset cursor", async () => {
    const id = await dialogOf(a, b);
    const sent: number[] = [];
    for (let i = 1; i <= 7; i++) sent.push((await send(i % 2 ? a : b, id, { messageText: `m${i}` })).body.id);
    const desc = (await messages(b, `dialogId=${id}&page=0&size=3&sort=time,desc`)).body;
    expect(desc).toMatchObject({ totalElements: 7, totalPages: 3, size: 3, number: 0 });
    expect(desc.content.map((m: { id: number }) => m.id)).toEqual([sent[6], sent[5], sent[4]]);
    const asc = (await messages(a, `recipientId=${b.id}&page=1&size=3&sort=time,asc`)).body;
    expect(asc.content.map((m: { messageText: string }) => m.messageText)).toEqual(["m4", "m5", "m6"]);
    // Older than m5: m4..m1, newest first; the total counts only what is older.
    const older = (await messages(a, `dialogId=${id}&size=3&beforeId=${sent[4]}`)).body;
    expect(older.content.map((m: { messageText: string }) => m.messageText)).toEqual(["m4", "m3", "m2"]);
    expect(older.totalElements).toBe(4);
    // A new message does not shift a keyset page.
    await send(a, id, { messageText: "m8" });
    expect((await messages(a, `dialogId=${id}&size=3&beforeId=${sent[4]}`)).body.content.map((m: { id: number }) => m.id)).toEqual(
      older.content.map((m: { id: number }) => m.id),
    );
    // With nobody yet: an empty page.
    expect((await messages(a, `recipientId=${c.id}`)).body).toMatchObject({ content: [], totalElements: 0 });
    for (const q of [`dialogId=${id}&recipientId=${b.id}`, "", `dialogId=${id}&sort=time`, `dialogId=${id}&size=101`, `dialogId=x`, `dialogId=${id}&foo=1`]) {
      expect((await messages(a, q)).status, q).toBe(422);
    }
    expect((await messages(a, `dialogId=${id}&beforeId=999999999`)).status).toBe(400);
    expect((await messages(a, `recipientId=${a.id}`)).status).toBe(400);
  });
});
