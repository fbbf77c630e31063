import { describe, expect, it } from "vitest";
import { genderOf, latinToCyrillic } from "@/lib/i18n/gender";
import { personArgs } from "@/lib/i18n/person-name";

// Issue 24 item 19 (docs/adr/0118): a Russian name written in Latin letters ("Gleb Ivanov") is not
// declined in a Russian sentence (Latin script stays as written), but its verbs agree with it as with
// "Глеб Иванов"; a name the rules cannot tell keeps the neutral "(а)".
describe("Latin names in Russian sentences", () => {
  it("reads a romanised Russian name back into Cyrillic", () => {
    expect(latinToCyrillic("Gleb")).toBe("глеб");
    expect(latinToCyrillic("Sergey")).toBe("сергей");
    expect(latinToCyrillic("Yulia")).toBe("юлия");
    expect(latinToCyrillic("Zhenya")).toBe("женя");
    expect(latinToCyrillic("Ilya")).toBe("илья");
    expect(latinToCyrillic("Глеб")).toBeNull();
    expect(latinToCyrillic("Gleb2")).toBeNull();
  });

  it.each([
    ["Gleb", "Ivanov", "male"],
    ["Sergey", "", "male"],
    ["Dmitry", "", "male"],
    ["Mikhail", "", "male"],
    ["Nikita", "", "male"],
    ["Ilya", "", "male"],
    ["Anna", "", "female"],
    ["Natalia", "Petrova", "female"],
    ["Sasha", "Ivanova", "female"],
    ["Olga", "", "female"],
  ] as const)("%s %s is %s", (firstName, lastName, gender) => {
    expect(genderOf({ firstName, lastName })).toBe(gender);
  });

  it.each([["Sasha", ""], ["Mary", ""], ["Emily", ""], ["Kate", "Smith"], ["Jane", "Doe"], ["李", ""]])("%s %s stays neutral", (firstName, lastName) => {
    expect(genderOf({ firstName, lastName })).toBe("other");
  });

  it("keeps a Latin name as written in every case and gives the verb its gender", () => {
    const args = personArgs({ firstName: "Gleb", lastName: "Ivanov" }, "ru", { full: true });
    expect(args).toEqual({ name: "Gleb Ivanov", nameGen: "Gleb Ivanov", nameDat: "Gleb Ivanov", nameAcc: "Gleb Ivanov", nameIns: "Gleb Ivanov", namePre: "Gleb Ivanov", gender: "male" });
    // A Cyrillic name is still declined as before.
    expect(personArgs({ firstName: "Глеб" }, "ru").nameGen).toBe("Глеба");
    expect(personArgs({ firstName: "Анна" }, "ru")).toMatchObject({ nameAcc: "Анну", gender: "female" });
  });
});
