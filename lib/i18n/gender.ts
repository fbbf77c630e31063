import { getGender } from "lvovich";

// The grammatical gender of a person for Russian sentences (ADR 0051). Client-safe and small: the
// chat header and the settings form pick "был"/"была", "Занят"/"Занята" with it, while the
// declension of names (person-name.ts) stays on the server.

export type Gender = "male" | "female" | "other";

type Person = { firstName: string; lastName?: string | null };

const CYRILLIC = /\p{Script=Cyrillic}/u;
const LATIN_NAME = /^[a-z\s'’-]+$/;

// A Russian name written in Latin letters ("Gleb Ivanov", "Natalia") read back into Cyrillic, only to
// guess its gender with the same rules (issue 24 item 19, docs/adr/0118). Longest spellings first.
const LATIN_TO_CYRILLIC: [string, string][] = [
  ["shch", "щ"], ["sch", "щ"], ["iy", "ий"], ["yy", "ый"], ["zh", "ж"], ["kh", "х"], ["ts", "ц"], ["ch", "ч"],
  ["sh", "ш"], ["yu", "ю"], ["ya", "я"], ["yo", "ё"], ["ye", "е"], ["ia", "ия"], ["a", "а"], ["b", "б"],
  ["c", "к"], ["d", "д"], ["e", "е"], ["f", "ф"], ["g", "г"], ["h", "х"], ["i", "и"], ["j", "й"], ["k", "к"],
  ["l", "л"], ["m", "м"], ["n", "н"], ["o", "о"], ["p", "п"], ["q", "к"], ["r", "р"], ["s", "с"], ["t", "т"],
  ["u", "у"], ["v", "в"], ["w", "в"], ["x", "кс"], ["y", "ы"], ["z", "з"],
];

/** "Sergey" → "Сергей", "Dmitry" → "Дмитрий", "Yulia" → "Юлия"; null for anything but Latin letters. */
export function latinToCyrillic(name: string): string | null {
  const lower = name.toLowerCase();
  if (!LATIN_NAME.test(lower)) return null;
  let out = "";
  for (let i = 0; i < lower.length; ) {
    const pair = LATIN_TO_CYRILLIC.find(([latin]) => lower.startsWith(latin, i));
    if (pair) {
      out += pair[1];
      i += pair[0].length;
    } else {
      out += lower[i];
      i += 1;
    }
  }
  // A final "y" after a vowel is "й" (Sergey, Alexey, Nikolay); "Ilya" keeps its soft sign.
  return out.replace(/([аеиоуыэюя])ы(?=$|[\s'’-])/g, "$1й").replace(/(^|[\s'’-])иля(?=$|[\s'’-])/g, "$1илья");
}

/**
 * How a romanised Russian first name ends for each gender: female names in "a" (Anna, Olga, Yulia),
 * male ones in a consonant or "ey/iy/ay/oy" (Gleb, Mikhail, Sergey) or "Dmitry", and the male names
 * in "a" the rules list by name (Nikita, Ilya). The rules call every name ending in a consonant or "и"
 * male, so a guess for "Mary" or "Emily" is not trusted: those keep the neutral form.
 */
const LATIN_ENDINGS: Record<"male" | "female", RegExp> = {
  female: /a$/,
  male: /(?:[bcdfghjklmnpqrstvwxz]|[aeio]y|iy|try|a)$/,
};

/**
 * The person's grammatical gender, from the first name (then the last name); "other" when unknown. A
 * name in Latin letters is read as a romanised Russian name first ("Gleb Ivanov" is male), so verbs
 * agree with it as with "Глеб Иванов"; one the rules cannot tell keeps the neutral "(а)".
 */
export function genderOf({ firstName, lastName }: Person): Gender {
  if (CYRILLIC.test(`${firstName}${lastName ?? ""}`)) {
    const g = getGender({ first: firstName, last: lastName || undefined });
    return g === "male" || g === "female" ? g : "other";
  }
  const first = latinToCyrillic(firstName);
  if (!first) return "other";
  const g = getGender({ first, last: lastName ? (latinToCyrillic(lastName) ?? undefined) : undefined });
  return (g === "male" || g === "female") && LATIN_ENDINGS[g].test(firstName.trim().toLowerCase()) ? g : "other";
}
