// Issue 24 item 10: every transactional mail, in ru and en, with the catalogue as the tests import it
// (ICU strings) and as the Next bundle imports it (precompiled by icu-minify, docs/adr/0101): no raw
// message key, no unfilled placeholder, and the real greeting.
import compile from "icu-minify/compile";
import { describe, expect, it, vi } from "vitest";
import enRaw from "@/messages/en.json";
import ruRaw from "@/messages/ru.json";

/** What next-intl's catalogue loader does to every message at build time (`precompile: true`). */
function precompiled(node: unknown): unknown {
  if (typeof node === "string") return compile(node);
  return Object.fromEntries(Object.entries(node as Record<string, unknown>).map(([k, v]) => [k, precompiled(v)]));
}

async function templates(form: "raw" | "precompiled") {
  vi.resetModules();
  vi.doMock("@/messages/en.json", () => ({ default: form === "raw" ? enRaw : precompiled(enRaw) }));
  vi.doMock("@/messages/ru.json", () => ({ default: form === "raw" ? ruRaw : precompiled(ruRaw) }));
  return import("@/lib/server/mail/templates");
}

const href = "https://krug.example/change-password/abc123";
const greeting = { ru: "Здравствуйте, Анна!", en: "Hello, Анна!" } as const;
const intros = {
  ru: { recovery: "действует 30 минут", passwordChange: "действует 30 минут", emailChange: "действует 24 часа", emailChanged: "изменён на new@krug.example." },
  en: { recovery: "for 30 minutes", passwordChange: "for 30 minutes", emailChange: "for 24 hours", emailChanged: "changed to new@krug.example." },
} as const;
/** A word like `mail.greeting` or `mail.recovery.intro`: a message key that reached the reader. */
const RAW_KEY = /(^|[\s>(])[a-z][A-Za-z]*(\.[A-Za-z0-9_]+)+(?=[\s<).,!:]|$)/m;

describe.each(["raw", "precompiled"] as const)("mail templates with the %s catalogue", (form) => {
  describe.each(["ru", "en"] as const)("in %s", (language) => {
    it("render all four mails with their texts, never a message key", async () => {
      const { linkMail, emailChangedMail } = await templates(form);
      const mails = {
        recovery: linkMail({ kind: "recovery", to: "a@krug.example", language, firstName: "Анна", href, vars: { minutes: 30 } }),
        passwordChange: linkMail({ kind: "passwordChange", to: "a@krug.example", language, firstName: "Анна", href, vars: { minutes: 30 } }),
        emailChange: linkMail({ kind: "emailChange", to: "a@krug.example", language, firstName: "Анна", href, vars: { hours: 24 } }),
        emailChanged: emailChangedMail({ to: "a@krug.example", language, firstName: "Анна", newEmail: "new@krug.example", undoHref: href }),
      };
      for (const [kind, mail] of Object.entries(mails)) {
        // Addresses and links hold dots too; what is left must not look like a key.
        const words = (s: string) => s.replaceAll(href, "").replace(/\S+@\S+/g, "");
        for (const part of [mail.subject, mail.text, mail.html]) {
          expect(words(part), `${kind}: ${part}`).not.toMatch(RAW_KEY);
          expect(part, `${kind}: an unfilled placeholder`).not.toMatch(/\{\w+\}/);
          expect(part).not.toContain("mail.");
        }
        expect(mail.text.split("\n")[0]).toBe(greeting[language]);
        expect(mail.html).toContain(`>${greeting[language]}</p>`);
        expect(mail.text).toContain(intros[language][kind as keyof (typeof intros)["ru"]]);
        expect(mail.links).toEqual([href]);
      }
    });
  });
});
