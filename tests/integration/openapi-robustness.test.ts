import { sql } from "drizzle-orm";
import fc from "fast-check";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { resolveViewer } from "@/lib/server/auth/viewer";
import { env } from "@/lib/server/env";
import { createComment } from "@/lib/server/services/comments/comments";
import { createDialog } from "@/lib/server/services/dialogs/dialogs";
import { assertDocumented, openApi, v1Operations, type OperationKey } from "./helpers/contract";
import { signedInAccount } from "./helpers/factories";
import { newPost } from "./post-support";

// Issue 29 §2: a property-based robustness test generated from the OpenAPI document. For every operation
// it sends values of every parameter and body field drawn from the field's own schema (valid) or hostile
// ones (wrong types, extremes, control characters, very long strings, other people's and unknown ids),
// anonymous and signed in. It fails on any 5xx, any answer the document does not describe (helpers/contract),
// and any change stored by a refused request (a digest of every table before and after).
// Short in the integration suite (OPENAPI_ROBUSTNESS_RUNS per operation, default 4); the long run is the
// bench's `--only=robustness` (bench/robustness.ts), which sets it higher.

type Schema = {
  $ref?: string; type?: string | string[]; enum?: unknown[]; const?: unknown; anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[];
  properties?: Record<string, Schema>; required?: string[]; items?: Schema; minimum?: number; maximum?: number; exclusiveMinimum?: number;
  minLength?: number; maxLength?: number; minItems?: number; maxItems?: number; pattern?: string; format?: string; default?: unknown;
  additionalProperties?: unknown;
};
type Parameter = { name: string; in: "path" | "query"; required?: boolean; schema: Schema };
type Op = { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, unknown> };

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const RUNS_PER_OPERATION = Number(process.env.OPENAPI_ROBUSTNESS_RUNS) || 4;

function resolve(s: Schema): Schema {
  let out = s;
  for (let i = 0; out.$ref && i < 10; i++) out = (openApi() as unknown as { components: { schemas: Record<string, Schema> } }).components.schemas[out.$ref.split("/").pop()!];
  return out;
}

// ---- Hostile values ----

const HOSTILE: unknown[] = [
  "\u0000", "a\u0000b", "\u0007\u001b[2J", "\ud800", "😀", "", " ", "\t\n", "-1", "0", "1e308", "9".repeat(40), "9007199254740993",
  "NaN", "null", "true", "[]", "{}", "<script>alert(1)</script>", "'; drop table accounts; --", "../../etc/passwd", "%00", "%zz",
  "x".repeat(10_000), "я".repeat(3_000), -1, 0, 1.5, 2 ** 31, -(2 ** 63), Number.MAX_SAFE_INTEGER + 2, 1e308, true, false, null, [], {}, [1, 2], { a: 1 },
];
const hostile = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...HOSTILE) }, { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) });

// ---- Valid values from a schema ----

function fromSchema(raw: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(raw);
  if (depth > 4) return fc.constant(null);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const union = s.anyOf ?? s.oneOf;
  if (union) return fc.oneof(...union.map((u) => fromSchema(u, depth + 1)));
  if (s.allOf) return fromSchema(s.allOf[0], depth + 1);
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : ["string"];
  return fc.oneof(...types.map((t) => typed(t, s, depth)));
}

function typed(type: string, s: Schema, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer": {
      const min = s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : (s.minimum ?? -5);
      return fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(s.maximum ?? 2 ** 31, 2 ** 31) });
    }
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: s.minimum ?? -1e6, max: s.maximum ?? 1e6 });
    case "array":
      return fc.array(s.items ? fromSchema(s.items, depth + 1) : fc.string(), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, 3) });
    case "object": {
      const props = Object.entries(s.properties ?? {});
      const required = new Set(s.required ?? []);
      return fc.record(Object.fromEntries(props.map(([k, v]) => [k, fromSchema(v, depth + 1)])), { requiredKeys: props.map(([k]) => k).filter((k) => required.has(k)) });
    }
    default: {
      if (s.format === "uuid") return fc.uuid();
      if (s.format === "email") return fc.emailAddress();
      if (s.pattern) {
        try {
          return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length <= (s.maxLength ?? 200));
        } catch {
          /* a pattern JS cannot read: plain strings */
        }
      }
      const min = s.minLength ?? 0;
      return fc.string({ minLength: min, maxLength: Math.max(min, Math.min(s.maxLength ?? 40, 40)) });
    }
  }
}

