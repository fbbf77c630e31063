import { incline } from "lvovich";
import { genderOf, type Gender } from "./gender";

export { genderOf, type Gender };

// Russian sentences that hold a person's name (issue 14 item 8, ADR 0051): the name in the case the
// sentence needs ("у Петра", "на Анну") and the verb in the person's gender ("был в сети", "была").
// The profile has no gender field, so it comes from the first name (and the last name, when the first
// is ambiguous, as with "Саша"); when neither tells, the sentence keeps its neutral form.

/** ICU arguments for a message: {name} {nameGen} {nameDat} {nameAcc} {nameIns} {namePre}, and {gender} for select. */
export type PersonArgs = {
  name: string;
  nameGen: string;
  nameDat: string;
  nameAcc: string;
  nameIns: string;
  namePre: string;
  gender: Gender;
};

type Person = { firstName: string; lastName?: string | null };

const CASES = {
  nameGen: "genitive",
  nameDat: "dative",
  nameAcc: "accusative",
  nameIns: "instrumental",
  namePre: "prepositional",
} as const;

const CYRILLIC = /\p{Script=Cyrillic}/u;

/**
 * The message arguments for a person: `full` names both parts ("Анны Кузнецовой-Длиннофамильной"),
 * otherwise the first name alone. Only Russian declines; other languages get the name as it is.
 */
export function personArgs(person: Person, locale: string, { full = false }: { full?: boolean } = {}): PersonArgs {
  const first = person.firstName;
  const last = full ? (person.lastName ?? "") : "";
  const join = (a: string, b: string) => [a, b].filter(Boolean).join(" ");
  const name = join(first, last);
  const gender = genderOf(person);
  const forms = { name, nameGen: name, nameDat: name, nameAcc: name, nameIns: name, namePre: name, gender };
  if (locale !== "ru" || !CYRILLIC.test(name)) return forms;
  const lvGender = gender === "other" ? undefined : gender;
  for (const [key, declension] of Object.entries(CASES) as [keyof typeof CASES, (typeof CASES)[keyof typeof CASES]][]) {
    const inclined = incline({ first, last: last || undefined, gender: lvGender }, declension);
    forms[key] = join(inclined.first ?? first, last ? (inclined.last ?? last) : "");
  }
  return forms;
}
