import { describe, expect, it } from "vitest";
import {
  applyHidden,
  applyUpdate,
  applyUpdateToDialogs,
  isChangeable,
  applyMessageToDialogs,
  applyPresenceToDialogs,
  applyRead,
  applyReadToDialogs,
  dayKey,
  groupByDay,
  markDialogRead,
  mergeDialogs,
  mergeMessages,
  withoutConfirmed,
  type LocalMessage,
} from "@/lib/client/chat/timeline";
import type { DialogDto, MessageDto } from "@/lib/validation/dialogs";

const ME = 1;
const HER = 2;

function msg(id: number, over: Partial<MessageDto> = {}): MessageDto {
  const authorId = over.authorId ?? HER;
  const recipientId = authorId === ME ? HER : ME;
  return {
    id,
    dialogId: 10,
    time: new Date(Date.UTC(2026, 10, 23, 12, 0, id)).toISOString(),
    conversationPartner1: authorId,
    conversationPartner2: recipientId,
    authorId,
    recipientId,
    messageText: `m${id}`,
    readStatus: "SENT",
    clientId: null,
    type: "MESSAGE",
    editedAt: null,
    deleted: false,
    replyTo: null,
    images: [],
    ...over,
  };
}

function dialog(id: number, over: Partial<DialogDto> = {}): DialogDto {
  const partner = (pid: number) => ({ id: pid, firstName: "A", lastName: "B", photo: null, isOnline: false, lastOnlineTime: null, isDeleted: false });
  return {
    id,
    type: "PERSONAL",
    title: null,
    photo: null,
    membersCount: 2,
    role: null,
    left: false,
    mutedUntil: null,
    collage: [],
    conversationPartner1: ME,
    conversationPartner2: 100 + id,
    viewer: partner(ME),
    partner: partner(100 + id),
    unreadCount: 0,
    unread_count: 0,
    lastMessage: null,
    canWrite: true,
    messagesFriendsOnly: false,
    createdAt: new Date(Date.UTC(2026, 10, 1)).toISOString(),
    ...over,
  };
}

describe("message timeline", () => {
  it("merges pages and live frames once per id, ascending by time then id", () => {
    const merged = mergeMessages([msg(3), msg(1)], [msg(2), msg(3), msg(4)]);
    expect(merged.map((m) => m.id)).toEqual([1, 2, 3, 4]);
    const sameTime = mergeMessages([], [msg(6, { time: msg(5).time }), msg(5)]);
    expect(sameTime.map((m) => m.id)).toEqual([5, 6]);
  });

  it("never turns a read tick back when a stale copy arrives", () => {
    const merged = mergeMessages([msg(1, { authorId: ME, readStatus: "READ" })], [msg(1, { authorId: ME, readStatus: "SENT" })]);
    expect(merged[0].readStatus).toBe("READ");
  });

  it("marks the author's messages read up to the reader's last id only", () => {
    const list = [msg(1, { authorId: ME }), msg(2, { authorId: HER }), msg(3, { authorId: ME }), msg(4, { authorId: ME })];
    const out = applyRead(list, { dialogId: 10, readerId: HER, authorId: ME, lastReadMessageId: 3, readAt: "" });
    expect(out.map((m) => m.readStatus)).toEqual(["READ", "SENT", "READ", "SENT"]);
    expect(applyRead(list, { dialogId: 11, readerId: HER, authorId: ME, lastReadMessageId: 9, readAt: "" })).toBe(list);
  });

  it("drops optimistic messages once the server confirms their clientId", () => {
    const local: LocalMessage[] = [
      { clientId: "a", text: "x", time: "", state: "pending", error: null },
      { clientId: "b", text: "y", time: "", state: "failed", error: null },
    ];
    expect(withoutConfirmed(local, [msg(1, { authorId: ME, clientId: "a" })]).map((l) => l.clientId)).toEqual(["b"]);
  });

  it("groups by the reader's calendar day", () => {
    const late = msg(1, { time: "2026-11-23T22:30:00Z" });
    const next = msg(2, { time: "2026-11-23T23:30:00Z" });
    expect(groupByDay([late, next], (m) => m.time, "UTC").map((g) => g.items.length)).toEqual([2]);
    // In Moscow (UTC+3) both are already on the 24th.
    expect(groupByDay([late, next], (m) => m.time, "Europe/Moscow").map((g) => g.day)).toEqual(["2026-11-24"]);
    expect(dayKey("2026-11-23T20:59:00Z", "Europe/Moscow")).toBe("2026-11-23");
    expect(dayKey("2026-11-23T21:00:00Z", "Europe/Moscow")).toBe("2026-11-24");
  });
});

