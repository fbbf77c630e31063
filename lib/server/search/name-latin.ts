import transliterate from "@sindresorhus/transliterate";

/**
 * The cross-script key of a name (issue 27, docs/adr/0132; issue 40 item 17, docs/adr/0166): «Глеб» and
 * "Gleb" both become "gleb", «Мэри», «Мари» and "Mary" all "meri", «Фёдор», "Fyodor" and "Fedor" all
 * "fedor". The name is transliterated to Latin letters (the npm library @sindresorhus/transliterate,
 * Russian by its own table), lowered, stripped of accents, and the spellings that differ between
 * transliteration habits are folded to one skeleton: й/ы/и/y/j → i, э/е/a → e (Mary is «Мэри», Anne
 * «Энн»), ё/yo/io → e after a consonant or at the start (Фёдор/Fedor, Ёлкин/Elkin), -ye-/-ie- after a
 * vowel → e (Andreyev), ю/yu/iu, я/ya/ia (through y → i), х/kh/h, ц/ts/tz/c → c, щ/shch/sch/sh, x/ks,
 * w/v, ph/f, ck/k, and doubled letters once. The same function makes the stored accounts.name_latin and
 * the typed words it is searched with, so whatever script either side was written in, they meet in one
 * skeleton: a query stays one range of the index. Not for display.
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
    .replace(/t[sz]/g, "c")
    .replace(/[yj]/g, "i")
    .replace(/\bie/g, "e")
    .replace(/([aeiou])ie/g, "$1e")
    .replace(/(^|[^aeiou])io/g, "$1e")
    .replace(/a/g, "e")
    .replace(/([a-z])\1+/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

/** The stored key of an account's whole name, as accounts.name_latin holds it. */
export function accountNameLatin(firstName: string, lastName: string): string {
  return nameLatin(`${firstName} ${lastName}`);
}
