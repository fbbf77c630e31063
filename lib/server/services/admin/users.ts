import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { appendEvent } from "@/lib/server/events/outbox";
import { ForbiddenError, NotFoundError } from "@/lib/server/http/errors";
import { pageOf, type Page } from "@/lib/server/http/response";
import {
  ADMIN_ERRORS,
  adminUsersQuery,
  blockInput,
  idParams,
  roleInput,
  type AdminUserCard,
  type AdminUserDto,
  type Role,
} from "@/lib/validation/admin";
import { SESSION_ENDED_EVENT } from "@/lib/validation/realtime";
import type { Viewer } from "@/lib/server/auth/viewer";
import { forgetAccounts } from "@/lib/server/auth/session-cache";
import { withTransaction, type ServiceCtx } from "../context";
import { revokeAllSessions } from "../auth/sessions";
import { parseAdmin, requireAdmin, requireStaff } from "./access";
import { readAudit, recordAudit } from "./audit";


type Row = {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  photo: string | null;
  role: Role;
  is_blocked: boolean;
  is_deleted: boolean;
  created_at: string;
  last_online_time: string | null;
};

const userColumns = sql`a.id, a.first_name, a.last_name, a.email, a.photo, a.role, a.is_blocked, a.is_deleted,
  to_json(a.created_at) #>> '{}' as created_at, to_json(a.last_online_time) #>> '{}' as last_online_time`;

function toUser(r: Row): AdminUserDto {
  return {
    id: Number(r.id),
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
    photo: r.photo,
    role: r.role,
    isBlocked: r.is_blocked,
    isDeleted: r.is_deleted,
    createdAt: new Date(r.created_at).toISOString(),
    lastOnlineTime: r.last_online_time ? new Date(r.last_online_time).toISOString() : null,
  };
}

function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/\s+/g, " ").replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

async function readUser(db: DbOrTx, id: number): Promise<AdminUserDto | null> {
  const [row] = await db.execute<Row>(sql`select ${userColumns} from accounts a where a.id = ${id}`);
  return row ? toUser(row) : null;
}

/**
 * GET admin/users — accounts newest first (the primary key), with a name or e-mail search and the
 * blocked, deleted and role filters. Staff see e-mails here; no other API ever returns them. A name goes
 * through the trigram index of the full name; an e-mail part is a scan of lower(email), acceptable on
 * this staff-only page (an exact e-mail uses the unique index).
 */
