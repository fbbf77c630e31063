// The pieces every domain's reference shares (issue 29, docs/adr/0138): the error envelope, the page
// envelope, the people cards and a helper that registers one operation with its security, its refusals and
// the rules in words. Response schemas are strict objects: a field the document does not name fails the
// contract test (tests/integration/helpers/contract.ts). Server and tests only — never imported by a page.
import type { OpenAPIRegistry, RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

export const ERROR_CODES = [
  "bad_request",
  "validation_failed",
  "unauthorized",
  "forbidden",
  "not_found",
  "method_not_allowed",
  "conflict",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "internal_error",
  "unavailable",
] as const;

export const errorEnvelope = z
  .strictObject({
    error: z.strictObject({
      code: z.enum(ERROR_CODES),
      message: z.string().meta({ description: "Already translated into the request's language (ru by default)." }),
      issues: z.array(z.strictObject({ path: z.string(), message: z.string() })).optional(),
    }),
    requestId: z.string(),
  })
  .meta({
    id: "Error",
    description: "Every refusal: a stable code, a message in the caller's language, per-field issues for bad input and the request id (also in X-Request-Id).",
    example: { error: { code: "validation_failed", message: "Неверные данные", issues: [{ path: "commentText", message: "Комментарий не может быть пустым" }] }, requestId: "3f1c2a9e-6b1d-4c55-9a56-0b9f2a7d1e4c" },
  });

/**
 * A registered (named) schema or null. zod-to-openapi renders `.nullable()` of a named schema as
 * allOf [$ref, {type: [object, null]}], which no value but an object matches; a union says it right.
 */
export function orNull<T extends z.ZodType>(schema: T) {
  return z.union([schema, z.null()]);
}

/** ISO 8601 in UTC. */
export const isoTime = z.string().meta({ description: "ISO 8601 time (UTC)", example: "2026-11-27T12:30:00.000Z" });
export const id = z.number().int().meta({ example: 42 });

export function pageOf<T extends z.ZodType>(item: T, name: string) {
  return z
    .strictObject({
      content: z.array(item),
      totalPages: z.number().int(),
      totalElements: z.number().int(),
      size: z.number().int(),
      number: z.number().int().meta({ description: "Zero-based page index." }),
    })
    .meta({ id: name, description: "The paging envelope of every list (spec section 3)." });
}

export const okBody = z.strictObject({ ok: z.literal(true) }).meta({ id: "Ok" });
export const countBody = z.strictObject({ count: z.number().int() }).meta({ id: "Count", example: { count: 3 } });

export const personCard = z
  .strictObject({
    id,
    firstName: z.string(),
    lastName: z.string(),
    photo: z.string().nullable(),
    fediverseAddress: z.string().optional().meta({ description: "Only for a person of another server (issue 43): their fediverse address, user@server." }),
  })
  .meta({ id: "PersonCard", example: { id: 42, firstName: "Анна", lastName: "Смирнова", photo: "/api/v1/storage/files/a1b2c3.webp" } });

export const FRIEND_STATUS_VALUES = ["FRIEND", "REQUEST_TO", "REQUEST_FROM", "SUBSCRIBED", "WATCHING", "BLOCKED", "REJECTING"] as const;
export const friendStatus = z.enum(FRIEND_STATUS_VALUES).meta({ id: "FriendStatus" });

// ---- One operation ----

/** Who may call: nobody signed in needed, either, any signed-in account, moderators and administrators, administrators. */
export type Access = "public" | "optional" | "user" | "staff" | "admin";

type Answer = { description: string; schema?: z.ZodType; contentType?: string; headers?: Record<string, string> };

export type Operation = {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** The Next.js route's path with {param} for each [param] folder. */
  path: string;
  tag: string;
  summary: string;
  description: string;
  access: Access;
  params?: z.ZodObject;
  query?: z.ZodType;
  body?: z.ZodType;
  bodyRequired?: boolean;
  bodyExample?: unknown;
  /** Success answers by status. */
  ok: Record<number, Answer>;
  /** Refusals beyond the ones the helper adds from the operation's shape. */
  errors?: number[];
  rateLimited?: boolean;
};

const ERROR_TEXT: Record<number, string> = {
  400: "Bad input: a value that cannot be read (the envelope's issues say which).",
  401: "Not signed in, or the access token expired (refresh with POST auth/refresh and retry once).",
  403: "Not allowed: someone else's item, a block between the two accounts, a closed page, a deleted or blocked account, a missing role, or a cookie write from another origin.",
  404: "Unknown, deleted or not visible to the caller (a block hides an account's items as if they did not exist).",
  409: "Conflicts with the current state (for example already done).",
  413: "The body is larger than the call accepts.",
  415: "The body is not of the media type the call reads.",
  422: "The body or query is well formed but breaks a rule (issues name the fields).",
  429: "A rate limit was spent: wait the seconds of Retry-After.",
  503: "The database or another service the call needs is unreachable for a moment: retry after Retry-After seconds.",
};

const ACCESS_TEXT: Record<Access, string> = {
  public: "Anyone (no session needed).",
  optional: "Anyone; a session, when sent, is used.",
  user: "A signed-in account (Bearer token or the session cookie).",
  staff: "Moderators and administrators only (403 for everyone else).",
  admin: "Administrators only (403 for everyone else).",
};

type Def = { type: string; in?: z.ZodType; out?: z.ZodType; innerType?: z.ZodType };
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/**
 * The side of a request schema a client sends: a preprocess (pipe from a transform) is described by the
 * schema after it, a trailing .transform by the schema before it. The routes still parse with the whole.
 */
export function inputSide(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (let i = 0; i < 8; i++) {
    const def = defOf(s);
    if (def.type === "pipe" && def.in && def.out) {
      s = defOf(def.in).type === "transform" ? def.out : def.in;
    } else if (def.type === "optional" && def.innerType && defOf(def.innerType).type === "pipe") {
      s = def.innerType;
    } else break;
  }
  return s;
}

export function registerOperation(registry: OpenAPIRegistry, op: Operation): void {
  const errors = new Set<number>(op.errors ?? []);
  if (op.access === "user" || op.access === "staff" || op.access === "admin") {
    errors.add(401);
    errors.add(403);
  }
  if (op.params || op.query || op.body) {
    errors.add(400);
    errors.add(422);
  }
  if (op.params) errors.add(404);
  if (op.body) {
    errors.add(413);
    errors.add(415);
  }
  if (op.rateLimited) errors.add(429);
  // The database away is 503 with Retry-After for any call that reads it (never a 500).
  if (op.access !== "public" || op.params) errors.add(503);
  for (const s of Object.keys(op.ok)) errors.delete(Number(s));

  const responses: RouteConfig["responses"] = {};
  for (const [status, a] of Object.entries(op.ok)) {
    responses[status] = {
      description: a.description,
      ...(a.headers ? { headers: Object.fromEntries(Object.entries(a.headers).map(([k, d]) => [k, { description: d, schema: { type: "string" } }])) } : {}),
      ...(a.schema ? { content: { [a.contentType ?? "application/json"]: { schema: a.schema } } } : {}),
    };
  }
  for (const status of [...errors].sort()) {
    responses[String(status)] = {
      description: ERROR_TEXT[status] ?? "Refused.",
      ...(status === 429 || status === 503 ? { headers: { "Retry-After": { description: "Seconds to wait.", schema: { type: "string" } } } } : {}),
      content: { "application/json": { schema: errorEnvelope } },
    };
  }
  const signed = op.access === "user" || op.access === "staff" || op.access === "admin";
  registry.registerPath({
    method: op.method,
    path: op.path,
    tags: [op.tag],
    summary: op.summary,
    description: `${op.description}\n\n**Who may call:** ${ACCESS_TEXT[op.access]}${op.rateLimited ? "\n\n**Rate limit:** per account (or per address when signed out); over it → 429 with Retry-After." : ""}`,
    ...(signed ? { security: [{ bearer: [] }, { cookie: [] }] } : op.access === "optional" ? { security: [{}, { bearer: [] }, { cookie: [] }] } : { security: [] }),
    request: {
      ...(op.params ? { params: op.params } : {}),
      ...(op.query ? { query: inputSide(op.query) as z.ZodObject } : {}),
      ...(op.body
        ? {
            body: {
              required: op.bodyRequired ?? true,
              content: { "application/json": { schema: inputSide(op.body), ...(op.bodyExample !== undefined ? { example: op.bodyExample } : {}) } },
            },
          }
        : {}),
    },
    responses,
  });
}
