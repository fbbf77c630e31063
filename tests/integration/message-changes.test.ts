// Issue 27 (docs/adr/0129): editing a message, deleting it for oneself or for both, and replies —
// PUT/DELETE dialogs/{id}/messages/{messageId} and POST's replyTo, with their events, counts and resume.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { PUT as markReadRoute } from "@/app/api/v1/dialogs/[id]/route";
import { POST as sendRoute } from "@/app/api/v1/dialogs/[id]/messages/route";
import { DELETE as deleteRoute, PUT as editRoute } from "@/app/api/v1/dialogs/[id]/messages/[messageId]/route";
import { GET as messagesRoute } from "@/app/api/v1/dialogs/messages/route";
import { GET as listRoute } from "@/app/api/v1/dialogs/route";
import { GET as unreadRoute } from "@/app/api/v1/dialogs/unread/route";
import { getDb } from "@/db/client";
import { closeRateLimitStore } from "@/lib/server/http/rate-limit";
import { createDialog } from "@/lib/server/services/dialogs/dialogs";
import { blockAccount, unblockAccount } from "@/lib/server/services/friends/actions";
import { updatePrivacySettings } from "@/lib/server/services/privacy/settings";
import { createRealtimeServer, type RealtimeServer } from "@/realtime/server";
import { eventsAfter, lastEventId } from "./friends-support";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { commitEvent, TestSocket, type Frame } from "./helpers/ws-client";

// Each test's accounts are new; the limit test spends one account's budget on purpose.
vi.stubEnv("RATE_LIMIT_MESSAGE_EDIT", "12/1m");

type Account = Awaited<ReturnType<typeof signedInAccount>>;
const EN = { "accept-language": "en" };

const send = (who: Account, dialogId: number, body: unknown) =>
  call(sendRoute, { method: "POST", token: who.accessToken, params: { id: String(dialogId) }, body, headers: EN });
const edit = (who: Account | null, dialogId: number | string, messageId: number | string, body: unknown) =>
  call(editRoute, { method: "PUT", token: who?.accessToken, params: { id: String(dialogId), messageId: String(messageId) }, body, headers: EN });
const remove = (who: Account | null, dialogId: number | string, messageId: number | string, query = "") =>
  call(deleteRoute, {
    method: "DELETE",
    token: who?.accessToken,
    params: { id: String(dialogId), messageId: String(messageId) },
    path: `/api/v1/dialogs/${dialogId}/messages/${messageId}${query}`,
    headers: EN,
  });
const history = (who: Account, dialogId: number, extra = "") =>
  call(messagesRoute, { token: who.accessToken, path: `/api/v1/dialogs/messages?dialogId=${dialogId}&sort=time,asc${extra}`, headers: EN });
const dialogsOf = (who: Account) => call(listRoute, { token: who.accessToken, path: "/api/v1/dialogs", headers: EN });
const unread = (who: Account) => call(unreadRoute, { token: who.accessToken, path: "/api/v1/dialogs/unread", headers: EN });
const markRead = (who: Account, dialogId: number) => call(markReadRoute, { method: "PUT", token: who.accessToken, params: { id: String(dialogId) }, headers: EN });

let server: RealtimeServer;
beforeAll(async () => {
  server = await createRealtimeServer({ port: 0 });
});
afterAll(async () => {
  await server.close();
  await closeRateLimitStore();
});

let a: Account;
let b: Account;
let c: Account;
let dialogId: number;
beforeEach(async () => {
  [a, b, c] = await Promise.all([
    signedInAccount({ firstName: "Anna" }),
    signedInAccount({ firstName: "Boris" }),
    signedInAccount({ firstName: "Chen" }),
  ]);
  dialogId = (await createDialog({ ctx: a.ctx, input: { recipientId: b.id } })).dialog.id;
});

async function say(who: Account, text: string, extra: Record<string, unknown> = {}): Promise<{ id: number; [k: string]: unknown }> {
  const res = await send(who, dialogId, { messageText: text, ...extra });
  expect(res.status).toBe(201);
  return res.body;
}

/** Moves a message back in time (the 24-hour window). */
const age = (id: number, hours: number) => getDb().execute(sql`update messages set created_at = now() - make_interval(secs => ${hours * 3600}) where id = ${id}`);

async function nextOf(socket: TestSocket, ...types: string[]): Promise<Frame> {
  for (;;) {
    const f = await socket.next();
    if (types.includes(f.type)) return f;
  }
}

