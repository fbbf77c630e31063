import transliterate from "@sindresorhus/transliterate";

/**
 * The cross-script key of a name (issue 27, docs/adr/0132): «Глеб» and "Gleb" both become "gleb",
 * «Юлия», "Yuliya" and "Julia" all "iulia". The name is transliterated to Latin letters (the npm library
 * @sindresorhus/transliterate, Russian by its own table), lowered, stripped of accents, and the spellings
 * that differ between transliteration habits are folded to one (й/y/j/i, x/ks, kh/h, w/v, ph/f, doubled
 * letters). The same function makes the stored accounts.name_latin and the typed words it is searched with,
 * so whatever script either side was written in, they meet in one alphabet. Not for display.
 */
export function nameLatin(text: string): string {
  return transliterate(text.slice(0, 200))
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^a-z0-9]+/g, " ")
    .replace(/shch|sch/g, "sh")
    .replace(/x/g, "ks")
    .replace(/kh/g, "h")
    .replace(/ph/g, "f")
    .replace(/w/g, "v")
    .replace(/ck/g, "k")
    .replace(/[yj]/g, "i")
    .replace(/\bie/g, "e")
    .replace(/([a-z])\1+/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

/** The stored key of an account's whole name, as accounts.name_latin holds it. */
export function accountNameLatin(firstName: string, lastName: string): string {
  return nameLatin(`${firstName} ${lastName}`);
}
