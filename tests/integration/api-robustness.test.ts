import { readdirSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { resolveViewer } from "@/lib/server/auth/viewer";
import { env } from "@/lib/server/env";
import { createComment } from "@/lib/server/services/comments/comments";
import { createDialog } from "@/lib/server/services/dialogs/dialogs";
import { signedInAccount } from "./helpers/factories";
import { newPost } from "./post-support";

// Issue 24 item 9 and issue 29: every route handler of app/api, every method it exports, mutated requests
// (control characters, lone surrogates, huge numbers, malformed JSON, wrong types, deep arrays, bad dates,
// % escapes) signed out, as a user and as an administrator. Not one answer may be a 5xx, and every
// refusal is the JSON envelope. Bounded here (about 3,500 requests); KRUG_ROBUSTNESS_RUNS makes the
// random part as long as wanted (see below).

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
type Handler = (req: NextRequest, route: { params: Promise<Record<string, unknown>> }) => Promise<Response>;
type Route = { template: string; method: string; handler: Handler; params: { name: string; catchAll: boolean }[] };

const API_DIR = path.resolve(__dirname, "../../app/api");

/** Every route.ts under app/api, with its exported methods and the dynamic segments of its path. */
export async function apiRoutes(): Promise<Route[]> {
  const files = readdirSync(API_DIR, { recursive: true, encoding: "utf8" })
    .filter((f) => path.basename(f) === "route.ts")
    .sort();
  const routes: Route[] = [];
  for (const file of files) {
    const dir = path.dirname(file) === "." ? "" : path.dirname(file);
    const segments = dir ? dir.split(path.sep) : [];
    const params = segments
      .map((s) => /^\[\[?(\.\.\.)?([^\]]+)\]\]?$/.exec(s))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ name: m[2], catchAll: Boolean(m[1]) }));
    const mod = (await import(/* @vite-ignore */ path.join(API_DIR, file))) as Record<string, unknown>;
    for (const method of METHODS) {
      if (typeof mod[method] === "function") routes.push({ template: `/api/${segments.join("/")}`.replace(/\/$/, ""), method, handler: mod[method] as Handler, params });
    }
  }
  return routes;
}

// ---- Hostile values ----

const HOSTILE_STRINGS = [
  "\u0000", "a\u0000b", "%00", "\u0007\u001b[2J", "\ud800", "x\udfff", "😀", "", " ", "\t\n",
  "-1", "0", "1.5", "1e308", "9".repeat(40), "9007199254740993", "NaN", "Infinity", "null", "true", "[]", "{}",
  "abc", "2020-13-45", "2100-01-01", "1969-12-31T23:59:59Z", "0000-00-00", "2020-02-30T25:61:00+99:99",
  "%E0%A4%A", "%ff", "%zz", "<script>alert(1)</script>", "'; drop table accounts; --", "../../etc/passwd",
  "FRIEND", "IMAGE", "time,desc", "id,desc", "ru", "POST", "x".repeat(5_000),
];

const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom("\u0000", "\ud800", "\udc00", "a", "%", "1", "-", ","), maxLength: 12 }) },
);

const QUERY_KEYS = [
  "text", "author", "firstName", "lastName", "country", "city", "countryId", "cityId", "ageFrom", "ageTo", "isDeleted",
  "showFriends", "sort", "page", "size", "statusCode", "withFriends", "tags", "dateFrom", "dateTo", "accountIds",
  "accountId", "name", "query", "blocked", "deleted", "role", "staff", "from", "to", "interval", "date", "firstMonth",
  "lastMonth", "dialogId", "recipientId", "beforeId", "type", "id", "secret",
];
const BODY_KEYS = [
  "messageText", "clientId", "recipientId", "dialogId", "title", "postText", "tags", "imagePath", "publishDate", "id",
  "commentText", "parentId", "reason", "role", "email", "password", "password1", "password2", "firstName", "lastName",
  "captchaCode", "captchaSecret", "secret", "refreshToken", "about", "birthDate", "phone", "photo", "profileCover",
  "country", "city", "countryId", "cityId", "emojiStatus", "isDeleted", "notificationType", "enable", "reactionType", "type",
];

/**
 * A path segment as Next hands it over: decoded from UTF-8, so never a lone surrogate (a path whose
 * escapes are not UTF-8 is refused before routing: app-server-hostile.test.ts). NUL and the rest stay.
 */
function decodable(segment: string): string {
  return segment.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

let ids: string[] = [];
const idLike = () => fc.oneof(fc.constantFrom(...ids), hostileString);

const jsonValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -0, 1e308, 2 ** 31, -(2 ** 63)),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...BODY_KEYS), tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** A body that parses as JSON: an object of known keys with hostile values, or not an object at all. */
const jsonBody = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(fc.constantFrom(...BODY_KEYS), jsonValue, { maxKeys: 6 }) },
  { weight: 1, arbitrary: jsonValue },
);

