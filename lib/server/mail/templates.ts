import "server-only";
import compile from "icu-minify/compile";
import format, { type CompiledMessage } from "icu-minify/format";
import en from "@/messages/en.json";
import ru from "@/messages/ru.json";
import { isLocale, type Locale } from "@/lib/i18n/config";
import type { Mail } from "./send";

const catalogues: Record<Locale, Record<string, unknown>> = { ru, en };
const formatters = {
  getDateTimeFormat: (...args: ConstructorParameters<typeof Intl.DateTimeFormat>) => new Intl.DateTimeFormat(...args),
  getNumberFormat: (...args: ConstructorParameters<typeof Intl.NumberFormat>) => new Intl.NumberFormat(...args),
  getPluralRules: (...args: ConstructorParameters<typeof Intl.PluralRules>) => new Intl.PluralRules(...args),
};

/**
 * Texts live in messages/*.json under "mail". Inside the Next bundle the catalogue is precompiled
 * (docs/adr/0101): a message with `{name}` arrives as icu-minify's compiled array, not a string; the
 * tests and scripts import the JSON as written. Both forms are formatted here with their variables.
 */
export function catalogueText(locale: Locale, key: string, vars: Record<string, string | number> = {}): string {
  let node: unknown = catalogues[locale];
  for (const part of key.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  if (node === undefined || (typeof node === "object" && !Array.isArray(node))) throw new Error(`text ${key} is missing`);
  const message = (typeof node === "string" ? compile(node) : node) as CompiledMessage;
  return String(format(message, locale, vars, { formatters }));
}

function text(locale: Locale, key: string, vars: Record<string, string | number> = {}): string {
  return catalogueText(locale, `mail.${key}`, vars);
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

type Paragraphs = { greeting: string; intro: string; action?: { label: string; href: string }; ignore?: string; signature: string };

function render(locale: Locale, to: string, subject: string, p: Paragraphs): Mail {
  const lines = [p.greeting, "", p.intro];
  if (p.action) lines.push("", `${p.action.label}: ${p.action.href}`);
  if (p.ignore) lines.push("", p.ignore);
  lines.push("", "—", p.signature);

  const para = (s: string, style = "") => `<p style="margin:0 0 16px;${style}">${escapeHtml(s)}</p>`;
  const button = p.action
    ? `<p style="margin:0 0 16px"><a href="${escapeHtml(p.action.href)}" style="display:inline-block;padding:10px 18px;` +
      `background:#2f6fd6;color:#ffffff;border-radius:8px;text-decoration:none">${escapeHtml(p.action.label)}</a></p>` +
      para(p.action.href, "font-size:13px;color:#666666;word-break:break-all")
    : "";
  const html =
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:24px;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;font-size:15px;color:#1f2937">` +
    `<div style="max-width:520px;margin:0 auto;padding:24px;background:#ffffff;border-radius:12px">` +
    para(p.greeting) +
    para(p.intro) +
    button +
    (p.ignore ? para(p.ignore, "color:#666666") : "") +
    para(p.signature, "color:#666666") +
    `</div></body></html>`;
  return { to, subject, text: lines.join("\n"), html, links: p.action ? [p.action.href] : [] };
}

export type LinkMailKind = "recovery" | "passwordChange" | "emailChange";

/** A mail that carries a one-time link, in the account's language. */
export function linkMail(input: {
  kind: LinkMailKind;
  to: string;
  language: string;
  firstName: string;
  href: string;
  vars?: Record<string, string | number>;
}): Mail {
  const locale: Locale = isLocale(input.language) ? input.language : "ru";
  const subject = text(locale, `${input.kind}.subject`);
  return render(locale, input.to, subject, {
    greeting: text(locale, "greeting", { name: input.firstName }),
    intro: text(locale, `${input.kind}.intro`, input.vars),
    action: { label: text(locale, `${input.kind}.action`), href: input.href },
    ignore: text(locale, "ignore"),
    signature: text(locale, "signature"),
  });
}

/** Tells the old address that the account's e-mail changed, with a link that undoes it (a hijack is reversible). */
export function emailChangedMail(input: { to: string; language: string; firstName: string; newEmail: string; undoHref: string }): Mail {
  const locale: Locale = isLocale(input.language) ? input.language : "ru";
  return render(locale, input.to, text(locale, "emailChanged.subject"), {
    greeting: text(locale, "greeting", { name: input.firstName }),
    intro: text(locale, "emailChanged.intro", { email: input.newEmail }),
    action: { label: text(locale, "emailChanged.action"), href: input.undoHref },
    signature: text(locale, "signature"),
  });
}

/** A scheduled backup failed (docs/adr/0141): to every administrator, with the reason and a link to the admin page. */
export function backupFailedMail(input: { to: string; language: string; firstName: string; destination: string; error: string; when: Date; href: string }): Mail {
  const locale: Locale = isLocale(input.language) ? input.language : "ru";
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(input.when);
  return render(locale, input.to, text(locale, "backupFailed.subject"), {
    greeting: text(locale, "greeting", { name: input.firstName }),
    intro: text(locale, "backupFailed.intro", { date: `${date} UTC`, destination: input.destination, error: input.error.slice(0, 500) }),
    action: { label: text(locale, "backupFailed.action"), href: input.href },
    signature: text(locale, "signature"),
  });
}

/** The data archive is ready (docs/adr/0127): a link to it, which opens only for the signed-in owner, until `expires`. */
export function exportReadyMail(input: { to: string; language: string; firstName: string; href: string; expiresAt: Date }): Mail {
  const locale: Locale = isLocale(input.language) ? input.language : "ru";
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(input.expiresAt);
  return render(locale, input.to, text(locale, "exportReady.subject"), {
    greeting: text(locale, "greeting", { name: input.firstName }),
    intro: text(locale, "exportReady.intro", { date: `${date} UTC` }),
    action: { label: text(locale, "exportReady.action"), href: input.href },
    ignore: text(locale, "exportReady.ignore"),
    signature: text(locale, "signature"),
  });
}