/** A valid-ish value or, one time in three, a hostile one — for each field on its own. */
function field(s: Schema): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 2, arbitrary: fromSchema(s) }, { weight: 1, arbitrary: hostile });
}

/** A body: an object whose fields are each valid or hostile (or an extra unknown key), or something else entirely. */
function body(s: Schema): fc.Arbitrary<unknown> {
  const r = resolve(s);
  const props = Object.entries(r.properties ?? {});
  if (!props.length) return fc.oneof(fromSchema(r), hostile);
  const required = new Set(r.required ?? []);
  const obj = fc.record(Object.fromEntries(props.map(([k, v]) => [k, field(v)])), { requiredKeys: props.map(([k]) => k).filter((k) => required.has(k)) });
  return fc.oneof({ weight: 6, arbitrary: obj }, { weight: 1, arbitrary: obj.map((o) => ({ ...o, unknownField: "\u0000" })) }, { weight: 1, arbitrary: hostile });
}

// ---- Who asks, and about what ----

type Who = "anonymous" | "owner" | "stranger" | "admin";
type Seeds = { tokens: Record<Exclude<Who, "anonymous">, string>; own: Record<string, number>; other: Record<string, number> };
let seeds: Seeds;
let operations: { key: OperationKey; handler: (req: NextRequest, route: { params: Promise<Record<string, unknown>> }) => Promise<Response>; op: Op }[];

/** Signing out, deleting the account or changing the password end the asker's session: a fresh account asks those. */
const SESSION_ENDING = new Set(["delete /api/v1/account/me", "post /api/v1/auth/logout", "put /api/v1/auth/password"]);

/** An id by what the path names: the owner's own thing, someone else's, one that does not exist, or a hostile value. */
function pathValue(path: string, name: string): fc.Arbitrary<unknown> {
  const kind = name === "commentId" || path.includes("/admin/comments/") ? "comment" : path.includes("/post/") || path.includes("/admin/posts/") ? "post" : path.includes("/dialogs/") && !path.includes("recipientId") ? (name === "messageId" ? "message" : "dialog") : "account";
  if (name === "secret" || name === "key" || name === "kind") return fc.oneof(fc.constantFrom("account", "post", "0123456789abcdef0123456789abcdef.webp", "x".repeat(43)), hostile.map(String));
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(String(seeds.own[kind]), String(seeds.other[kind])) },
    { weight: 1, arbitrary: fc.constantFrom("999999999", "0", "-1", "1e3", "0x10", "9007199254740993") },
    { weight: 1, arbitrary: hostile.map((v) => (typeof v === "string" ? v.replace(/[\ud800-\udfff]/g, "\ufffd") : String(v))) },
  );
}

async function digest(): Promise<string> {
  const rows = (await getDb().execute(sql`
    select table_name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE'
      and table_name not in ('rate_limits', '__drizzle_migrations') and table_name not like 'pgboss%'
    order by table_name`)) as unknown as { table_name: string }[];
  const parts = rows.map((r) => `select '${r.table_name}' as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${r.table_name}" x`);
  const res = (await getDb().execute(sql.raw(parts.join(" union all ")))) as unknown as { t: string; h: string }[];
  return res.map((r) => `${r.t}:${r.h}`).join(",");
}