describe("PUT dialogs/{id}/messages/{messageId}", () => {
  it("the author edits within 24 hours: trimmed text, editedAt, one MESSAGE_UPDATED for both; the preview follows", async () => {
    const m = await say(a, "Привет");
    const since = await lastEventId();
    const res = await edit(a, dialogId, m.id, { messageText: "  Привет, Борис!  " });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: m.id, dialogId, messageText: "Привет, Борис!", deleted: false, replyTo: null, time: m.time, authorId: a.id });
    expect(Date.parse(res.body.editedAt)).toBeGreaterThan(0);
    const events = await eventsAfter(since);
    expect(events).toEqual([{ id: expect.any(Number), type: "MESSAGE_UPDATED", recipients: [a.id, b.id].sort((x, y) => x - y), data: res.body }]);
    const seen = await history(b, dialogId);
    expect(seen.body.content[0]).toEqual({ ...res.body, readStatus: "SENT" });
    const list = await dialogsOf(b);
    expect(list.body.content[0].lastMessage).toMatchObject({ id: m.id, messageText: "Привет, Борис!" });
    const [bell] = await getDb().execute<{ content: string }>(sql`
      select content from notifications where receiver_id = ${b.id} and dialog_id = ${dialogId} and notification_type = 'MESSAGE'`);
    expect(bell.content).toBe("Привет, Борис!");
    // The same text again: nothing changes, nobody is told.
    const again = await edit(a, dialogId, m.id, { messageText: "Привет, Борис!" });
    expect(again.status).toBe(200);
    expect(again.body.editedAt).toBe(res.body.editedAt);
    expect(await eventsAfter(events[0].id)).toEqual([]);
  });

  it("refuses the partner (403), strangers and other dialogs (404), a deleted or 24-hour-old message (409), bad text (422)", async () => {
    const m = await say(a, "original");
    const since = await lastEventId();
    const byPartner = await edit(b, dialogId, m.id, { messageText: "hacked" });
    expect(byPartner.status).toBe(403);
    expect(byPartner.body.error).toMatchObject({ code: "forbidden", message: "Only your own message can be edited or deleted for everyone" });
    const byStranger = await edit(c, dialogId, m.id, { messageText: "hacked" });
    expect(byStranger.status).toBe(404);
    expect(byStranger.body.error.message).toBe("Dialog not found");
    // A message id from another dialog under a dialog of the viewer's.
    const other = (await createDialog({ ctx: a.ctx, input: { recipientId: c.id } })).dialog.id;
    expect((await edit(a, other, m.id, { messageText: "x" })).status).toBe(404);
    expect((await edit(a, dialogId, 999_999_999, { messageText: "x" })).body.error.message).toBe("Message not found");
    // Hostile input: every one a clear 4xx in the envelope, never a 500.
    const bad: [unknown, number][] = [
      [{ messageText: "" }, 422],
      [{ messageText: "   \n " }, 422],
      [{ messageText: "я".repeat(4001) }, 422],
      [{ messageText: 42 }, 422],
      [{ messageText: "x", authorId: b.id }, 422],
      [{}, 422],
      [null, 422],
      [[], 422],
    ];
    for (const [body, status] of bad) {
      const res = await edit(a, dialogId, m.id, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.code).toBeTruthy();
    }
    for (const [d, id] of [["abc", m.id], [dialogId, "0x2a"], [dialogId, -1], ["1e3", m.id], [dialogId, "99999999999999999999"]] as const) {
      expect((await edit(a, d, id, { messageText: "x" })).status).toBe(422);
    }
    const raw = await call(editRoute, {
      method: "PUT",
      token: a.accessToken,
      params: { id: String(dialogId), messageId: String(m.id) },
      rawBody: "{not json",
      headers: { ...EN, "content-type": "application/json" },
    });
    expect(raw.status).toBeGreaterThanOrEqual(400);
    expect(raw.status).toBeLessThan(500);
    expect((await edit(null, dialogId, m.id, { messageText: "x" })).status).toBe(401);
    // Exactly 4,000 characters (code points) passes, as for a new message.
    expect((await edit(a, dialogId, m.id, { messageText: "😀".repeat(4000) })).status).toBe(200);

    await age(m.id, 25);
    const late = await edit(a, dialogId, m.id, { messageText: "too late" });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ code: "conflict", message: "More than 24 hours have passed — the message can no longer be edited or deleted for everyone" });
    const fresh = await say(a, "fresh");
    expect((await remove(a, dialogId, fresh.id, "?forEveryone=true")).status).toBe(200);
    const deleted = await edit(a, dialogId, fresh.id, { messageText: "back" });
    expect(deleted.status).toBe(409);
    expect(deleted.body.error.message).toBe("Message deleted");
    const [row] = await getDb().execute<{ message_text: string }>(sql`select message_text from messages where id = ${m.id}`);
    expect(row.message_text).toBe("😀".repeat(4000));
    // Only the successful edit, the new message and its deletion told anyone.
    expect((await eventsAfter(since)).map((e) => e.type)).toEqual(["MESSAGE_UPDATED", "MESSAGE", "MESSAGE_UPDATED"]);
  });

  it("a block either way or the partner's friends-only privacy refuses an edit like a new message (403)", async () => {
    const m = await say(a, "hello");
    await blockAccount({ ctx: b.ctx, input: { id: a.id } });
    const blocked = await edit(a, dialogId, m.id, { messageText: "edited" });
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.message).toBe("This user has blocked you — you cannot write to them");
    await unblockAccount({ ctx: b.ctx, input: { id: a.id } });
    await blockAccount({ ctx: a.ctx, input: { id: b.id } });
    expect((await edit(a, dialogId, m.id, { messageText: "edited" })).body.error.message).toBe("You have blocked this user — unblock them first");
    await unblockAccount({ ctx: a.ctx, input: { id: b.id } });
    await updatePrivacySettings({ ctx: b.ctx, input: { messagesFrom: "FRIENDS" } });
    const friendsOnly = await edit(a, dialogId, m.id, { messageText: "edited" });
    expect(friendsOnly.status).toBe(403);
    expect(friendsOnly.body.error.message).toBe("This person accepts messages from friends only");
    await updatePrivacySettings({ ctx: b.ctx, input: { messagesFrom: "ALL" } });
    expect((await edit(a, dialogId, m.id, { messageText: "edited" })).status).toBe(200);
  });

  it("edits and deletions share RATE_LIMIT_MESSAGE_EDIT per account: the 13th in a minute is 429 with the chat's text and changes nothing", async () => {
    const m = await say(a, "v0");
    for (let i = 1; i <= 12; i++) expect((await edit(a, dialogId, m.id, { messageText: `v${i}` })).status).toBe(200);
    const since = await lastEventId();
    const over = await edit(a, dialogId, m.id, { messageText: "v13" });
    expect(over.status).toBe(429);
    expect(over.body.error).toMatchObject({ code: "rate_limited", message: "Too many changes — please wait a moment" });
    expect((await remove(a, dialogId, m.id, "?forEveryone=true")).status).toBe(429);
    expect(await eventsAfter(since)).toEqual([]);
    // Another account's budget is its own.
    const mine = await say(b, "b");
    expect((await edit(b, dialogId, mine.id, { messageText: "b2" })).status).toBe(200);
  });
});

