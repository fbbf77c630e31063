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
export { FEED_PAGE_SIZE, WALL_PAGE_SIZE } from "./post-page-sizes";
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
  textTooComplex: "postErrors.textTooComplex",
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
  // Issue 27: reposts, and a deleted post's restore.
  repostNotEditable: "postErrors.repostNotEditable",
  notDeleted: "postErrors.notDeleted",
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

const BLOCK_ENDS = new Set(["p", "li", "h2", "h3", "blockquote", "pre"]);

/** `<br>`, `<br/>`, `<br />` at `at` (any case): the index after it, or -1. */
function brEnd(html: string, at: number): number {
  if (html.slice(at + 1, at + 3).toLowerCase() !== "br") return -1;
  let k = at + 3;
  while (k < html.length && /\s/.test(html[k])) k++;
  if (html[k] === "/") k++;
  return html[k] === ">" ? k + 1 : -1;
}

/** `</p>`, `</li>`, `</h2>`, `</h3>`, `</blockquote>`, `</pre>` at `at` (any case): the index after it, or -1. */
function blockEnd(html: string, at: number): number {
  if (html[at + 1] !== "/") return -1;
  // "blockquote" is the longest name: look no further than its length.
  const close = html.slice(at + 2, at + 13).indexOf(">");
  return close > 0 && BLOCK_ENDS.has(html.slice(at + 2, at + 2 + close).toLowerCase()) ? at + 3 + close : -1;
}

const isWordChar = (ch: string | undefined) => ch !== undefined && /\w/.test(ch);

/**
 * The next `</script\s*>` / `</style\s*>` at or after `from`, remembered per name so that the scan never
 * searches the same stretch twice (the positions asked for only grow).
 */
function closingFinder(html: string) {
  const found = new Map<string, { at: number; end: number }>();
  return (name: string, from: number): { at: number; end: number } | null => {
    const known = found.get(name);
    if (known && (known.at >= from || known.at === Infinity)) return known.at === Infinity ? null : known;
    let k = from;
    for (;;) {
      const at = html.indexOf("</", k);
      if (at < 0) {
        found.set(name, { at: Infinity, end: Infinity });
        return null;
      }
      if (html.slice(at + 2, at + 2 + name.length).toLowerCase() === name) {
        let e = at + 2 + name.length;
        while (e < html.length && /\s/.test(html[e])) e++;
        if (html[e] === ">") {
          const hit = { at, end: e + 1 };
          found.set(name, hit);
          return hit;
        }
      }
      k = at + 2;
    }
  };
}

/** An entity at `at` (`&name;`, `&#123;`, `&#x1F;`): its text and the index after it, or null. */
function entityAt(html: string, at: number): [string, number] | null {
  let k = at + 1;
  const hex = html[k] === "#" && (html[k + 1] === "x" || html[k + 1] === "X");
  const dec = html[k] === "#" && !hex;
  const ok = hex ? /[0-9a-f]/i : dec ? /[0-9]/ : /[a-z]/i;
  k += hex ? 2 : dec ? 1 : 0;
  const from = k;
  while (k < html.length && ok.test(html[k])) k++;
  if (k === from || html[k] !== ";") return null;
  const body = html.slice(from, k);
  if (!hex && !dec) {
    const named = ENTITIES[body.toLowerCase()];
    return named === undefined ? null : [named, k + 1];
  }
  const cp = parseInt(body, hex ? 16 : 10);
  return [Number.isFinite(cp) && cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : "", k + 1];
}

/**
 * The text a reader sees in post HTML: tags removed (script and style with their content), entities
 * decoded, white space collapsed. Used for the minimum length, reading time and the collapse rules; not
 * a sanitiser. One pass over the text (issue 24 item 2: the regular expressions it replaces took a second
 * on 50,000 "<"): every position is looked at a bounded number of times.
 */
export function visibleText(html: string): string {
  const out: string[] = [];
  const closing = closingFinder(html);
  let nextGt = -2; // the next ">" at or after the scan (-1: none left)
  let i = 0;
  let textFrom = 0;
  const flush = (to: number) => {
    if (to > textFrom) out.push(html.slice(textFrom, to));
  };
  while (i < html.length) {
    const ch = html[i];
    if (ch === "&") {
      const entity = entityAt(html, i);
      if (entity) {
        flush(i);
        out.push(entity[0]);
        i = textFrom = entity[1];
        continue;
      }
      i++;
      continue;
    }
    if (ch !== "<") {
      i++;
      continue;
    }
    const lower = html.slice(i + 1, i + 7).toLowerCase();
    const raw = lower.startsWith("script") ? "script" : lower.startsWith("style") ? "style" : null;
    const block = raw && !isWordChar(html[i + 1 + raw.length]) ? closing(raw, i + 1) : null;
    let end = block ? block.end : brEnd(html, i);
    let space = true;
    if (end < 0) end = blockEnd(html, i);
    if (end < 0) {
      space = false;
      if (nextGt !== -1 && nextGt < i) nextGt = html.indexOf(">", i);
      end = nextGt < 0 ? -1 : nextGt + 1;
    }
    if (end < 0) {
      i++; // a "<" with no ">" after it stays text
      continue;
    }
    flush(i);
    if (space) out.push(" ");
    i = textFrom = end;
  }
  flush(i);
  return out.join("").replace(/\s+/g, " ").trim();
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
