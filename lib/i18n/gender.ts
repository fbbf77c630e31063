import { getGender } from "lvovich";

// The grammatical gender of a person for Russian sentences (ADR 0051). Client-safe and small: the
// chat header and the settings form pick "был"/"была", "Занят"/"Занята" with it, while the
// declension of names (person-name.ts) stays on the server.

export type Gender = "male" | "female" | "other";

type Person = { firstName: string; lastName?: string | null };

const CYRILLIC = /\p{Script=Cyrillic}/u;

/** The person's grammatical gender, from the first name (then the last name); "other" when unknown. */
export function genderOf({ firstName, lastName }: Person): Gender {
  if (!CYRILLIC.test(`${firstName}${lastName ?? ""}`)) return "other";
  const g = getGender({ first: firstName, last: lastName || undefined });
  return g === "male" || g === "female" ? g : "other";
}
