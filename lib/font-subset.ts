/**
 * The characters of Geist that Krug ships and preloads (docs/adr/0156): Basic Latin, Latin-1 and
 * Latin Extended-A (names across Europe), Cyrillic with Ukrainian, Belarusian and Serbian letters, general
 * punctuation, the euro, rouble and numero signs, ™, arrows and the minus. Anything else a page holds is
 * drawn by the next face of the stack (the size-adjusted fallback, then the system's sans-serif).
 * `npm run fonts:build` cuts app/fonts/geist-subset.woff2 from the geist package by this list;
 * app/fonts.ts declares the same list as the face's unicode-range (a unit test keeps the two equal).
 */
export const GEIST_SUBSET_RANGES: readonly (readonly [number, number])[] = [
  [0x20, 0x7e],
  [0xa0, 0x17f],
  [0x400, 0x45f],
  [0x490, 0x491],
  [0x2000, 0x206f],
  [0x20ac, 0x20ac],
  [0x20bd, 0x20bd],
  [0x2116, 0x2116],
  [0x2122, 0x2122],
  [0x2190, 0x2193],
  [0x2212, 0x2212],
];

const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, "0");

/** The list as a CSS unicode-range value. */
export function unicodeRangeOf(ranges: readonly (readonly [number, number])[] = GEIST_SUBSET_RANGES): string {
  return ranges.map(([a, b]) => (a === b ? `U+${hex(a)}` : `U+${hex(a)}-${hex(b)}`)).join(", ");
}