export async function listUsers({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<Page<AdminUserDto>> {
  requireStaff(ctx);
  const q = parseAdmin(adminUsersQuery, input);
  const where: SQL[] = [];
  if (q.query) {
    const pattern = likePattern(q.query);
    where.push(
      q.query.includes("@") && !q.query.includes(" ")
        ? sql`(lower(a.email) = lower(${q.query}) or lower(a.email) like ${pattern})`
        : sql`(lower(a.first_name || ' ' || a.last_name) like ${pattern} or lower(a.email) like ${pattern})`,
    );
  }
  if (q.blocked !== undefined) where.push(sql`a.is_blocked = ${q.blocked}`);
  if (q.deleted !== undefined) where.push(sql`a.is_deleted = ${q.deleted}`);
  if (q.role) where.push(sql`a.role = ${q.role}`);
  if (q.staff) where.push(sql`a.role in ('ADMIN', 'MODERATOR')`);
  const cond = where.length ? sql.join(where, sql` and `) : sql`true`;
  const db = ctx.tx ?? ctx.db;
  const [rows, [{ count }]] = await Promise.all([
    db.execute<Row>(sql`select ${userColumns} from accounts a where ${cond} order by a.id desc limit ${q.size} offset ${q.page * q.size}`),
    db.execute<{ count: string }>(sql`select count(*) as count from accounts a where ${cond}`),
  ]);
  return pageOf(rows.map(toUser), Number(count), q.page, q.size);
}

/** GET admin/users/{id} — a user's card: the account, its counts, recent posts and comments, and the audit of actions on it. */
export async function getUserCard({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<AdminUserCard> {
  requireStaff(ctx);
  const { id } = parseAdmin(idParams, input);
  const db = ctx.tx ?? ctx.db;
  const user = await readUser(db, id);
  if (!user) throw new NotFoundError(ADMIN_ERRORS.notFound);
  const [[counts], posts, comments, audit] = await Promise.all([
    db.execute<{ posts: string; comments: string; reactions: string; friends: string }>(sql`
      select (select count(*) from posts where author_id = ${id} and not is_deleted) as posts,
             (select count(*) from comments where author_id = ${id} and not is_deleted) as comments,
             (select count(*) from post_reactions where account_id = ${id}) as reactions,
             (select count(*) from friendships where account_id = ${id} and status_code = 'FRIEND') as friends`),
    db.execute<{ id: string; title: string; time: string; is_blocked: boolean }>(sql`
      select id, title, to_json(time) #>> '{}' as time, is_blocked from posts
      where author_id = ${id} and not is_deleted order by publish_date desc nulls last, id desc nulls last limit 5`),
    db.execute<{ id: string; post_id: string; comment_text: string; time: string; is_blocked: boolean }>(sql`
      select id, post_id, left(comment_text, 200) as comment_text, to_json(time) #>> '{}' as time, is_blocked from comments
      where author_id = ${id} and not is_deleted order by time desc, id desc limit 5`),
    readAudit(db, { accountId: id, limit: 20, offset: 0 }),
  ]);
  return {
    ...user,
    counts: { posts: Number(counts.posts), comments: Number(counts.comments), reactions: Number(counts.reactions), friends: Number(counts.friends) },
    recentPosts: posts.map((p) => ({ id: Number(p.id), title: p.title, time: new Date(p.time).toISOString(), isBlocked: p.is_blocked })),
    recentComments: comments.map((c) => ({
      id: Number(c.id),
      postId: Number(c.post_id),
      commentText: c.comment_text,
      time: new Date(c.time).toISOString(),
      isBlocked: c.is_blocked,
    })),
    audit,
  };
}

async function lockTarget(tx: Tx, id: number): Promise<{ role: Role; is_blocked: boolean }> {
  const [row] = await tx.execute<{ role: Role; is_blocked: boolean }>(sql`select role, is_blocked from accounts where id = ${id} for no key update`);
  if (!row) throw new NotFoundError(ADMIN_ERRORS.notFound);
  return row;
}

/**
 * PUT admin/users/{id}/block and …/unblock. Blocking ends every session of the account in the same
 * transaction (its refresh tokens stop working, its access tokens resolve to no one) and tells the
 * sidecars to close its sockets now. Staff never block themselves; a moderator blocks only regular users
 * and nobody blocks an administrator (revoke the role first). Repeating a block or an unblock changes
 * nothing and records nothing.
 */
export async function setUserBlocked({
  ctx,
  input,
  blocked,
}: {
  ctx: ServiceCtx;
  input: { id: unknown; body?: unknown };
  blocked: boolean;
}): Promise<AdminUserDto> {
  const viewer = requireStaff(ctx);
  const { id } = parseAdmin(idParams, { id: input.id });
  const { reason } = parseAdmin(blockInput, input.body ?? {});
  if (id === viewer.id) throw new ForbiddenError(ADMIN_ERRORS.notSelf);
  return withTransaction(ctx, async (tx) => {
    await setUserBlockedIn(tx, { actor: viewer, id, blocked, reason });
    return (await readUser(tx, id))!;
  });
}

/** PUT admin/users/{id}/role — administrators grant and revoke roles; never their own. */
export async function setUserRole({ ctx, input }: { ctx: ServiceCtx; input: { id: unknown; body: unknown } }): Promise<AdminUserDto> {
  const viewer = requireAdmin(ctx);
  const { id } = parseAdmin(idParams, { id: input.id });
  const { role } = parseAdmin(roleInput, input.body);
  if (id === viewer.id) throw new ForbiddenError(ADMIN_ERRORS.notSelf);
  return withTransaction(ctx, async (tx) => {
    const target = await lockTarget(tx, id);
    if (target.role !== role) {
      // The session check reads the role: this process's session cache forgets it (docs/adr/0135).
      forgetAccounts(tx, [id]);
      await tx.execute(sql`update accounts set role = ${role}, updated_at = now() where id = ${id}`);
      await recordAudit(tx, {
        actorId: viewer.id,
        action: "ROLE_CHANGED",
        targetType: "ACCOUNT",
        targetId: id,
        targetAccountId: id,
        details: { from: target.role, to: role },
      });
    }
    return (await readUser(tx, id))!;
  });
}

/**
 * Blocks or unblocks an account in the caller's transaction (the report queue's BLOCK_AUTHOR uses it too):
 * the staff rules, the audit row, the end of its sessions and sockets. `until` makes a block for a period
 * (accounts.blocked_until; sign-in lifts it once passed); without it the block is for good.
 */
export async function setUserBlockedIn(
  tx: Tx,
  input: { actor: Pick<Viewer, "id" | "role">; id: number; blocked: boolean; reason?: string | null; until?: Date | null; details?: Record<string, unknown> },
): Promise<void> {
  const { actor, id, blocked, reason } = input;
  if (id === actor.id) throw new ForbiddenError(ADMIN_ERRORS.notSelf);
  const target = await lockTarget(tx, id);
  if (target.role === "ADMIN" || (target.role === "MODERATOR" && actor.role !== "ADMIN")) {
    throw new ForbiddenError(ADMIN_ERRORS.staffTarget);
  }
  const until = blocked && input.until ? input.until.toISOString() : null;
  if (target.is_blocked !== blocked) {
    await tx.execute(sql`update accounts set is_blocked = ${blocked}, blocked_until = ${until}::timestamptz, updated_at = now() where id = ${id}`);
    await recordAudit(tx, {
      actorId: actor.id,
      action: blocked ? "USER_BLOCKED" : "USER_UNBLOCKED",
      targetType: "ACCOUNT",
      targetId: id,
      targetAccountId: id,
      reason,
      details: until ? { ...input.details, until } : input.details,
    });
    if (blocked) {
      await revokeAllSessions(tx, id);
      // Last write of the transaction: appendEvent holds the outbox lock until commit.
      await appendEvent(tx, { type: SESSION_ENDED_EVENT, recipients: [id], data: null });
    }
  }
}
