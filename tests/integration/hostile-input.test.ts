import { sql } from "drizzle-orm";
import pino from "pino";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as statusSearchRoute } from "@/app/api/v1/account/search/statusCode/route";
import { GET as searchRoute } from "@/app/api/v1/account/search/route";
import { GET as adminCommentsRoute } from "@/app/api/v1/admin/comments/route";
import { PUT as blockPostRoute } from "@/app/api/v1/admin/posts/[id]/block/route";
import { POST as sendRoute } from "@/app/api/v1/dialogs/[id]/messages/route";
import { GET as newsRoute } from "@/app/api/v1/post/newsPosts/route";
import { GET as postListRoute, POST as createPostRoute } from "@/app/api/v1/post/route";
import { getDb } from "@/db/client";
import { resolveViewer } from "@/lib/server/auth/viewer";
import { env } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import { serializeError } from "@/lib/server/logger";
import { createDialog } from "@/lib/server/services/dialogs/dialogs";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { newPost } from "./post-support";

// Issue 24 items 4 and 9: a NUL (or another control character) a client sends never reaches Postgres
// (it answered 500 there), a bad date beside a good one is a 4xx, and a failed query is logged without
// its values (docs/adr/0111).

type Account = Awaited<ReturnType<typeof signedInAccount>>;
let me: Account;
let partner: Account;
let moderator: Account;

beforeAll(async () => {
  [me, partner, moderator] = await Promise.all([signedInAccount(), signedInAccount({ firstName: "Nulla" }), signedInAccount()]);
  await getDb().execute(sql`update accounts set role = 'MODERATOR' where id = ${moderator.id}`);
  moderator = { ...moderator, viewer: (await resolveViewer(getDb(), moderator.accessToken, env().AUTH_SECRET))! };
});

function expectEnvelope(res: { status: number; body: any }, status: number) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBeTruthy();
  expect(res.body.requestId).toBeTruthy();
}

describe("a NUL a client sends never reaches Postgres", () => {
  it("a chat message keeps its text without the control characters", async () => {
    const { dialog } = await createDialog({ ctx: me.ctx, input: { recipientId: partner.id } });
    const res = await call(sendRoute, {
      method: "POST",
      token: me.accessToken,
      params: { id: String(dialog.id) },
      body: { messageText: "при\u0000вет\u0007\nвторая строка\tс табом" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.messageText).toBe("привет\nвторая строка\tс табом");
    const only = await call(sendRoute, { method: "POST", token: me.accessToken, params: { id: String(dialog.id) }, body: { messageText: "\u0000\u0001" } });
    expectEnvelope(only, 422);
  });

  it("a plain-text postText and a title with NUL are stored without it", async () => {
    const res = await call(createPostRoute, {
      token: me.accessToken,
      body: { title: "За\u0000головок", postText: "Простой текст\u0000 без разметки, но с NUL" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.title).toBe("Заголовок");
    expect(res.body.postText).not.toContain("\u0000");
  });

  it("account search by every text field, and the status search", async () => {
    for (const field of ["author", "firstName", "lastName", "country", "city"]) {
      const res = await call(searchRoute, { token: me.accessToken, path: `/api/v1/account/search?${field}=%00x` });
      expect(res.status, `${field}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    const found = await call(searchRoute, { token: me.accessToken, path: "/api/v1/account/search?firstName=Nul%00la" });
    expect(found.status).toBe(200);
    expect(found.body.content.map((a: { id: number }) => a.id)).toContain(partner.id);
    const status = await call(statusSearchRoute, { token: me.accessToken, path: "/api/v1/account/search/statusCode?statusCode=FRIEND&firstName=%00" });
    expect(status.status, JSON.stringify(status.body)).toBe(200);
  });

  it("news search by text and author", async () => {
    for (const path of ["/api/v1/post?text=%00", "/api/v1/post/newsPosts?text=%00", "/api/v1/post/newsPosts?author=%00", "/api/v1/post?author=%1F%00"]) {
      const route = path.startsWith("/api/v1/post?") ? postListRoute : newsRoute;
      const res = await call(route, { token: me.accessToken, path });
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    }
  });

  it("a moderation reason, and the admin comment search", async () => {
    const post = await newPost(partner.ctx);
    const res = await call(blockPostRoute, { method: "PUT", token: moderator.accessToken, params: { id: String(post.id) }, body: { reason: "спам\u0000\u0008 и реклама" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [row] = await getDb().execute<{ reason: string }>(sql`select reason from audit_log where target_id = ${post.id} order by id desc limit 1`);
    expect(row.reason).toBe("спам и реклама");
    const search = await call(adminCommentsRoute, { token: moderator.accessToken, path: "/api/v1/admin/comments?author=%00" });
    expect(search.status, JSON.stringify(search.body)).toBe(200);
  });
});

describe("one invalid date beside a valid one", () => {
  it("is refused in the envelope, not thrown", async () => {
    for (const query of ["dateFrom=abc&dateTo=2100-01-01", "dateFrom=2020-01-01&dateTo=abc", "dateFrom=2020-13-45&dateTo=2021-01-01"]) {
      expectEnvelope(await call(newsRoute, { token: me.accessToken, path: `/api/v1/post/newsPosts?${query}` }), 422);
      expectEnvelope(await call(postListRoute, { token: me.accessToken, path: `/api/v1/post?${query}` }), 422);
    }
  });
});

describe("a failed query is logged without its values", () => {
  it("keeps the SQL and the error code, never a parameter", async () => {
    const secret = "личное-сообщение-42";
    const err = await getDb()
      .execute(sql`select ${secret}::int as n`)
      .then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    // Drizzle puts the values in its message; postgres.js's `where` names them too.
    expect(JSON.stringify({ message: (err as Error).message, cause: { ...((err as Error).cause as object) } })).toContain(secret);

    const lines: string[] = [];
    const stream = { write: (line: string) => void lines.push(line) };
    const logger = pino({ serializers: { err: serializeError } }, stream);
    logger.error({ err, requestId: "r1" }, "unhandled error");
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(secret);
    const logged = JSON.parse(lines[0]);
    expect(logged.err.message).toMatch(/^Failed query: select \$1::int as n$/);
    expect(logged.err.cause.code).toBe("22P02");
    expect(logged.err.cause.message).toBe("data exception 22P02 (value left out of the log)");
  });

  it("is the serializer of the app's logger", () => {
    const serializers = (log as unknown as Record<symbol, Record<string, unknown>>)[pino.symbols.serializersSym];
    expect(serializers.err).toBe(serializeError);
  });
});