describe("dialog list arithmetic (spec section 4)", () => {
  it("counts a received message in a non-active dialog, moves it up, and ignores replays", () => {
    const list = [dialog(1, { lastMessage: { id: 5, messageText: "old", time: msg(5).time, authorId: HER, readStatus: "SENT", imageCount: 0 } }), dialog(2)];
    const m = { ...msg(9), dialogId: 2 };
    const { dialogs, known } = applyMessageToDialogs(list, m, ME, null);
    expect(known).toBe(true);
    expect(dialogs[0].id).toBe(2);
    expect(dialogs[0].unreadCount).toBe(1);
    expect(dialogs[0].unread_count).toBe(1);
    expect(dialogs[0].lastMessage?.messageText).toBe("m9");
    expect(applyMessageToDialogs(dialogs, m, ME, null).dialogs[0].unreadCount).toBe(1);
  });

  it("does not count the viewer's own message or one in the active dialog", () => {
    const list = [dialog(2)];
    expect(applyMessageToDialogs(list, { ...msg(9, { authorId: ME }), dialogId: 2 }, ME, null).dialogs[0].unreadCount).toBe(0);
    expect(applyMessageToDialogs(list, { ...msg(9), dialogId: 2 }, ME, 2).dialogs[0].unreadCount).toBe(0);
    expect(applyMessageToDialogs(list, { ...msg(9), dialogId: 3 }, ME, null).known).toBe(false);
  });

  it("resets on read by the viewer and turns the viewer's last message read for the partner", () => {
    const mine = dialog(3, { lastMessage: { id: 7, messageText: "hi", time: msg(7).time, authorId: ME, readStatus: "SENT", imageCount: 0 } });
    const unread = dialog(4, { unreadCount: 3, unread_count: 3 });
    const afterPartnerRead = applyReadToDialogs([mine, unread], { dialogId: 3, readerId: 103, authorId: ME, lastReadMessageId: 7, readAt: "" }, ME);
    expect(afterPartnerRead.find((d) => d.id === 3)?.lastMessage?.readStatus).toBe("READ");
    const afterIRead = applyReadToDialogs([mine, unread], { dialogId: 4, readerId: ME, authorId: 104, lastReadMessageId: 7, readAt: "" }, ME);
    expect(afterIRead.find((d) => d.id === 4)?.unreadCount).toBe(0);
    expect(markDialogRead([unread], 4)[0].unread_count).toBe(0);
  });

  it("orders unread first, then by the newest activity; merges pages by id", () => {
    const a = dialog(1, { lastMessage: { id: 1, messageText: "", time: "2026-11-20T00:00:00Z", authorId: HER, readStatus: "SENT", imageCount: 0 } });
    const b = dialog(2, { unreadCount: 1, unread_count: 1, lastMessage: { id: 2, messageText: "", time: "2026-11-10T00:00:00Z", authorId: HER, readStatus: "SENT", imageCount: 0 } });
    const c = dialog(3, { createdAt: "2026-11-22T00:00:00Z" });
    expect(mergeDialogs([a], [b, c, a]).map((d) => d.id)).toEqual([2, 3, 1]);
  });

  it("updates the partner's presence on every row of theirs", () => {
    const list = [dialog(1)];
    const out = applyPresenceToDialogs(list, { accountId: 101, isOnline: true, lastOnlineTime: "2026-11-23T12:00:00Z" });
    expect(out[0].partner?.isOnline).toBe(true);
    expect(applyPresenceToDialogs(out, { accountId: 999, isOnline: false, lastOnlineTime: null })).toBe(out);
  });
});

describe("edits, deletions and replies (issue 27)", () => {
  it("an update replaces the message (keeping READ) and the quotes of it; a hide removes it", () => {
    const original = msg(1, { readStatus: "READ" });
    const reply = msg(2, { replyTo: { id: 1, authorId: HER, messageText: "m1", deleted: false, imageCount: 0 } });
    const list = [original, reply, msg(3)];
    const edited = applyUpdate(list, { ...original, messageText: "new", readStatus: "SENT", editedAt: "2026-11-23T12:00:00Z" });
    expect(edited[0]).toMatchObject({ messageText: "new", readStatus: "READ" });
    expect(edited[1].replyTo).toEqual({ id: 1, authorId: HER, messageText: "new", deleted: false, imageCount: 0 });
    const gone = applyUpdate(edited, { ...original, messageText: "", deleted: true });
    expect(gone[1].replyTo).toEqual({ id: 1, authorId: HER, messageText: "", deleted: true, imageCount: 0 });
    expect(applyUpdate(list, msg(99))).toBe(list);
    expect(applyHidden(list, 3).map((m) => m.id)).toEqual([1, 2]);
    expect(applyHidden(list, 42)).toBe(list);
  });

  it("the author's window: 24 hours, never for a deleted message", () => {
    const sent = Date.UTC(2026, 10, 23, 12);
    const m = { time: new Date(sent).toISOString(), deleted: false };
    expect(isChangeable(m, sent + 23.9 * 3600_000)).toBe(true);
    expect(isChangeable(m, sent + 24 * 3600_000)).toBe(false);
    expect(isChangeable({ ...m, deleted: true }, sent)).toBe(false);
  });

  it("the list: an edit of the last message changes its text; a deletion asks for the list again", () => {
    const last = msg(5);
    const list = [dialog(10, { lastMessage: { id: 5, messageText: "m5", time: last.time, authorId: HER, readStatus: "SENT", imageCount: 0 } })];
    const edited = applyUpdateToDialogs(list, { ...last, messageText: "m5!" });
    expect(edited).toMatchObject({ refresh: false, dialogs: [{ lastMessage: { messageText: "m5!" } }] });
    expect(applyUpdateToDialogs(list, { ...msg(4), messageText: "older" }).dialogs).toBe(list);
    expect(applyUpdateToDialogs(list, { ...last, deleted: true, messageText: "" }).refresh).toBe(true);
  });
});
