/**
 * Pure display rules of the post card and the news search (spec sections 2 and 9), free of the DOM so
 * they are unit-tested and shared by server and client renders. Word counting and reading time live
 * with the post validation (lib/validation/post.ts), so the card and the server count alike.
 */

/** The card collapses a text beyond this many words… */
export const COLLAPSE_WORDS = 100;
/** …and offers "read more" only above this many (a shorter text is never hidden). */
export const READ_MORE_WORDS = 65;
/** The collapsed height of a long text, in CSS pixels. */
export const COLLAPSED_HEIGHT_PX = 150;

/** Stems of the words of a search query, for highlighting: a Russian or English word matches its other forms. */
export function queryStems(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const stems = words
    .filter((w) => w.length >= 2)
    .map((w) => (w.length <= 4 ? w : w.slice(0, Math.max(4, w.length - 3))));
  return [...new Set(stems)].sort((a, b) => b.length - a.length);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function stemPattern(stems: string[]): RegExp | null {
  if (stems.length === 0) return null;
  // A match starts a word (no letter, digit or "&" of an entity right before it) and takes the whole word.
  return new RegExp(`(?<![\\p{L}\\p{N}&#])(?:${stems.map(escapeRegExp).join("|")})[\\p{L}\\p{N}]*`, "giu");
}

/** Splits plain text into parts, marking the words that match the query (for a title: rendered as React nodes). */
export function highlightParts(text: string, stems: string[]): { text: string; match: boolean }[] {
  const pattern = stemPattern(stems);
  if (!pattern) return [{ text, match: false }];
  const parts: { text: string; match: boolean }[] = [];
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > last) parts.push({ text: text.slice(last, m.index), match: false });
    parts.push({ text: m[0], match: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), match: false });
  return parts;
}

/**
 * Wraps the matching words of already sanitised HTML in <mark>. Only text between tags is touched, and a
 * match is letters and digits only, so no markup can be formed or broken by it.
 */
export function highlightHtml(html: string, stems: string[]): string {
  const pattern = stemPattern(stems);
  if (!pattern) return html;
  return html.replace(/(^|>)([^<]+)/g, (_all, open: string, text: string) => open + text.replace(pattern, (word) => `<mark>${word}</mark>`));
}
