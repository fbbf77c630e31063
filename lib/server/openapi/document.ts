import "server-only";
// The OpenAPI 3.1 document of /api/v1 (issue 29, docs/adr/0138), generated from the zod schemas of
// lib/validation: the request schemas the routes parse with and the strict answer schemas of the *-api.ts
// files. Built once per process (GET /api/v1/openapi.json serves it); docs/api/openapi.json is the
// committed snapshot (tests/unit/openapi-snapshot.test.ts), versioning rules in docs/adr/0139.
import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { registerOperation } from "@/lib/validation/api-common";
import { registerAccountsApi } from "@/lib/validation/accounts-api";
import { registerAuthApi } from "@/lib/validation/auth-api";
import { registerCommunitiesApi } from "@/lib/validation/communities-api";
import { registerDialogsApi } from "@/lib/validation/dialogs-api";
import { registerMoreApi } from "@/lib/validation/more-api";
import { registerPostsApi } from "@/lib/validation/posts-api";
import { socketReferenceMarkdown } from "./asyncapi";
import { documentIn, tagIn, type ReferenceLanguage } from "./language";

export const API_VERSION = "1.0.0";

const DESCRIPTION = `Krug's HTTP API: the calls Krug's own pages make, open to any client written to the specification.

**Sessions.** POST auth/login answers a token pair; send the access token as \`Authorization: Bearer …\`, or let a browser keep the httpOnly cookies \`access_token\` / \`refresh_token\`. A 401 means: renew once with POST auth/refresh, then retry. A cookie write (POST, PUT, DELETE) from another origin is refused (403).

**Errors.** Every refusal has the same envelope \`{error: {code, message, issues?}, requestId}\`; the message is in the caller's language (Russian by default, \`Accept-Language\` or the \`NEXT_LOCALE\` cookie). Bad input is 400 or 422 with per-field issues; nothing a client can send gives a 5xx.

**Lists.** Pages are \`{content, totalPages, totalElements, size, number}\` with a zero-based \`number\`; page and size are query parameters.

**Limits.** Every repeatable write has a per-account rate limit (429 with Retry-After). Sizes and lengths are in each schema.

**Blocks.** When either of two accounts blocked the other, each one's posts, comments, page details and presence are hidden from the other (404), and neither can write to, ask for friendship of, or react to the other.

**Live events.** A WebSocket at /api/v1/streaming carries MESSAGE and NOTIFICATION frames: see the AsyncAPI document at /api/v1/asyncapi.json.

**Versioning.** Everything under /api/v1 changes only by adding (fields, calls, optional parameters); a breaking change gets /api/v2 (docs/adr/0139).`;

const cached: Partial<Record<ReferenceLanguage, object>> = {};

/** The document in one language (ru or en: sections, summaries and descriptions; docs/adr/0167). */
export function buildOpenApiDocument(lang: ReferenceLanguage = "en"): object {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "bearer", { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "The accessToken of POST auth/login or auth/refresh." });
  registry.registerComponent("securitySchemes", "cookie", { type: "apiKey", in: "cookie", name: "access_token", description: "The httpOnly cookie a browser session keeps (set by sign-in, registration and refresh)." });
  registerAuthApi(registry);
  registerAccountsApi(registry);
  registerPostsApi(registry);
  registerDialogsApi(registry);
  registerCommunitiesApi(registry);
  registerMoreApi(registry);
  registerReferenceApi(registry);
  const doc = new OpenApiGeneratorV31(registry.definitions, { sortComponents: "alphabetically" }).generateDocument({
    openapi: "3.1.0",
    info: { title: "Krug API", version: API_VERSION, description: DESCRIPTION },
    servers: [{ url: "/", description: "This server" }],
    tags: [
      "Вход и регистрация", "Аккаунт", "Друзья", "Записи", "Комментарии", "Файлы", "Сообщения", "Сообщества", "Уведомления", "Push", "Жалобы", "Модерация", "География",
    ]
      .map((name): { name: string; description?: string } => ({ name }))
      .concat([{ name: "Сокет (живые события)" }, { name: "Справка", description: "The reference itself." }]),
  });
  // One language throughout; the socket's section is written in it (its frames' examples are data).
  doc.tags = (doc.tags ?? []).map((t) => ({ ...t, name: tagIn(lang, t.name), ...(t.name === "Сокет (живые события)" ? { description: socketReferenceMarkdown(lang) } : {}) }));
  const localised = documentIn(lang, doc);
  // A query default of a schema that transforms ("true" → true) is the parsed value; in a query it is text.
  for (const ops of Object.values(localised.paths ?? {})) {
    for (const op of Object.values(ops as Record<string, { parameters?: { schema?: { type?: unknown; default?: unknown } }[] }>)) {
      for (const p of op.parameters ?? []) {
        if (p.schema && p.schema.type === "string" && p.schema.default !== undefined && typeof p.schema.default !== "string") p.schema.default = String(p.schema.default);
      }
    }
  }
  return localised;
}

/** The document in `lang`, built on first use and kept for the process. */
export function openApiDocument(lang: ReferenceLanguage): object {
  return (cached[lang] ??= buildOpenApiDocument(lang));
}

function registerReferenceApi(registry: OpenAPIRegistry): void {
  const tag = "Справка";
  const any = z.record(z.string(), z.unknown());
  registerOperation(registry, {
    method: "get", path: "/api/v1/openapi.json", tag, access: "public",
    summary: "This document", description: "The OpenAPI 3.1 document of /api/v1, generated from the code (the page /api/docs shows it), in the reader's language: ?lang=ru or ?lang=en, else the NEXT_LOCALE cookie, then Accept-Language.",
    ok: { 200: { description: "The document.", schema: any } },
  });
  registerOperation(registry, {
    method: "get", path: "/api/v1/asyncapi.json", tag, access: "public",
    summary: "The socket's document", description: "The AsyncAPI 3 document of the WebSocket at /api/v1/streaming/ws: every frame in both directions, in the reader's language like this one.",
    ok: { 200: { description: "The document.", schema: any } },
  });
}
