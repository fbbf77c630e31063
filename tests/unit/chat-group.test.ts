import { describe, expect, it } from "vitest";
import { dialogName, howLeft, insertMention, mentionAt, mentionCandidates, mentionsIn, splitMentions, startsRun } from "@/lib/client/chat/group";
import { applyRead, applyReadToDialogs, readCovers } from "@/lib/client/chat/timeline";
import type { DialogDto, MessageDto } from "@/lib/validation/dialogs";

// Group conversations on the client (issue 41): names, runs, mentions, and the group read rule.

const ME = 1;
const anna = { id: 2, firstName: "Анна", lastName: "Смирнова", photo: null };
const boris = { id: 3, firstName: "Борис", lastName: "Петров", photo: null };
const anton = { id: 4, firstName: "Антон", lastName: "Белый", photo: null };

function message(id: number, authorId: number, over: Partial<MessageDto> = {}): MessageDto {
  return {
    id,
    dialogId: 9,
    time: new Date(Date.UTC(2026, 11, 1, 12, 0, id)).toISOString(),
    conversationPartner1: authorId,
    conversationPartner2: null,
    authorId,
    recipientId: null,
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

describe("group names and runs", () => {
  it("a group goes by its title, a personal dialog by the partner's name", () => {
    const partner = { id: 5, firstName: "Вера", lastName: "Котова", photo: null, isOnline: false, lastOnlineTime: null, isDeleted: false };
    expect(dialogName({ type: "GROUP", title: "Класс", partner: null })).toBe("Класс");
    expect(dialogName({ type: "PERSONAL", title: null, partner })).toBe("Вера Котова");
  });

  it("a run starts after someone else's message or an event line, never on an event", () => {
    const event = { type: "ADDED" as const, actorId: 2, targetIds: [3], title: null, people: [anna, boris] };
    expect(startsRun(null, message(1, 2))).toBe(true);
    expect(startsRun(message(1, 2), message(2, 2))).toBe(false);
    expect(startsRun(message(1, 3), message(2, 2))).toBe(true);
    expect(startsRun(message(1, 2, { event }), message(2, 2))).toBe(true);
    expect(startsRun(message(1, 3), message(2, 2, { event }))).toBe(false);
  });
});

describe("mentions", () => {
  it("finds the @query before the caret, only at a word's start", () => {
    expect(mentionAt("привет @Ан", 10)).toEqual({ start: 7, query: "Ан" });
    expect(mentionAt("@", 1)).toEqual({ start: 0, query: "" });
    expect(mentionAt("mail@host", 9)).toBeNull();
    expect(mentionAt("@Анна привет", 12)).toBeNull();
  });

  it("suggests members by first or last name, not the viewer", () => {
    const members = [{ ...anna }, { ...boris }, { ...anton }, { id: ME, firstName: "Алексей", lastName: "Я", photo: null }];
    expect(mentionCandidates(members, "ан", ME).map((m) => m.id)).toEqual([2, 4]);
    expect(mentionCandidates(members, "пет", ME).map((m) => m.id)).toEqual([3]);
    expect(mentionCandidates(members, "", ME).map((m) => m.id)).toEqual([2, 3, 4]);
  });

  it("inserts @FirstName and a space, and sends only the mentions still in the text", () => {
    const typed = "привет @Ан";
    const out = insertMention(typed, 7, typed.length, "Анна");
    expect(out).toEqual({ text: "привет @Анна ", caret: 13 });
    expect(mentionsIn(`${out.text}и @Борис`, [anna, boris])).toEqual([2, 3]);
    expect(mentionsIn("привет @Аннушка", [anna])).toEqual([]);
    expect(mentionsIn("привет", [anna])).toEqual([]);
  });

  it("cuts a text into plain parts and mentions of the given people", () => {
    expect(splitMentions("@Анна, смотри, @Борис и @Вера", [anna, boris])).toEqual([
      { text: "@Анна", mentionOf: 2 },
      { text: ", смотри, ", mentionOf: null },
      { text: "@Борис", mentionOf: 3 },
      { text: " и @Вера", mentionOf: null },
    ]);
    expect(splitMentions("без упоминаний", [anna])).toEqual([{ text: "без упоминаний", mentionOf: null }]);
  });
});

describe("the group read rule", () => {
  const groupRead = { dialogId: 9, readerId: 2, authorId: null as unknown as number, lastReadMessageId: 3, readAt: "2026-12-01T12:00:00Z" };

  it("a read in a group covers every message up to it that the reader did not write", () => {
    expect(readCovers(groupRead, { id: 3, authorId: ME })).toBe(true);
    expect(readCovers(groupRead, { id: 3, authorId: 4 })).toBe(true);
    expect(readCovers(groupRead, { id: 2, authorId: 2 })).toBe(false);
    expect(readCovers(groupRead, { id: 4, authorId: ME })).toBe(false);
    const out = applyRead([message(1, ME), message(2, 2), message(3, 4), message(4, ME)], groupRead);
    expect(out.map((m) => m.readStatus)).toEqual(["READ", "SENT", "READ", "SENT"]);
  });

  it("a personal read still covers only its author's messages", () => {
    const read = { ...groupRead, authorId: ME };
    expect(readCovers(read, { id: 2, authorId: ME })).toBe(true);
    expect(readCovers(read, { id: 2, authorId: 4 })).toBe(false);
  });

  it("the list's last message of the viewer turns READ when another member reads", () => {
    const d = {
      id: 9,
      type: "GROUP",
      lastMessage: { id: 3, messageText: "x", time: "2026-12-01T12:00:03Z", authorId: ME, readStatus: "SENT", imageCount: 0 },
      unreadCount: 0,
      unread_count: 0,
      createdAt: "2026-12-01T00:00:00Z",
    } as unknown as DialogDto;
    expect(applyReadToDialogs([d], groupRead, ME)[0].lastMessage?.readStatus).toBe("READ");
    expect(applyReadToDialogs([d], { ...groupRead, readerId: ME }, ME)[0].lastMessage?.readStatus).toBe("SENT");
  });
});

describe("leaving", () => {
  it("tells a left viewer from a removed one by the newest event about them", () => {
    const left = message(5, ME, { event: { type: "LEFT", actorId: ME, targetIds: [], title: null, people: [] } });
    const removed = message(6, 2, { event: { type: "REMOVED", actorId: 2, targetIds: [ME], title: null, people: [] } });
    expect(howLeft([message(1, 2), left], ME)).toBe("left");
    expect(howLeft([left, removed], ME)).toBe("removed");
    expect(howLeft([message(1, 2)], ME)).toBeNull();
  });
});
