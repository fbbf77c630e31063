/**
 * Group conversations on the client (issue 41), free of React and browser globals so they are
 * unit-tested: the name a dialog goes by, runs of one sender's messages, and the @mentions of the composer.
 */
import type { DialogDto, MemberCard, MessageDto } from "@/lib/validation/dialogs";

export const isGroup = (dialog: Pick<DialogDto, "type">): boolean => dialog.type === "GROUP";

/** What a dialog is called: a group's title, or the partner's full name. */
export function dialogName(dialog: Pick<DialogDto, "type" | "title" | "partner">): string {
  if (dialog.type === "GROUP" || !dialog.partner) return dialog.title ?? "";
  return `${dialog.partner.firstName} ${dialog.partner.lastName}`.trim();
}

/**
 * Whether a group message starts a run of its author's messages (their name and photo stand above it):
 * the first of the day, or after someone else's message or an event line.
 */
export function startsRun(previous: Pick<MessageDto, "authorId" | "event"> | null | undefined, message: Pick<MessageDto, "authorId" | "event">): boolean {
  if (message.event) return false;
  return !previous || !!previous.event || previous.authorId !== message.authorId;
}

/** The "@query" being typed right before the caret: where its "@" stands and what follows it, or null. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([\p{L}\p{N}_-]{0,30})$/u.exec(before);
  if (!match) return null;
  return { start: before.length - match[2].length - 1, query: match[2] };
}

/** Members whose first or last name starts with the query (case-insensitive), the viewer left out, at most `limit`. */
export function mentionCandidates<T extends MemberCard>(members: readonly T[], query: string, viewerId: number, limit = 6): T[] {
  const q = query.toLocaleLowerCase();
  return members
    .filter((m) => m.id !== viewerId && (q === "" || m.firstName.toLocaleLowerCase().startsWith(q) || m.lastName.toLocaleLowerCase().startsWith(q)))
    .slice(0, limit);
}

/** Puts "@FirstName " in place of the "@query" at `start`; returns the text and where the caret goes. */
export function insertMention(text: string, start: number, caret: number, firstName: string): { text: string; caret: number } {
  const token = `@${firstName} `;
  const rest = text.slice(caret).replace(/^\s/, "");
  return { text: text.slice(0, start) + token + rest, caret: start + token.length };
}

/** The chosen members whose "@FirstName" is still in the text, each once (what the send's `mentions` carries). */
export function mentionsIn(text: string, chosen: readonly Pick<MemberCard, "id" | "firstName">[]): number[] {
  const ids = new Set<number>();
  for (const m of chosen) if (mentionPattern(m.firstName).test(text)) ids.add(m.id);
  return [...ids];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const mentionPattern = (firstName: string, flags = "u") => new RegExp(`(?<![\\p{L}\\p{N}_])@${escape(firstName)}(?![\\p{L}\\p{N}_])`, flags);

/** A text cut into plain parts and "@Name" mentions of the given people (the bubble styles the mentions). */
export function splitMentions(text: string, people: readonly Pick<MemberCard, "id" | "firstName">[]): { text: string; mentionOf: number | null }[] {
  if (people.length === 0 || !text.includes("@")) return [{ text, mentionOf: null }];
  const byName = new Map(people.map((p) => [p.firstName, p.id]));
  const names = [...byName.keys()].sort((a, b) => b.length - a.length).map(escape);
  const re = new RegExp(`(?<![\\p{L}\\p{N}_])@(${names.join("|")})(?![\\p{L}\\p{N}_])`, "gu");
  const parts: { text: string; mentionOf: number | null }[] = [];
  let at = 0;
  for (const match of text.matchAll(re)) {
    if (match.index > at) parts.push({ text: text.slice(at, match.index), mentionOf: null });
    parts.push({ text: match[0], mentionOf: byName.get(match[1]) ?? null });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), mentionOf: null });
  return parts;
}

/**
 * Whether the viewer left the group or was removed, from the newest event line about them in the
 * history they still see; null when the history does not tell.
 */
export function howLeft(messages: readonly MessageDto[], viewerId: number): "left" | "removed" | null {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const e = messages[i].event;
    if (!e) continue;
    if (e.type === "LEFT" && e.actorId === viewerId) return "left";
    if (e.type === "REMOVED" && e.targetIds.includes(viewerId)) return e.actorId === viewerId ? "left" : "removed";
  }
  return null;
}