describe("DELETE dialogs/{id}/messages/{messageId}", () => {
  it("for everyone: a mark with no text for both, the partner's unread count and the preview fixed in the same change", async () => {
    const first = await say(a, "first");
    const second = await say(a, "secret");
    expect((await unread(b)).body.count).toBe(2);
    const since = await lastEventId();
    const res = await remove(a, dialogId, second.id, "?forEveryone=true");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: second.id, deleted: true, messageText: "" });
    const events = await eventsAfter(since);
    expect(events).toEqual([{ id: expect.any(Number), type: "MESSAGE_UPDATED", recipients: [a.id, b.id].sort((x, y) => x - y), data: res.body }]);
    expect(JSON.stringify(events)).not.toContain("secret");
    const [row] = await getDb().execute<{ message_text: string }>(sql`select message_text from messages where id = ${second.id}`);
    expect(row.message_text).toBe("");
    // Nor does the bell keep quoting it.
    const bell = await getDb().execute<{ content: string }>(sql`
      select content from notifications where receiver_id = ${b.id} and dialog_id = ${dialogId} and notification_type = 'MESSAGE'`);
    expect(bell.length).toBeGreaterThan(0);
    expect(bell.map((n) => n.content)).not.toContain("secret");
    expect((await unread(b)).body.count).toBe(1);
    const [bDialog] = (await dialogsOf(b)).body.content;
    expect(bDialog).toMatchObject({ unreadCount: 1, lastMessage: { id: first.id, messageText: "first" } });
    // Both still see where it was.
    const seen = await history(b, dialogId);
    expect(seen.body.content.map((m: { id: number; deleted: boolean; messageText: string }) => [m.id, m.deleted, m.messageText])).toEqual([
      [first.id, false, "first"],
      [second.id, true, ""],
    ]);
    expect(seen.body.totalElements).toBe(2);
    // A read message deleted changes no count; the only message deleted leaves an empty preview.
    await markRead(b, dialogId);
    expect((await remove(a, dialogId, first.id, "?forEveryone=true")).status).toBe(200);
    expect((await unread(b)).body.count).toBe(0);
    expect((await dialogsOf(a)).body.content[0].lastMessage).toBeNull();
    // Twice: the second says it is gone.
    expect((await remove(a, dialogId, first.id, "?forEveryone=true")).status).toBe(409);
  });

  it("for everyone is the author's, within 24 hours; a block does not stop taking one's words back", async () => {
    const m = await say(a, "hi");
    const byPartner = await remove(b, dialogId, m.id, "?forEveryone=true");
    expect(byPartner.status).toBe(403);
    expect((await remove(c, dialogId, m.id, "?forEveryone=true")).status).toBe(404);
    for (const q of ["?forEveryone=yes", "?forEveryone=1", "?forEveryone=", "?all=true", "?forEveryone=true&forEveryone=false&x=1"]) {
      expect((await remove(a, dialogId, m.id, q)).status, q).toBe(422);
    }
    await age(m.id, 24.1);
    expect((await remove(a, dialogId, m.id, "?forEveryone=true")).body.error.code).toBe("conflict");
    const fresh = await say(a, "sorry");
    await blockAccount({ ctx: b.ctx, input: { id: a.id } });
    expect((await remove(a, dialogId, fresh.id, "?forEveryone=true")).status).toBe(200);
  });

  it("for oneself: gone from the viewer's history, total and preview only; their unread fixed; MESSAGE_HIDDEN to their tabs only", async () => {
    const keep = await say(a, "keep");
    const drop = await say(a, "drop");
    expect((await unread(b)).body.count).toBe(2);
    const since = await lastEventId();
    const res = await remove(b, dialogId, drop.id, "?forEveryone=false");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ dialogId, messageId: drop.id, accountId: b.id });
    expect(await eventsAfter(since)).toEqual([{ id: expect.any(Number), type: "MESSAGE_HIDDEN", recipients: [b.id], data: res.body }]);
    const mine = await history(b, dialogId);
    expect(mine.body.content.map((m: { id: number }) => m.id)).toEqual([keep.id]);
    expect(mine.body.totalElements).toBe(1);
    expect((await history(a, dialogId)).body.content.map((m: { id: number }) => m.id)).toEqual([keep.id, drop.id]);
    expect((await unread(b)).body.count).toBe(1);
    expect((await dialogsOf(b)).body.content[0].lastMessage.id).toBe(keep.id);
    expect((await dialogsOf(a)).body.content[0].lastMessage.id).toBe(drop.id);
    // Hidden: no longer theirs to act on, nor to answer.
    expect((await remove(b, dialogId, drop.id)).status).toBe(404);
    expect((await send(b, dialogId, { messageText: "re", replyTo: drop.id })).status).toBe(422);
    // The author may still delete it for both; the partner's count does not drop twice.
    expect((await remove(a, dialogId, drop.id, "?forEveryone=true")).status).toBe(200);
    expect((await unread(b)).body.count).toBe(1);
    // Anyone may hide anything of theirs at any age (default forEveryone=false), under a block too.
    await age(keep.id, 100);
    await blockAccount({ ctx: a.ctx, input: { id: b.id } });
    expect((await remove(a, dialogId, keep.id)).status).toBe(200);
    expect((await history(a, dialogId)).body).toMatchObject({ totalElements: 1 });
    // The keyset total leaves hidden messages out too.
    const page = await history(a, dialogId, `&beforeId=${drop.id}`);
    expect(page.body).toMatchObject({ totalElements: 0, content: [] });
  });
});