/** Raw bodies JSON.parse refuses or that go deep. */
const rawBody = fc.constantFrom(
  "{", '{"messageText": "\\u0000"', "{'a':1}", "[".repeat(5_000) + "]".repeat(5_000), "\u0000", '{"a":"\\ud800"}',
  '{"postText":"\\u0000","title":"\\u0000\\u0000\\u0000\\u0000"}', "null", "1e999", '"' + "x".repeat(70_000) + '"',
);

const bodySpec: fc.Arbitrary<BodySpec> = fc.oneof<fc.Arbitrary<BodySpec>[]>(
  fc.record({ kind: fc.constant("none" as const) }),
  fc.record({ kind: fc.constant("json" as const), value: jsonBody, contentType: fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", "") }),
  fc.record({ kind: fc.constant("raw" as const), value: rawBody, contentType: fc.constantFrom("application/json", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded") }),
);

/** Percent-encoded; a lone surrogate becomes the bytes of one (%ED%A0%80: not UTF-8 at all). */
function encode(value: string): string {
  return Array.from(value, (c) => {
    try {
      return encodeURIComponent(c);
    } catch {
      return "%ED%A0%80";
    }
  }).join("");
}

/** A query string, some values percent-encoded, some raw (malformed escapes included). */
const queryString = fc
  .array(fc.tuple(fc.constantFrom(...QUERY_KEYS), hostileString, fc.boolean()), { maxLength: 5 })
  .map((pairs) => pairs.map(([k, v, raw]) => `${k}=${raw ? v.replace(/[#&]/g, "") : encode(v)}`).join("&"));

// ---- Who asks ----

type Who = "anonymous" | "user" | "admin";
const tokens: Partial<Record<Who, string>> = {};
/** Requests that end the asker's session or account get a fresh account, so the others keep theirs. */
const SESSION_ENDING = new Set(["DELETE /api/v1/account/me", "POST /api/v1/auth/logout"]);

async function tokenFor(who: Who, route: Route): Promise<string | undefined> {
  if (who === "anonymous") return undefined;
  if (SESSION_ENDING.has(`${route.method} ${route.template}`)) return (await signedInAccount()).accessToken;
  return tokens[who];
}

type Sent = { status: number; contentType: string; body: string };

type BodySpec = { kind: "none" } | { kind: "json"; value: unknown; contentType: string } | { kind: "raw"; value: string; contentType: string };

async function send(route: Route, who: Who, params: Record<string, unknown>, query: string, body: BodySpec): Promise<Sent> {
  const headers = new Headers();
  const token = await tokenFor(who, route);
  if (token) headers.set("authorization", `Bearer ${token}`);
  let payload: string | undefined;
  const hasBody = !["GET", "HEAD"].includes(route.method) && body.kind !== "none";
  if (hasBody) {
    payload = body.kind === "json" ? (JSON.stringify(body.value) ?? "null") : body.value;
    if (body.contentType) headers.set("content-type", body.contentType);
  }
  const url = new URL(`http://localhost:3000${route.template}${query ? `?${query}` : ""}`);
  const req = new NextRequest(url, { method: route.method, headers, body: hasBody ? payload : undefined });
  const res = await route.handler(req, { params: Promise.resolve(params) });
  return { status: res.status, contentType: res.headers.get("content-type") ?? "", body: route.method === "HEAD" ? "" : await res.text() };
}

function checkAnswer(route: Route, sent: Sent, context: () => string) {
  // Readiness says 503 when the database lags the code's migrations (another change may add one meanwhile).
  if (route.template === "/api/ready" && sent.status === 503) return;
  expect(sent.status, `5xx from ${route.method} ${route.template}: ${context()}\n${sent.body.slice(0, 500)}`).toBeLessThan(500);
  if (sent.status >= 400 && route.method !== "HEAD") {
    expect(sent.contentType, `${route.method} ${route.template}: ${context()}`).toMatch(/^application\/json/);
    const parsed = JSON.parse(sent.body);
    expect(typeof parsed.error?.code, `${route.method} ${route.template}: ${sent.body}`).toBe("string");
    expect(typeof parsed.error?.message).toBe("string");
    expect(typeof parsed.requestId).toBe("string");
  }
}

// ---- One field at a time ----

/** Query values a route accepts, so that the one hostile field of a request is what reaches the service. */
const VALID_QUERY: Record<string, string> = { page: "0", size: "5", dateFrom: "2000-01-01", dateTo: "2100-01-01" };

/** Body values most writes accept (unknown keys are ignored), each field then replaced in turn. */
function validBody(): Record<string, unknown> {
  return {
    title: "Заголовок поста", postText: "Обычный текст поста без разметки", messageText: "привет", commentText: "комментарий",
    reason: "спам", email: "robust@example.com", password: "Secret-pass1!", password1: "Secret-pass1!", password2: "Secret-pass1!",
    firstName: "Анна", lastName: "Иванова", about: "обо мне", city: "Москва", country: "Россия", phone: "+7 999 123-45-67",
    birthDate: "1990-01-01", emojiStatus: "happy", notificationType: "POST", enable: true, reactionType: "heart", type: "POST",
    tags: [{ name: "тег" }], publishDate: null, imagePath: null, recipientId: Number(ids[0]), dialogId: Number(ids[3]),
    id: Number(ids[1]), parentId: null, role: "USER", captchaCode: "ACE347", captchaSecret: "x", secret: "x".repeat(43),
    refreshToken: "x".repeat(40), clientId: "8f14e45f-ceea-4e6d-9a0e-3c5b7a1d2e4f", photo: null, isDeleted: false, countryId: "RU", cityId: null,
  };
}

/** A real id for a path segment, by what the route's path says it names. */
function validParam(template: string, name: string): string | string[] {
  const [account, post, comment, dialog, , kind, , key] = ids;
  if (name === "path") return ["nope"];
  if (name === "commentId") return comment;
  if (name === "key") return key;
  if (name === "kind") return kind;
  if (name === "secret") return "x".repeat(43);
  if (template.includes("/admin/comments/")) return comment;
  if (template.includes("/post/") || template.includes("/admin/posts/")) return post;
  if (template.includes("/dialogs/") && !template.includes("recipientId")) return dialog;
  return account;
}

let routes: Route[];

beforeAll(async () => {
  routes = await apiRoutes();
  const [user, other, admin] = await Promise.all([signedInAccount(), signedInAccount(), signedInAccount()]);
  await getDb().execute(sql`update accounts set role = 'ADMIN' where id = ${admin.id}`);
  await resolveViewer(getDb(), admin.accessToken, env().AUTH_SECRET);
  tokens.user = user.accessToken;
  tokens.admin = admin.accessToken;
  // Real ids of things other people own, so a mutation can get past "not found" (never the askers' own accounts).
  const post = await newPost(other.ctx);
  const comment = await createComment({ ctx: other.ctx, input: { postId: post.id, body: { commentText: "Комментарий" } } });
  const { dialog } = await createDialog({ ctx: user.ctx, input: { recipientId: other.id } });
  ids = [String(other.id), String(post.id), String(comment.id), String(dialog.id), "RU", "account", "post", "0123456789abcdef0123456789abcdef.webp"];
}, 60_000);

describe("every API route against hostile requests — property", () => {
  it("finds every route handler", () => {
    expect(routes.length).toBeGreaterThanOrEqual(80);
    expect(routes.map((r) => `${r.method} ${r.template}`)).toEqual(expect.arrayContaining(["GET /api/health", "POST /api/v1/dialogs/[id]/messages", "PUT /api/v1/admin/posts/[id]/block"]));
  });

  it("every field of every route, one at a time, holding a NUL (staff routes as an administrator)", async () => {
    let sent = 0;
    for (const route of routes) {
      const params = Object.fromEntries(route.params.map((p) => [p.name, validParam(route.template, p.name)]));
      const inQuery = ["GET", "HEAD", "DELETE", "OPTIONS"].includes(route.method);
      const who: Who = route.template.includes("/admin") ? "admin" : "user";
      // Signing out and deleting the account read no field: once is enough (each costs a new account).
      const keys = SESSION_ENDING.has(`${route.method} ${route.template}`) ? ["page"] : inQuery ? QUERY_KEYS : BODY_KEYS;
      for (const key of keys) {
        const value = "x\u0000y";
        const query = inQuery ? Object.entries({ ...VALID_QUERY, [key]: value }).map(([k, v]) => `${k}=${encode(v)}`).join("&") : "";
        const body: BodySpec = inQuery ? { kind: "none" } : { kind: "json", value: { ...validBody(), [key]: value }, contentType: "application/json" };
        checkAnswer(route, await send(route, who, params, query, body), () => `${who} ${key}=${JSON.stringify(value)}`);
        sent++;
      }
    }
    expect(sent).toBeGreaterThan(3_000);
  }, 600_000);

  it("answers no mutated request with a 5xx, and refuses in the JSON envelope", async () => {
    const request = fc.record({
      route: fc.integer({ min: 0, max: routes.length - 1 }),
      who: fc.constantFrom<Who>("anonymous", "user", "user", "admin"),
      params: fc.array(fc.oneof(idLike(), fc.array(hostileString, { maxLength: 3 })), { minLength: 3, maxLength: 3 }),
      query: queryString,
      body: bodySpec,
    });
    // Every method/route pair three times in turn, then random ones: bounded, about ten seconds here.
    // The long run: KRUG_ROBUSTNESS_RUNS=10000 npx vitest run --project integration tests/integration/api-robustness.test.ts
    const numRuns = Number(process.env.KRUG_ROBUSTNESS_RUNS) || routes.length * 5;
    let i = 0;
    await fc.assert(
      fc.asyncProperty(request, async ({ route: pick, who, params: values, query, body }) => {
        const route = routes[i < routes.length * 3 ? i % routes.length : pick];
        i++;
        const params: Record<string, unknown> = {};
        route.params.forEach((p, n) => {
          const v = values[n];
          params[p.name] = p.catchAll ? (Array.isArray(v) ? v : [v]).map(decodable) : decodable(Array.isArray(v) ? String(v[0] ?? "") : v);
        });
        const sent = await send(route, who, params, query, body);
        checkAnswer(route, sent, () => JSON.stringify({ who, params, query, body }).slice(0, 800));
      }),
      { numRuns, endOnFailure: true },
    );
  }, 600_000);
});
