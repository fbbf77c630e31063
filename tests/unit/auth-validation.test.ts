import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  NAME_MAX,
  nameSchema as nameField,
  newPasswordForm,
  passwordChangeInput,
  passwordStrength,
  registerForm,
  registerInput,
  stripName,
} from "@/lib/validation/auth";

describe("passwordStrength", () => {
  it.each([
    ["", "weak"],
    ["Aa1!", "weak"],
    ["password", "weak"],
    ["Password1", "weak"], // no special character: the server refuses it, so the meter does too
    ["password1!", "weak"],
    ["PASSWORD1!", "weak"],
    ["Password!!", "weak"],
    ["Aa1!aaaa", "average"],
    ["Secret-pass1!", "reliable"],
    ["Пароль-надёжный1", "reliable"],
    ["Пароль-1", "average"],
    ["Aa1 aaaa", "weak"], // a space is not a special character
  ] as const)("%j is %s", (pw, expected) => {
    expect(passwordStrength(pw)).toBe(expected);
  });

  it("is 'weak' exactly when the registration schema refuses the password", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (pw) => {
        const accepted = registerInput.shape.password1.safeParse(pw).success;
        expect(passwordStrength(pw) === "weak").toBe(!accepted);
      }),
    );
  });
});

describe("stripName", () => {
  it.each([
    ["Иван123", "Иван"],
    ["<b>John</b>", "bJohnb"],
    ["O'Brien-Smith", "O'Brien-Smith"],
    ["Мар’яна", "Мар'яна"],
    ["a--b", "ab"],
    ["-Анна-", "Анна"],
    ["Jean_Luc", "Jean_Luc"],
    ["  Анна  Мария ", "АннаМария"],
    ["Сёма", "Сёма"],
    ["Їжак", "Їжак"],
    ["José", "José"],
    ["Zoe\u0308", "Zoë"], // e + combining diaeresis becomes one letter
    ["李小龙", ""],
    ["Ωmega", "mega"],
    ["😀Smile", "Smile"],
    ["Robert'); DROP TABLE accounts;--", "RobertDROPTABLEaccounts"],
  ])("%j → %j", (raw, expected) => {
    expect(stripName(raw)).toBe(expected);
  });

  it("caps the length at 50 characters", () => {
    expect(stripName("Щ".repeat(80))).toBe("Щ".repeat(NAME_MAX));
  });

  it("only ever keeps Latin and Cyrillic letters, underscores and - or ' between letters, and is idempotent", { timeout: 30_000 }, () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 120 }), (raw) => {
        const out = stripName(raw);
        expect(out).toMatch(/^[\p{Script=Latin}\p{Script=Cyrillic}_'-]*$/u);
        // A hyphen or an apostrophe only ever stands between two letters.
        expect(out).not.toMatch(/(^|[^\p{L}]|_)['-]|['-]($|[^\p{L}]|_)/u);
        expect(Array.from(out).length).toBeLessThanOrEqual(NAME_MAX);
        expect(stripName(out)).toBe(out);
      }),
    );
  });
});

describe("registration schemas", () => {
  const valid = {
    email: " user@example.com ",
    password1: "Secret-pass1!",
    password2: "Secret-pass1!",
    firstName: "Анна!",
    lastName: "Smith",
    captchaCode: "ACE347",
    captchaSecret: "s".repeat(32),
  };

  it("trims the e-mail and strips names", () => {
    const out = registerInput.parse(valid);
    expect(out.email).toBe("user@example.com");
    expect(out.firstName).toBe("Анна");
  });

  it("reports message keys per field", () => {
    const res = registerInput.safeParse({ ...valid, email: "x", password1: "short", password2: "other", captchaCode: "abc" });
    expect(res.success).toBe(false);
    // The first message per field is the one a form shows.
    const issues = Object.fromEntries(res.error!.issues.toReversed().map((i) => [i.path.join("."), i.message]));
    expect(issues).toMatchObject({
      email: "validation.email",
      password1: "validation.passwordMin",
      password2: "validation.passwordsMatch",
      captchaCode: "validation.captchaMin",
    });
  });

  it("the form variant also requires the privacy consent", () => {
    const res = registerForm.safeParse({ ...valid, consent: false });
    expect(res.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["consent", "validation.privacyConsent"]]);
    expect(registerForm.safeParse({ ...valid, consent: true }).success).toBe(true);
  });

  it("the password change needs matching passwords and a secret", () => {
    const res = passwordChangeInput.safeParse({ password1: "Secret-pass1!", password2: "Secret-pass2!" });
    expect(res.error?.issues.map((i) => i.path.join(".")).sort()).toEqual(["password2", "secret"]);
  });
});

describe("form-only schemas", () => {
  it("a name left empty is required; one stripped to nothing asks for letters", () => {
    expect(nameField.safeParse("").error?.issues[0].message).toBe("validation.required");
    expect(nameField.safeParse("   ").error?.issues[0].message).toBe("validation.required");
    expect(nameField.safeParse("12 !!").error?.issues[0].message).toBe("validation.nameLetters");
    expect(nameField.parse(" Анна-Мария ")).toBe("Анна-Мария");
  });

  it("the new-password form needs a complex password typed twice", () => {
    expect(newPasswordForm.safeParse({ password1: "Secret-pass1!", password2: "Secret-pass1!" }).success).toBe(true);
    const res = newPasswordForm.safeParse({ password1: "weakpassword", password2: "other" });
    expect(res.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["password1", "validation.passwordComplexity"],
      ["password2", "validation.passwordsMatch"],
    ]);
  });
});