describe("replies", () => {
  it("a reply carries the original's preview in POST, history and the event; the preview follows edits and deletion", async () => {
    const original = await say(b, "Где встречаемся?");
    const since = await lastEventId();
    const reply = await say(a, "У метро", { replyTo: original.id });
    expect(reply.replyTo).toEqual({ id: original.id, authorId: b.id, messageText: "Где встречаемся?", deleted: false, imageCount: 0 });
    const [event] = (await eventsAfter(since)).filter((e) => e.type === "MESSAGE");
    expect(event.data).toEqual(reply);
    await edit(b, dialogId, original.id, { messageText: "Где и когда?" });
    const afterEdit = await history(a, dialogId);
    expect(afterEdit.body.content[1].replyTo).toMatchObject({ messageText: "Где и когда?" });
    await remove(b, dialogId, original.id, "?forEveryone=true");
    const afterDelete = await history(a, dialogId);
    expect(afterDelete.body.content[1].replyTo).toEqual({ id: original.id, authorId: b.id, messageText: "", deleted: true, imageCount: 0 });
    // A long original is quoted in 200 characters.
    const long = await say(b, "д".repeat(1000));
    expect(((await say(a, "ok", { replyTo: long.id })).replyTo as { messageText: string }).messageText).toHaveLength(200);
  });

  it("replyTo must be a message of the same dialog the sender sees (422), on REST and the socket alike", async () => {
    const mine = await say(a, "here");
    const elsewhere = (await createDialog({ ctx: c.ctx, input: { recipientId: b.id } })).dialog.id;
    const foreign = (await send(c, elsewhere, { messageText: "other dialog" })).body;
    const before = await getDb().execute<{ n: string }>(sql`select count(*) as n from messages where dialog_id = ${dialogId}`);
    for (const replyTo of [foreign.id, 999_999_999]) {
      const res = await send(a, dialogId, { messageText: "re", replyTo });
      expect(res.status).toBe(422);
      expect(res.body.error.message).toBe("The message you are replying to is not in this dialog");
    }
    for (const replyTo of ["x", 0, -5, 1.5, { id: mine.id }]) expect((await send(a, dialogId, { messageText: "re", replyTo })).status).toBe(422);
    const after = await getDb().execute<{ n: string }>(sql`select count(*) as n from messages where dialog_id = ${dialogId}`);
    expect(after[0].n).toBe(before[0].n);
    // The socket: a reply is stored and delivered; a bad one is rejected with the same text.
    const [a1, b1] = await Promise.all([TestSocket.open(server.port, { token: a.accessToken }), TestSocket.open(server.port, { token: b.accessToken })]);
    a1.send({ type: "MESSAGE", data: { dialogId, messageText: "через сокет", replyTo: mine.id } });
    expect((await nextOf(b1, "MESSAGE")).data).toMatchObject({ messageText: "через сокет", replyTo: { id: mine.id, messageText: "here" } });
    a1.send({ type: "MESSAGE", data: { dialogId, messageText: "плохой", replyTo: foreign.id } });
    expect((await nextOf(a1, "MESSAGE_REJECTED")).data).toMatchObject({ status: 422, messageKey: "chatErrors.replyNotFound" });
    await Promise.all([a1.close(), b1.close()]);
  });
});

