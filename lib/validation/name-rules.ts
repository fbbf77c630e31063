// How a typed name is cleaned (ADR 0050), without zod: the sign-up form cleans as the user types and
// loads the schema only when first validated (docs/adr/0103). lib/validation/name.ts builds the schema
// from this.

export const NAME_MAX = 50;

const LETTER = /[\p{Script=Latin}\p{Script=Cyrillic}]/u;
const SEPARATORS = new Set(["-", "'"]);
// Typographic apostrophes (’ ʼ ‘ `) and dashes (‐ ‑ – —) as phones and word processors type them.
const APOSTROPHES = /[\u2019\u02bc\u2018`\u00b4]/g;
const DASHES = /[\u2010\u2011\u2012\u2013\u2014\u2212]/g;

const isLetter = (c: string | undefined) => c !== undefined && c !== "_" && LETTER.test(c) && /\p{L}/u.test(c);

/**
 * Spec section 5 keeps Latin and Cyrillic letters (ё, é and ї included) and underscore and strips the
 * rest. A hyphen or an apostrophe directly between two letters is part of the name for every Russian and many
 * other users ("Кузнецова-Длиннофамильная", "O'Brien", "Мар'яна"), so it is kept there and only there
 * (ADR 0050). NFC first, so a letter typed as base + combining accent survives as one letter. The
 * result is capped at NAME_MAX characters and never ends with a separator; stripping twice changes
 * nothing.
 */
export function stripName(raw: string, { typing = false }: { typing?: boolean } = {}): string {
  const chars = Array.from(raw.normalize("NFC").replace(APOSTROPHES, "'").replace(DASHES, "-"));
  // While typing, a separator right after a letter at the end waits for the letter that follows it.
  const nextIsLetter = (i: number) => isLetter(chars[i + 1]) || (typing && i === chars.length - 1);
  const kept = chars.filter((c, i) =>
    SEPARATORS.has(c) ? isLetter(chars[i - 1]) && nextIsLetter(i) : c === "_" || isLetter(c),
  );
  const capped = kept.slice(0, NAME_MAX);
  while (!typing && capped.length > 0 && SEPARATORS.has(capped.at(-1)!)) capped.pop();
  return capped.join("");
}