beforeAll(async () => {
  const [owner, stranger, admin] = await Promise.all([signedInAccount(), signedInAccount(), signedInAccount()]);
  await getDb().execute(sql`update accounts set role = 'ADMIN' where id = ${admin.id}`);
  await resolveViewer(getDb(), admin.accessToken, env().AUTH_SECRET);
  const mine = await newPost(owner.ctx);
  const theirs = await newPost(stranger.ctx);
  const myComment = await createComment({ ctx: owner.ctx, input: { postId: mine.id, body: { commentText: "Мой комментарий" } } });
  const theirComment = await createComment({ ctx: stranger.ctx, input: { postId: theirs.id, body: { commentText: "Чужой комментарий" } } });
  const { dialog } = await createDialog({ ctx: owner.ctx, input: { recipientId: stranger.id } });
  seeds = {
    tokens: { owner: owner.accessToken, stranger: stranger.accessToken, admin: admin.accessToken },
    own: { account: owner.id, post: mine.id, comment: myComment.id, dialog: dialog.id, message: 1 },
    other: { account: stranger.id, post: theirs.id, comment: theirComment.id, dialog: 999_999, message: 999_999 },
  };
  const doc = openApi() as unknown as { paths: Record<string, Record<string, Op>> };
  operations = (await v1Operations()).map(({ key, handler }) => ({ key, handler: handler as never, op: doc.paths[key.path][key.method] }));
}, 60_000);

describe("every operation of the OpenAPI document against values from its own schemas — property", () => {
  it("no 5xx, every answer as documented, nothing stored by a refusal", async () => {
    let before = await digest();
    let dirty = false;
    let sent = 0;
    for (const { key, handler, op } of operations) {
      const params = (op.parameters ?? []).filter((p) => p.in === "path");
      const query = (op.parameters ?? []).filter((p) => p.in === "query");
      const bodySchema = op.requestBody?.content["application/json"]?.schema;
      const request = fc.record({
        who: fc.constantFrom<Who>("anonymous", "owner", "owner", "stranger", ...(key.path.includes("/admin") ? (["admin", "admin"] as const) : [])),
        path: fc.record(Object.fromEntries(params.map((p) => [p.name, pathValue(key.path, p.name)]))),
        query: fc.record(Object.fromEntries(query.map((p) => [p.name, field(p.schema)])), { requiredKeys: [] }),
        body: bodySchema ? fc.option(body(bodySchema), { nil: undefined, freq: 6 }) : fc.constant(undefined),
      });
      await fc.assert(
        fc.asyncProperty(request, async ({ who, path: rawPath, query: q, body: b }) => {
          // A path segment as Next hands it over: decoded UTF-8, so never a lone surrogate.
          const path = Object.fromEntries(Object.entries(rawPath).map(([k, v]) => [k, String(v).replace(LONE_SURROGATE, "\ufffd")]));
          const fresh = who !== "anonymous" && SESSION_ENDING.has(`${key.method} ${key.path}`);
          const token = who === "anonymous" ? undefined : fresh ? (await signedInAccount()).accessToken : seeds.tokens[who];
          if (dirty || fresh) before = await digest();
          const headers = new Headers();
          if (token) headers.set("authorization", `Bearer ${token}`);
          if (b !== undefined) headers.set("content-type", "application/json");
          const search = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, typeof v === "string" ? v.replace(LONE_SURROGATE, "\ufffd") : JSON.stringify(v) ?? ""]));
          const url = new URL(`http://localhost:3000${key.path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(String(path[n])))}?${search}`);
          const req = new NextRequest(url, { method: key.method.toUpperCase(), headers, body: b === undefined ? undefined : JSON.stringify(b) });
          const res = await handler(req, { params: Promise.resolve(path) });
          const text = await res.text();
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            /* not JSON */
          }
          const context = `${who} ${key.method.toUpperCase()} ${url.pathname}${url.search.slice(0, 300)} body ${JSON.stringify(b)?.slice(0, 300)} → ${res.status} ${text.slice(0, 300)}`;
          expect(res.status, context).toBeLessThan(500);
          assertDocumented(key, res.status, res.headers.get("content-type"), parsed);
          if (res.status >= 400) {
            const after = await digest();
            expect(after, `a refused request changed stored data: ${context}`).toBe(before);
            dirty = false;
          } else dirty = true;
          sent++;
        }),
        { numRuns: RUNS_PER_OPERATION, endOnFailure: true },
      );
    }
    expect(sent).toBe(operations.length * RUNS_PER_OPERATION);
  }, 1_800_000);
});
