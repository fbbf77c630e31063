import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as consoleRoute } from "@/app/api/v1/admin-console/statistic/[kind]/route";
import { GET as auditRoute } from "@/app/api/v1/admin/audit/route";
import * as auditRouteModule from "@/app/api/v1/admin/audit/route";
import { PUT as blockCommentRoute } from "@/app/api/v1/admin/comments/[id]/block/route";
import { PUT as unblockCommentRoute } from "@/app/api/v1/admin/comments/[id]/unblock/route";
import { GET as commentsRoute } from "@/app/api/v1/admin/comments/route";
import { PUT as blockPostRoute } from "@/app/api/v1/admin/posts/[id]/block/route";
import { PUT as unblockPostRoute } from "@/app/api/v1/admin/posts/[id]/unblock/route";
import { GET as postsRoute } from "@/app/api/v1/admin/posts/route";
import { GET as statisticsRoute } from "@/app/api/v1/admin/statistics/route";
import { PUT as blockUserRoute } from "@/app/api/v1/admin/users/[id]/block/route";
import { PUT as roleRoute } from "@/app/api/v1/admin/users/[id]/role/route";
import { GET as cardRoute } from "@/app/api/v1/admin/users/[id]/route";
import { PUT as unblockUserRoute } from "@/app/api/v1/admin/users/[id]/unblock/route";
import { GET as usersRoute } from "@/app/api/v1/admin/users/route";
import { POST as loginRoute } from "@/app/api/v1/auth/login/route";
import { GET as commentListRoute } from "@/app/api/v1/post/[id]/comment/route";
import { GET as postRoute } from "@/app/api/v1/post/[id]/route";
import { GET as newsRoute } from "@/app/api/v1/post/newsPosts/route";
import { GET as searchRoute } from "@/app/api/v1/account/search/route";
import { getDb } from "@/db/client";
import { resolveViewer } from "@/lib/server/auth/viewer";
import { env } from "@/lib/server/env";
import { promoteAdminEmails } from "@/lib/server/services/admin/promote";
import { refreshSession } from "@/lib/server/services/auth/refresh";
import { createComment, deleteComment, recoverComment } from "@/lib/server/services/comments/comments";
import { isProfileListed } from "@/lib/server/services/profiles/public-profile";
import { listSitemapProfiles } from "@/lib/server/services/profiles/sitemap";
import { CLOSE_SESSION_ENDED } from "@/lib/validation/realtime";
import { createRealtimeServer, type RealtimeServer } from "@/realtime/server";
import { ctxOf, signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { TestSocket } from "./helpers/ws-client";
import { newPost } from "./post-support";

type Account = Awaited<ReturnType<typeof signedInAccount>>;
type Role = "USER" | "MODERATOR" | "ADMIN";

async function withRole(role: Role, overrides: Parameters<typeof signedInAccount>[0] = {}): Promise<Account> {
  const account = await signedInAccount(overrides);
  if (role !== "USER") await getDb().execute(sql`update accounts set role = ${role} where id = ${account.id}`);
  const viewer = (await resolveViewer(getDb(), account.accessToken, env().AUTH_SECRET))!;
  return { ...account, viewer, ctx: ctxOf(viewer) };
}

let user: Account;
let moderator: Account;
let admin: Account;
const servers: RealtimeServer[] = [];

beforeAll(async () => {
  [user, moderator, admin] = await Promise.all([withRole("USER"), withRole("MODERATOR"), withRole("ADMIN")]);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function auditCount(): Promise<number> {
  const [row] = await getDb().execute<{ n: number }>(sql`select count(*)::int as n from audit_log`);
  return row.n;
}

async function accountRow(id: number) {
  const [row] = await getDb().execute<{ role: Role; is_blocked: boolean }>(sql`select role, is_blocked from accounts where id = ${id}`);
  return row;
}

/** Every admin verb, with fresh targets for each call, and what a successful call proves. */
type Verb = { name: string; adminOnly?: boolean; run: (token: string | undefined) => Promise<{ status: number; body: any }> };

const verbs: Verb[] = [
  { name: "GET admin/statistics", run: (token) => call(statisticsRoute, { token, path: "/api/v1/admin/statistics?interval=day" }) },
  {
    name: "GET admin-console/statistic/post",
    run: (token) => call(consoleRoute, { token, path: "/api/v1/admin-console/statistic/post", params: { kind: "post" } }),
  },
  { name: "GET admin/users", run: (token) => call(usersRoute, { token, path: "/api/v1/admin/users?query=a" }) },
  {
    name: "GET admin/users/{id}",
    run: async (token) => call(cardRoute, { token, params: { id: String((await signedInAccount()).id) } }),
  },
  {
    name: "PUT admin/users/{id}/block",
    run: async (token) => call(blockUserRoute, { token, method: "PUT", params: { id: String((await signedInAccount()).id) }, body: { reason: "spam" } }),
  },
  {
    name: "PUT admin/users/{id}/unblock",
    run: async (token) => call(unblockUserRoute, { token, method: "PUT", params: { id: String((await signedInAccount()).id) } }),
  },
  {
    name: "PUT admin/users/{id}/role",
    adminOnly: true,
    run: async (token) => call(roleRoute, { token, method: "PUT", params: { id: String((await signedInAccount()).id) }, body: { role: "MODERATOR" } }),
  },
  { name: "GET admin/posts", run: (token) => call(postsRoute, { token, path: "/api/v1/admin/posts?blocked=false" }) },
  { name: "GET admin/comments", run: (token) => call(commentsRoute, { token, path: "/api/v1/admin/comments" }) },
  {
    name: "PUT admin/posts/{id}/block",
    run: async (token) => call(blockPostRoute, { token, method: "PUT", params: { id: String((await newPost(user.ctx)).id) } }),
  },
  {
    name: "PUT admin/posts/{id}/unblock",
    run: async (token) => call(unblockPostRoute, { token, method: "PUT", params: { id: String((await newPost(user.ctx)).id) } }),
  },
  {
    name: "PUT admin/comments/{id}/block",
    run: async (token) => call(blockCommentRoute, { token, method: "PUT", params: { id: String((await aComment()).id) } }),
  },
  {
    name: "PUT admin/comments/{id}/unblock",
    run: async (token) => call(unblockCommentRoute, { token, method: "PUT", params: { id: String((await aComment()).id) } }),
  },
  { name: "GET admin/audit", run: (token) => call(auditRoute, { token, path: "/api/v1/admin/audit" }) },
];

async function aComment() {
  const post = await newPost(user.ctx);
  return createComment({ ctx: user.ctx, input: { postId: post.id, body: { commentText: "Первый комментарий" } } });
}

describe("the role matrix", () => {
  for (const verb of verbs) {
    it(`${verb.name}: anonymous 401, USER 403, MODERATOR ${verb.adminOnly ? "403" : "200"}, ADMIN 200`, async () => {
      const before = await auditCount();
      const anonymous = await verb.run(undefined);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error.code).toBe("unauthorized");
      const asUser = await verb.run(user.accessToken);
      expect(asUser.status).toBe(403);
      expect(asUser.body.error).toEqual({ code: "forbidden", message: "Раздел доступен только администраторам и модераторам." });
      // Refused calls changed nothing.
      expect(await auditCount()).toBe(before);
      const asModerator = await verb.run(moderator.accessToken);
      expect(asModerator.status, JSON.stringify(asModerator.body)).toBe(verb.adminOnly ? 403 : 200);
      if (verb.adminOnly) expect(asModerator.body.error.message).toBe("Назначать и снимать роли может только администратор.");
      const asAdmin = await verb.run(admin.accessToken);
      expect(asAdmin.status, JSON.stringify(asAdmin.body)).toBe(200);
    });
  }

  it("lists in the paging envelope", async () => {
    for (const route of [usersRoute, postsRoute, commentsRoute, auditRoute]) {
      const res = await call(route, { token: moderator.accessToken, path: "/api/v1/admin/x?page=0&size=2" });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(["content", "number", "size", "totalElements", "totalPages"]);
      expect(res.body.size).toBe(2);
      expect(res.body.content.length).toBeLessThanOrEqual(2);
    }
  });

  it("refuses bad input with 4xx in the error envelope and changes nothing", async () => {
    const before = await auditCount();
    const target = await signedInAccount();
    const bad = [
      await call(usersRoute, { token: admin.accessToken, path: "/api/v1/admin/users?size=1000" }),
      await call(usersRoute, { token: admin.accessToken, path: "/api/v1/admin/users?role=ROOT" }),
      await call(postsRoute, { token: admin.accessToken, path: "/api/v1/admin/posts?dateFrom=2024-02-01&dateTo=2024-01-01" }),
      await call(statisticsRoute, { token: admin.accessToken, path: "/api/v1/admin/statistics?interval=week" }),
      await call(statisticsRoute, { token: admin.accessToken, path: "/api/v1/admin/statistics?from=2000-01-01&to=2024-01-01" }),
      await call(consoleRoute, { token: admin.accessToken, params: { kind: "friend" } }),
      await call(roleRoute, { token: admin.accessToken, method: "PUT", params: { id: String(target.id) }, body: { role: "ROOT" } }),
      await call(roleRoute, { token: admin.accessToken, method: "PUT", params: { id: "abc" }, body: { role: "USER" } }),
      await call(blockUserRoute, { token: admin.accessToken, method: "PUT", params: { id: String(target.id) }, body: { reason: "x".repeat(501) } }),
      await call(blockUserRoute, { token: admin.accessToken, method: "PUT", params: { id: String(target.id) }, rawBody: "{", headers: { "content-type": "application/json" } }),
    ];
    for (const res of bad) {
      expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body.error.code).toEqual(expect.any(String));
    }
    const missing = await call(blockPostRoute, { token: admin.accessToken, method: "PUT", params: { id: "999999999" } });
    expect(missing.status).toBe(404);
    expect(await auditCount()).toBe(before);
    expect(await accountRow(target.id)).toEqual({ role: "USER", is_blocked: false });
  });

  it("keeps staff from acting on themselves or on staff above them", async () => {
    const otherModerator = await withRole("MODERATOR");
    const otherAdmin = await withRole("ADMIN");
    const cases = [
      await call(roleRoute, { token: admin.accessToken, method: "PUT", params: { id: String(admin.id) }, body: { role: "USER" } }),
      await call(blockUserRoute, { token: moderator.accessToken, method: "PUT", params: { id: String(moderator.id) } }),
      await call(blockUserRoute, { token: moderator.accessToken, method: "PUT", params: { id: String(otherModerator.id) } }),
      await call(blockUserRoute, { token: admin.accessToken, method: "PUT", params: { id: String(otherAdmin.id) } }),
    ];
    for (const res of cases) expect(res.status).toBe(403);
    expect(await accountRow(admin.id)).toEqual({ role: "ADMIN", is_blocked: false });
    expect(await accountRow(otherModerator.id)).toEqual({ role: "MODERATOR", is_blocked: false });
    // An administrator may block a moderator.
    const ok = await call(blockUserRoute, { token: admin.accessToken, method: "PUT", params: { id: String(otherModerator.id) } });
    expect(ok.status).toBe(200);
    expect(ok.body.isBlocked).toBe(true);
  });

  it("shows e-mails to staff in the users list and filters by role, blocked and search", async () => {
    const target = await signedInAccount({ firstName: "Зинаида", lastName: "Уникальная" });
    const byName = await call(usersRoute, { token: moderator.accessToken, path: `/api/v1/admin/users?query=${encodeURIComponent("зинаида уник")}` });
    expect(byName.body.content.map((u: { id: number }) => u.id)).toContain(target.id);
    expect(byName.body.content.find((u: { id: number }) => u.id === target.id).email).toBe(target.email);
    const byEmail = await call(usersRoute, { token: moderator.accessToken, path: `/api/v1/admin/users?query=${encodeURIComponent(target.email.toUpperCase())}` });
    expect(byEmail.body.content.map((u: { id: number }) => u.id)).toEqual([target.id]);
    const admins = await call(usersRoute, { token: moderator.accessToken, path: "/api/v1/admin/users?role=ADMIN&size=100" });
    expect(admins.body.content.every((u: { role: string }) => u.role === "ADMIN")).toBe(true);
    expect(admins.body.content.map((u: { id: number }) => u.id)).toContain(admin.id);
  });
});

describe("blocking an account", () => {
  it("ends its sessions and sockets at once, refuses sign-in, hides it and its content until unblocked", async () => {
    const server = await createRealtimeServer({ port: 0, sessionCheckIntervalMs: 3_600_000 });
    servers.push(server);
    const victim = await signedInAccount({ firstName: "Виктор", lastName: "Блокин" });
    const reader = await signedInAccount();
    const post = await newPost(victim.ctx, { title: "Пост Виктора" });
    const comment = await createComment({ ctx: victim.ctx, input: { postId: (await newPost(reader.ctx)).id, body: { commentText: "Комментарий Виктора" } } });
    const socket = await TestSocket.open(server.port, { token: victim.accessToken });
    const bystander = await TestSocket.open(server.port, { token: reader.accessToken });

    const res = await call(blockUserRoute, { token: moderator.accessToken, method: "PUT", params: { id: String(victim.id) }, body: { reason: "Спам" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: victim.id, isBlocked: true });

    // Its open socket closes now (the periodic check is an hour away); others stay open.
    expect((await socket.closed).code).toBe(CLOSE_SESSION_ENDED);
    expect(bystander.ws.readyState).toBe(bystander.ws.OPEN);
    await bystander.close();
    // Access and refresh tokens are dead; sign-in is refused with a clear message.
    expect(await resolveViewer(getDb(), victim.accessToken, env().AUTH_SECRET)).toBeNull();
    await expect(refreshSession({ ctx: ctxOf(), refreshToken: victim.refreshToken })).rejects.toThrow();
    const [{ live }] = await getDb().execute<{ live: number }>(sql`select count(*)::int as live from sessions where account_id = ${victim.id} and revoked_at is null`);
    expect(live).toBe(0);
    const signIn = await call(loginRoute, { body: { email: victim.email, password: victim.password }, headers: { "accept-language": "en" } });
    expect(signIn.status).toBe(401);
    // …saying why (issue 26): the block's reason from the audit log.
    expect(signIn.body.error.message).toBe("The account is blocked. Reason: Спам.");

    // Gone from search, public shells, the sitemap, feeds and comment lists.
    const search = await call(searchRoute, { token: reader.accessToken, path: "/api/v1/account/search?author=Блокин" });
    expect(search.body.content.map((a: { id: number }) => a.id)).not.toContain(victim.id);
    expect(await isProfileListed(getDb(), victim.id)).toBe(false);
    const sitemap = await listSitemapProfiles({ ctx: ctxOf(), input: { after: victim.id - 1, size: 1 } });
    expect(sitemap.map((e) => e.id)).not.toContain(victim.id);
    const feed = await call(newsRoute, { token: reader.accessToken, path: "/api/v1/post/newsPosts?size=50" });
    expect(feed.body.content.map((p: { id: number }) => p.id)).not.toContain(post.id);
    expect((await call(postRoute, { token: reader.accessToken, params: { id: String(post.id) } })).status).toBe(404);
    const comments = await call(commentListRoute, { token: reader.accessToken, params: { id: String(comment.postId) } });
    expect(comments.body.content.map((c: { id: number }) => c.id)).not.toContain(comment.id);

    // Unblocked: listed again, can sign in, content back.
    const unblock = await call(unblockUserRoute, { token: moderator.accessToken, method: "PUT", params: { id: String(victim.id) } });
    expect(unblock.body.isBlocked).toBe(false);
    expect(await isProfileListed(getDb(), victim.id)).toBe(true);
    expect((await call(loginRoute, { body: { email: victim.email, password: victim.password } })).status).toBe(200);
    expect((await call(postRoute, { token: reader.accessToken, params: { id: String(post.id) } })).status).toBe(200);

    const audit = await call(auditRoute, { token: moderator.accessToken, path: `/api/v1/admin/audit?accountId=${victim.id}` });
    expect(audit.body.content.map((e: { action: string; reason: string | null; actor: { id: number } }) => [e.action, e.reason, e.actor.id])).toEqual([
      ["USER_UNBLOCKED", null, moderator.id],
      ["USER_BLOCKED", "Спам", moderator.id],
    ]);
  });

  it("repeating a block changes and records nothing", async () => {
    const target = await signedInAccount();
    await call(blockUserRoute, { token: admin.accessToken, method: "PUT", params: { id: String(target.id) } });
    const before = await auditCount();
    const again = await call(blockUserRoute, { token: admin.accessToken, method: "PUT", params: { id: String(target.id) } });
    expect(again.status).toBe(200);
    expect(again.body.isBlocked).toBe(true);
    expect(await auditCount()).toBe(before);
  });
});

describe("blocking posts and comments", () => {
  it("hides a blocked post from others, shows it marked to its author and to staff", async () => {
    const author = await signedInAccount();
    const other = await signedInAccount();
    const post = await newPost(author.ctx, { title: "Спорный пост" });
    expect(post.isBlocked).toBe(false);
    const res = await call(blockPostRoute, { token: moderator.accessToken, method: "PUT", params: { id: String(post.id) }, body: { reason: "Оскорбления" } });
    expect(res.body).toEqual({ id: post.id, isBlocked: true });

    expect((await call(postRoute, { token: other.accessToken, params: { id: String(post.id) } })).status).toBe(404);
    const feed = await call(newsRoute, { token: other.accessToken, path: "/api/v1/post/newsPosts?size=50" });
    expect(feed.body.content.map((p: { id: number }) => p.id)).not.toContain(post.id);
    const own = await call(postRoute, { token: author.accessToken, params: { id: String(post.id) } });
    expect(own.status).toBe(200);
    expect(own.body.isBlocked).toBe(true);
    const staff = await call(postRoute, { token: moderator.accessToken, params: { id: String(post.id) } });
    expect(staff.body.isBlocked).toBe(true);
    const listed = await call(postsRoute, { token: moderator.accessToken, path: "/api/v1/admin/posts?blocked=true&size=100" });
    expect(listed.body.content.find((p: { id: number }) => p.id === post.id)).toMatchObject({ isBlocked: true, title: "Спорный пост" });

    await call(unblockPostRoute, { token: moderator.accessToken, method: "PUT", params: { id: String(post.id) } });
    expect((await call(postRoute, { token: other.accessToken, params: { id: String(post.id) } })).body.isBlocked).toBe(false);
  });

  it("hides a blocked comment from others, shows it marked to its author", async () => {
    const author = await signedInAccount();
    const other = await signedInAccount();
    const post = await newPost(other.ctx);
    const comment = await createComment({ ctx: author.ctx, input: { postId: post.id, body: { commentText: "Грубый комментарий" } } });
    expect((await call(blockCommentRoute, { token: admin.accessToken, method: "PUT", params: { id: String(comment.id) } })).status).toBe(200);
    const seenByOther = await call(commentListRoute, { token: other.accessToken, params: { id: String(post.id) } });
    expect(seenByOther.body.content.map((c: { id: number }) => c.id)).not.toContain(comment.id);
    const seenByAuthor = await call(commentListRoute, { token: author.accessToken, params: { id: String(post.id) } });
    expect(seenByAuthor.body.content.find((c: { id: number }) => c.id === comment.id)).toMatchObject({ isBlocked: true });
    const search = await call(commentsRoute, { token: moderator.accessToken, path: `/api/v1/admin/comments?text=${encodeURIComponent("грубый")}&blocked=true` });
    expect(search.body.content.map((c: { id: number }) => c.id)).toContain(comment.id);
  });
});

describe("a blocked comment and the comment counts (ADR 0085)", () => {
  it("leaves the post's and the parent's counts on block, comes back on unblock, and stays listed for staff", async () => {
    const author = await signedInAccount();
    const other = await signedInAccount();
    const post = await newPost(other.ctx);
    const top = await createComment({ ctx: other.ctx, input: { postId: post.id, body: { commentText: "Верхний комментарий" } } });
    const reply = await createComment({ ctx: author.ctx, input: { postId: post.id, body: { parentId: top.id, commentText: "Грубый ответ" } } });
    const count = async () => (await call(postRoute, { token: other.accessToken, params: { id: String(post.id) } })).body.commentsCount;
    const replies = async () => (await call(commentListRoute, { token: other.accessToken, params: { id: String(post.id) } })).body.content
      .find((c: { id: number }) => c.id === top.id).commentsCount;
    expect(await count()).toBe(2);
    expect(await replies()).toBe(1);

    expect((await call(blockCommentRoute, { token: moderator.accessToken, method: "PUT", params: { id: String(reply.id) } })).status).toBe(200);
    expect(await count()).toBe(1);
    expect(await replies()).toBe(0);
    // Repeating the block moves nothing; staff still find the comment.
    await call(blockCommentRoute, { token: moderator.accessToken, method: "PUT", params: { id: String(reply.id) } });
    expect(await count()).toBe(1);
    const listed = await call(commentsRoute, { token: moderator.accessToken, path: `/api/v1/admin/comments?author=${author.id}&blocked=true` });
    expect(listed.body.content.find((c: { id: number }) => c.id === reply.id)).toMatchObject({ isBlocked: true, postId: post.id });

    // The author deleting and restoring a blocked comment does not move the counts either.
    await deleteComment({ ctx: author.ctx, input: { postId: post.id, id: reply.id } });
    expect(await count()).toBe(1);
    await recoverComment({ ctx: author.ctx, input: { postId: post.id, id: reply.id } });
    expect(await count()).toBe(1);

    expect((await call(unblockCommentRoute, { token: moderator.accessToken, method: "PUT", params: { id: String(reply.id) } })).status).toBe(200);
    expect(await count()).toBe(2);
    expect(await replies()).toBe(1);
  });
});

describe("the audit log", () => {
  it("records every action with actor, target, reason and time, newest first, and has no write route", async () => {
    const target = await signedInAccount();
    const post = await newPost(target.ctx);
    await call(roleRoute, { token: admin.accessToken, method: "PUT", params: { id: String(target.id) }, body: { role: "MODERATOR" } });
    await call(roleRoute, { token: admin.accessToken, method: "PUT", params: { id: String(target.id) }, body: { role: "USER" } });
    await call(blockPostRoute, { token: admin.accessToken, method: "PUT", params: { id: String(post.id) }, body: { reason: "Причина" } });
    const card = await call(cardRoute, { token: moderator.accessToken, params: { id: String(target.id) } });
    expect(card.status).toBe(200);
    expect(card.body.counts).toEqual({ posts: 1, comments: 0, reactions: 0, friends: 0 });
    expect(card.body.recentPosts).toEqual([{ id: post.id, title: post.title, time: post.time, isBlocked: true }]);
    expect(card.body.audit.map((e: { action: string; targetType: string; targetId: number; details: unknown; reason: string | null }) => [e.action, e.targetType, e.targetId, e.details, e.reason])).toEqual([
      ["POST_BLOCKED", "POST", post.id, null, "Причина"],
      ["ROLE_CHANGED", "ACCOUNT", target.id, { from: "MODERATOR", to: "USER" }, null],
      ["ROLE_CHANGED", "ACCOUNT", target.id, { from: "USER", to: "MODERATOR" }, null],
    ]);
    for (const e of card.body.audit) {
      expect(e.actor).toEqual({ id: admin.id, firstName: "Ivan", lastName: "Petrov" });
      expect(Date.now() - Date.parse(e.createdAt)).toBeLessThan(60_000);
    }
    const all = await call(auditRoute, { token: moderator.accessToken, path: "/api/v1/admin/audit?size=3" });
    expect(all.body.content.map((e: { id: number }) => e.id)).toEqual(card.body.audit.map((e: { id: number }) => e.id));
    expect(Object.keys(auditRouteModule)).toEqual(["GET"]);
  });

  it("promotes ADMIN_EMAILS accounts once, audited without an actor", async () => {
    const target = await signedInAccount();
    expect(await promoteAdminEmails(getDb(), [target.email.toUpperCase().toLowerCase()])).toEqual([target.id]);
    expect(await promoteAdminEmails(getDb(), [target.email])).toEqual([]);
    expect((await accountRow(target.id)).role).toBe("ADMIN");
    const audit = await call(auditRoute, { token: admin.accessToken, path: `/api/v1/admin/audit?accountId=${target.id}` });
    expect(audit.body.content).toHaveLength(1);
    expect(audit.body.content[0]).toMatchObject({ action: "ROLE_CHANGED", actor: null, details: { from: "USER", to: "ADMIN", by: "ADMIN_EMAILS" } });
  });
});

describe("statistics", () => {
  it("equal counts made by hand, per day and per month, with all-time totals", async () => {
    // Activity placed in 2003, a range no other test writes to.
    const who = await signedInAccount();
    const p1 = await newPost(who.ctx);
    const p2 = await newPost(who.ctx);
    const c1 = await createComment({ ctx: who.ctx, input: { postId: p1.id, body: { commentText: "Комментарий раз" } } });
    const db = getDb();
    await db.execute(sql`update accounts set created_at = '2003-03-02T10:00:00Z' where id = ${who.id}`);
    await db.execute(sql`update posts set time = '2003-03-02T23:30:00Z' where id = ${p1.id}`);
    await db.execute(sql`update posts set time = '2003-03-04T00:10:00Z' where id = ${p2.id}`);
    await db.execute(sql`update comments set time = '2003-02-27T12:00:00Z' where id = ${c1.id}`);
    await db.execute(sql`insert into post_reactions (post_id, account_id, reaction_type, created_at) values (${p2.id}, ${who.id}, 'fire', '2003-03-04T05:00:00Z')`);

    const handCounts = async () => {
      const [row] = await db.execute<{ accounts: number; posts: number; comments: number; reactions: number }>(sql`
        select (select count(*)::int from accounts) as accounts, (select count(*)::int from posts) as posts,
               (select count(*)::int from comments) as comments, (select count(*)::int from post_reactions) as reactions`);
      return row;
    };
    const handBefore = await handCounts();
    const res = await call(statisticsRoute, { token: moderator.accessToken, path: "/api/v1/admin/statistics?from=2003-03-01&to=2003-03-04&interval=day" });
    const handAfter = await handCounts();
    expect(res.status).toBe(200);
    expect(res.body.series).toEqual([
      { date: "2003-03-01", accounts: 0, posts: 0, comments: 0, reactions: 0, communities: 0 },
      { date: "2003-03-02", accounts: 1, posts: 1, comments: 0, reactions: 0, communities: 0 },
      { date: "2003-03-03", accounts: 0, posts: 0, comments: 0, reactions: 0, communities: 0 },
      { date: "2003-03-04", accounts: 0, posts: 1, comments: 0, reactions: 1, communities: 0 },
    ]);
    expect(res.body.period).toEqual({ accounts: 1, posts: 2, comments: 0, reactions: 1, communities: 0 });
    expect(res.body.previousPeriod).toEqual({ accounts: 0, posts: 0, comments: 1, reactions: 0, communities: 0 });
    // Other suites may write to the shared database meanwhile: the totals lie between the hand counts around the call
    // (equal to both when nothing else ran).
    for (const k of ["accounts", "posts", "comments", "reactions"] as const) {
      expect(res.body.totals[k]).toBeGreaterThanOrEqual(handBefore[k]);
      expect(res.body.totals[k]).toBeLessThanOrEqual(handAfter[k]);
    }

    const months = await call(statisticsRoute, { token: moderator.accessToken, path: "/api/v1/admin/statistics?from=2003-02-10&to=2003-03-20&interval=month" });
    expect(months.body.series).toEqual([
      { date: "2003-02", accounts: 0, posts: 0, comments: 1, reactions: 0, communities: 0 },
      { date: "2003-03", accounts: 1, posts: 2, comments: 0, reactions: 1, communities: 0 },
    ]);

    const legacy = await call(consoleRoute, {
      token: admin.accessToken,
      path: "/api/v1/admin-console/statistic/post?date=2003-03-02&firstMonth=2003-01-01&lastMonth=2003-03-01",
      params: { kind: "post" },
    });
    expect(legacy.status).toBe(200);
    expect(legacy.body.countPerHours).toHaveLength(24);
    expect(legacy.body.countPerHours[23]).toEqual({ date: "2003-03-02T23:00:00Z", count: 1 });
    expect(legacy.body.countPerHours.reduce((s: number, h: { count: number }) => s + h.count, 0)).toBe(1);
    expect(legacy.body.countPerMonth).toEqual([
      { date: "2003-01-01T00:00:00Z", count: 0 },
      { date: "2003-02-01T00:00:00Z", count: 0 },
      { date: "2003-03-01T00:00:00Z", count: 2 },
    ]);
    const [{ before }] = await db.execute<{ before: number }>(sql`select count(*)::int as before from posts where time < '2003-03-03T00:00:00Z'`);
    expect(legacy.body.count).toBe(before);
  });
});

describe("the audit log in the database", () => {
  it("refuses updates and deletes of its rows", async () => {
    const target = await signedInAccount();
    await call(blockUserRoute, { token: admin.accessToken, method: "PUT", params: { id: String(target.id) } });
    await expect(getDb().execute(sql`update audit_log set reason = 'rewritten' where target_account_id = ${target.id}`)).rejects.toThrow();
    await expect(getDb().execute(sql`delete from audit_log where target_account_id = ${target.id}`)).rejects.toThrow();
    const [{ n }] = await getDb().execute<{ n: number }>(sql`select count(*)::int as n from audit_log where target_account_id = ${target.id} and reason is null`);
    expect(n).toBe(1);
  });
});
