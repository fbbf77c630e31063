import { describe, expect, it } from "vitest";
import { GET as asyncApiRoute } from "@/app/api/v1/asyncapi.json/route";
import { GET as openApiRoute } from "@/app/api/v1/openapi.json/route";
import { GET as docsPage } from "@/app/api/docs/route";
import { buildAsyncApiDocument } from "@/lib/server/openapi/asyncapi";
import { buildOpenApiDocument } from "@/lib/server/openapi/document";

// Issue 40 item 19: one language per API reference — the Russian one Russian throughout (sections,
// summaries, descriptions, the socket's page), the English one English throughout — the reader's language
// chosen as for every answer, no other project named, and the API itself (paths, parameters, fields)
// the same in both.

type Texts = { tags: string[]; prose: string[] };

/** Section names and every summary or description, paragraph by paragraph (examples and code are data). */
function textsOf(doc: unknown): Texts {
  const out: Texts = { tags: [], prose: [] };
  const walk = (node: unknown, key: string): void => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, key));
    if (node && typeof node === "object") {
      for (const [k, v] of Object.entries(node)) {
        if (k === "example" || k === "examples") continue;
        if (k === "tags" && Array.isArray(v)) {
          for (const t of v) if (typeof t === "string") out.tags.push(t);
          else if (t && typeof t === "object" && "name" in t) out.tags.push(String(t.name));
        }
        walk(v, k);
      }
      return;
    }
    if (typeof node !== "string" || (key !== "description" && key !== "summary")) return;
    for (const p of node.replace(/```[\s\S]*?```/g, "").split("\n\n")) if (p.trim()) out.prose.push(p);
  };
  walk(doc, "");
  return out;
}

const CYRILLIC = /[а-яё]/i;
/** Latin prose outside code, quotes of the product's own texts («…») and names (a word of capitals, ids). */
const englishWords = (s: string) => s.replace(/«[^»]*»/g, "").replace(/`[^`]*`/g, "").match(/\b(the|and|or|of|to|with|is|are|only)\b/gi) ?? [];

/** The document without its words: every path, parameter, schema and status as they are. */
function withoutWords(doc: unknown): unknown {
  if (Array.isArray(doc)) return doc.map(withoutWords);
  if (!doc || typeof doc !== "object") return doc;
  return Object.fromEntries(
    Object.entries(doc)
      .filter(([k]) => k !== "description" && k !== "summary" && k !== "tags")
      // The document's name is words too (info.title: «API Круга» / "Krug API").
      .map(([k, v]) => [k, withoutWords(k === "info" && v && typeof v === "object" ? { ...v, title: undefined } : v)]),
  );
}

describe("the API reference in one language", () => {
  for (const [name, build] of [["OpenAPI", buildOpenApiDocument], ["AsyncAPI", buildAsyncApiDocument]] as const) {
    it(`${name} in Russian: every section, summary and description is Russian`, () => {
      const { tags, prose } = textsOf(build("ru"));
      expect((build("ru") as { info: { title: string } }).info.title).toMatch(CYRILLIC);
      expect(prose.length).toBeGreaterThan(name === "OpenAPI" ? 300 : 20);
      expect(tags.filter((t) => !CYRILLIC.test(t) && t !== "Push")).toEqual([]);
      // A text added in English without its Russian (lib/server/openapi/reference-ru.json) is named here.
      const untranslated = prose.filter((p) => !CYRILLIC.test(p) && englishWords(p).length > 0);
      expect(untranslated).toEqual([]);
    });

    it(`${name} in English: no Russian outside quoted product texts and examples`, () => {
      const { tags, prose } = textsOf(build("en"));
      expect(tags.filter((t) => CYRILLIC.test(t))).toEqual([]);
      expect(prose.filter((p) => CYRILLIC.test(p.replace(/«[^»]*»/g, "")))).toEqual([]);
    });

    it(`${name}: the same API in both languages, and no other project named`, () => {
      const [ru, en] = [build("ru"), build("en")];
      expect(withoutWords(ru)).toEqual(withoutWords(en));
      for (const doc of [ru, en]) expect(JSON.stringify(textsOf(doc))).not.toMatch(/\bVue\b|original client/i);
    });
  }

  it("the socket's section and the page follow the reader's language", async () => {
    const sections = (doc: unknown) => (doc as { tags: { name: string; description?: string }[] }).tags;
    const ruSocket = sections(buildOpenApiDocument("ru")).find((t) => t.name === "Сокет (живые события)");
    expect(ruSocket?.description).toContain("⬇ сервер → клиент: NOTIFICATION");
    expect(ruSocket?.description).toContain("Только с frames=all.");
    const enSocket = sections(buildOpenApiDocument("en")).find((t) => t.name === "Socket (live events)");
    expect(enSocket?.description).toContain("⬇ server → client: NOTIFICATION");

    const ask = (url: string, headers: Record<string, string>) => new Request(`http://localhost${url}`, { headers });
    const titleOf = async (res: Response) => ((await res.json()) as { tags: { name: string }[] }).tags[0].name;
    expect(await titleOf(openApiRoute(ask("/api/v1/openapi.json", { "accept-language": "en-US,en" })))).toBe("Sign-in and registration");
    expect(await titleOf(openApiRoute(ask("/api/v1/openapi.json", { "accept-language": "en-US", cookie: "NEXT_LOCALE=ru" })))).toBe("Вход и регистрация");
    expect(await titleOf(openApiRoute(ask("/api/v1/openapi.json?lang=en", { "accept-language": "ru" })))).toBe("Sign-in and registration");
    expect(openApiRoute(ask("/api/v1/openapi.json", {})).headers.get("vary")).toContain("Accept-Language");
    const socket = (await asyncApiRoute(ask("/api/v1/asyncapi.json", { "accept-language": "ru" })).json()) as { info: { description: string } };
    expect(socket.info.description).toMatch(/^Один WebSocket на вкладку/);
    // The page asks for the document in its own language.
    for (const [lang, header] of [["ru", "ru-RU"], ["en", "en-US"]] as const) {
      const html = await docsPage(ask("/api/docs", { "accept-language": header })).text();
      expect(html).toContain(`/api/v1/openapi.json?lang=${lang}`);
    }
  });
});