describe("live and after a reconnect", () => {
  it("edit, delete for both and delete for oneself reach the right tabs live, and replay in order on resume", async () => {
    const m1 = await say(a, "one");
    const m2 = await say(a, "two");
    const [a1, b1] = await Promise.all([TestSocket.open(server.port, { token: a.accessToken }), TestSocket.open(server.port, { token: b.accessToken })]);
    const edited = (await edit(a, dialogId, m1.id, { messageText: "one!" })).body;
    expect((await nextOf(a1, "MESSAGE_UPDATED")).data).toEqual(edited);
    const seenByB = await nextOf(b1, "MESSAGE_UPDATED");
    expect(seenByB.data).toEqual(edited);
    await b1.close();
    // While B is away: a deletion for both, then B's own hide from another device.
    const gone = (await remove(a, dialogId, m2.id, "?forEveryone=true")).body;
    const hidden = (await remove(b, dialogId, m1.id)).body;
    const deletedFrame = await nextOf(a1, "MESSAGE_UPDATED");
    expect(deletedFrame.data).toEqual(gone);
    // A hears nothing of B's own hide: the next chat frame A gets is a marker committed after it.
    const marker = await commitEvent([a.id], { marker: true }, "MARKER");
    expect(await nextOf(a1, "MARKER", "MESSAGE", "MESSAGE_UPDATED", "MESSAGE_HIDDEN")).toMatchObject({ id: marker, type: "MARKER" });
    // B comes back with the last id it saw: both changes replay, in order, once.
    const b2 = await TestSocket.open(server.port, { token: b.accessToken, lastEventId: seenByB.id });
    const replay1 = await nextOf(b2, "MESSAGE_UPDATED", "MESSAGE_HIDDEN");
    const replay2 = await nextOf(b2, "MESSAGE_UPDATED", "MESSAGE_HIDDEN");
    expect([replay1.type, replay1.data]).toEqual(["MESSAGE_UPDATED", gone]);
    expect([replay2.type, replay2.data]).toEqual(["MESSAGE_HIDDEN", hidden]);
    const bMarker = await commitEvent([b.id], { marker: true }, "MARKER");
    expect(await nextOf(b2, "MARKER", "MESSAGE", "MESSAGE_UPDATED", "MESSAGE_HIDDEN")).toMatchObject({ id: bMarker, type: "MARKER" });
    await Promise.all([a1.close(), b2.close()]);
  });
});
