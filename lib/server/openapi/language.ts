import "server-only";
// One language per API reference (issue 40 item 19, docs/adr/0167): the document is written in English
// in the code (lib/validation/*-api.ts, api-common.ts, asyncapi.ts) and translated whole into Russian here —
// section (tag) names, summaries and descriptions — from reference-ru.json (English text → Russian text,
// one entry per paragraph). A text without its Russian fails tests/integration/openapi-language.test.ts.
import RU from "./reference-ru.json";

export type ReferenceLanguage = "ru" | "en";

/** The sections, as the operations name them (Russian) and in English. */
const TAGS: Record<string, string> = {
  "Вход и регистрация": "Sign-in and registration",
  Аккаунт: "Account",
  Друзья: "Friends",
  Записи: "Posts",
  Комментарии: "Comments",
  Файлы: "Files",
  Сообщения: "Messages",
  Сообщества: "Communities",
  Уведомления: "Notifications",
  Push: "Push",
  Жалобы: "Reports",
  Модерация: "Moderation",
  География: "Geography",
  "Сокет (живые события)": "Socket (live events)",
  Справка: "Reference",
};

const ru = RU as Record<string, string>;

/** A section's name in the reference's language. */
export function tagIn(lang: ReferenceLanguage, name: string): string {
  return lang === "en" ? (TAGS[name] ?? name) : name;
}

/** An English text in the reference's language, paragraph by paragraph (an untranslated one stays English). */
export function textIn(lang: ReferenceLanguage, text: string): string {
  if (lang === "en") return text;
  return ru[text] ?? text.split("\n\n").map((p) => ru[p] ?? p).join("\n\n");
}

/**
 * The generated document in one language: every summary and description (examples are data and stay as
 * they are) and the sections' names.
 */
export function documentIn<T extends object>(lang: ReferenceLanguage, doc: T): T {
  const walk = (node: unknown, key: string): unknown => {
    if (typeof node === "string") return key === "description" || key === "summary" ? textIn(lang, node) : node;
    if (Array.isArray(node)) return node.map((n) => walk(n, key));
    if (!node || typeof node !== "object") return node;
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === "example" || k === "examples" ? v : k === "tags" && Array.isArray(v) ? v.map((t) => (typeof t === "string" ? tagIn(lang, t) : walk(t, k))) : walk(v, k)]));
  };
  const out = walk(doc, "") as T & { info?: { title?: string } };
  // The document's own name too (a schema's `title` is a type name and stays).
  if (out.info?.title) out.info = { ...out.info, title: textIn(lang, out.info.title) };
  return out;
}

/** ?lang=ru|en when given, else the reader's language (the NEXT_LOCALE cookie, then Accept-Language). */
export function referenceLanguage(url: string, fallback: ReferenceLanguage): ReferenceLanguage {
  const asked = new URL(url).searchParams.get("lang");
  return asked === "ru" || asked === "en" ? asked : fallback;
}
