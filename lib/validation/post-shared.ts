// The zod-free half of the post contract: limits, error keys and the plain-text helpers that client
// components (the post card on every feed, wall and search page) import without pulling zod in
// (issue 14 item 11). lib/validation/post.ts re-exports all of it.

import { CONTROL_CHARS } from "./text-rules";

// ---- Limits (spec sections 5 and 9) ----

/** A title is longer than 3 characters (trimmed, counted in characters) … */
export const POST_TITLE_MIN = 4;
/** … and at most 200. */
export const POST_TITLE_MAX = 200;
/** The text is longer than 7 characters of visible text (the HTML with its tags taken away). */
export const POST_TEXT_MIN = 8;
/** Upper bound of the stored HTML (characters); far above any real post. */
export const POST_TEXT_MAX = 50_000;
export const POST_TAGS_MAX = 10;
export const TAG_NAME_MAX = 10;
/** GET tag answers at most this many suggestions. */
export const TAG_SUGGESTIONS_MAX = 5;
/** The composer asks for suggestions from this many characters on, after this pause. */
export const TAG_SUGGEST_FROM = 2;
export const TAG_SUGGEST_DEBOUNCE_MS = 1000;
export const FEED_PAGE_SIZE = 5;
export const WALL_PAGE_SIZE = 3;
export const POST_PAGE_SIZE_MAX = 50;
/** A page number above this is refused (400); below 0 it is read as 0. */
export const POST_PAGE_MAX = 100_000;
export const POST_SEARCH_TEXT_MAX = 200;
/** Hours the composer's schedule offers (spec section 9). */
export const SCHEDULE_HOURS = { from: 8, to: 23 } as const;
/**
 * A publish time at most this far in the past is read as "now" (the clock of a phone, a slow click);
 * anything older is refused as a past schedule.
 */
export const PUBLISH_DATE_GRACE_MS = 60_000;

export const POST_ERRORS = {
  titleText: "postErrors.titleText",
  titleTooLong: "postErrors.titleTooLong",
  textTooLong: "postErrors.textTooLong",
  scheduledInPast: "postErrors.scheduledInPast",
  publishDateInvalid: "postErrors.publishDateInvalid",
  tooManyTags: "postErrors.tooManyTags",
  tagInvalid: "postErrors.tagInvalid",
  imagePathInvalid: "uploadErrors.notStoredPath",
  reactionUnknown: "postErrors.reactionUnknown",
  reactionTarget: "postErrors.reactionTarget",
  badId: "postErrors.badId",
  badQuery: "postErrors.badQuery",
  dateRange: "postErrors.dateRange",
  notFound: "postErrors.notFound",
  notAuthor: "postErrors.notAuthor",
  viewerDeleted: "postErrors.viewerDeleted",
  tagDuplicate: "postErrors.tagDuplicate",
} as const;

// ---- Plain text and HTML helpers (client and server) ----

/** Length in characters (code points), not UTF-16 units: an emoji counts as one. */
export function charCount(value: string): number {
  return Array.from(value).length;
}

/** A title as stored: control characters dropped, runs of white space (new lines too) made one space, trimmed. */
export function normalizeTitle(raw: string): string {
  return raw.replace(CONTROL_CHARS, "").replace(/\s+/g, " ").trim();
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/**
 * The text a reader sees in post HTML: tags removed, entities decoded, white space collapsed. Used
 * for the minimum length, reading time and the collapse rules; not a sanitiser.
 */
export function visibleText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<br\s*\/?>|<\/(p|li|h2|h3|blockquote|pre)>/gi, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === "#") {
        const cp = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isFinite(cp) && cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : "";
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/\s+/g, " ")
    .trim();
}

/** Words of the visible text (for the 100/65-word collapse and reading time). */
export function wordCount(html: string): number {
  const text = visibleText(html);
  return text ? text.split(" ").length : 0;
}

/** Reading time in minutes: words / 150, rounded up (spec section 2); at least 1 for a non-empty post. */
export function readingMinutes(html: string): number {
  return Math.ceil(wordCount(html) / 150);
}

/**
 * A tag name as stored (spec section 5): spaces become "_", only Latin and Cyrillic letters, digits
 * and "_" are kept, at most 10 characters. Letter case is kept; tags compare case-insensitively.
 */
export function normalizeTagName(raw: string): string {
  const kept = raw
    .normalize("NFC")
    .trim()
    .replace(/\s+/g, "_")
    .replace(/[^\p{L}\p{Nd}_]/gu, "")
    .replace(/[^\p{Script=Latin}\p{Script=Cyrillic}0-9_]/gu, "");
  return Array.from(kept).slice(0, TAG_NAME_MAX).join("");
}

/** The key two tag names are compared by (one global tag per key). */
export function tagKey(name: string): string {
  return name.toLowerCase();
}
