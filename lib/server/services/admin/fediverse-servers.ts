import "server-only";
import { sql } from "drizzle-orm";
import { forgetBlockedServers } from "@/lib/server/federation/blocked";
import { pageOf, type Page } from "@/lib/server/http/response";
import { blockInput, blockedServersQuery, serverHostParams, type BlockedServerDto } from "@/lib/validation/admin";
import { withTransaction, type ServiceCtx } from "../context";
import { parseAdmin, requireAdmin } from "./access";
import { recordAudit } from "./audit";

// The administrators' block of a whole server of the fediverse (issue 43, docs/adr/0174). While it stands,
// nothing is delivered to it, nothing it sends is taken (403 at the inbox), nobody is looked up there, and
// its people's accounts here are blocked as a moderator blocks an account: what they wrote is hidden
// everywhere. Unblocking lifts all of that, its people's accounts included.


/** GET admin/fediverse/servers — the blocked servers, newest first, with how many of their people are known here. */
export async function listBlockedServers({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<Page<BlockedServerDto>> {
  requireAdmin(ctx);
  const { page, size } = parseAdmin(blockedServersQuery, input);
  const db = ctx.tx ?? ctx.db;
  const [rows, [total]] = await Promise.all([
    db.execute<{ id: string; host: string; reason: string | null; created_at: string; accounts: number }>(sql`
      select s.id, s.host, s.reason, s.created_at, (select count(*)::int from remote_actors r where r.host = s.host) as accounts
      from fediverse_blocked_servers s order by s.id desc limit ${size} offset ${page * size}`),
    db.execute<{ n: number }>(sql`select count(*)::int as n from fediverse_blocked_servers`),
  ]);
  const content = rows.map((r) => ({ id: Number(r.id), host: r.host, reason: r.reason, createdAt: new Date(r.created_at).toISOString(), accounts: Number(r.accounts) }));
  return pageOf(content, total?.n ?? 0, page, size);
}

/**
 * PUT admin/fediverse/servers/{host}/block {reason?} and …/unblock — administrators only. Repeating a block
 * or an unblock changes nothing and records nothing. Answers the server's row (null once unblocked).
 */
export async function setServerBlocked({
  ctx,
  input,
  blocked,
}: {
  ctx: ServiceCtx;
  input: { host: unknown; body?: unknown };
  blocked: boolean;
}): Promise<{ host: string; blocked: boolean; accounts: number }> {
  const viewer = requireAdmin(ctx);
  const { host } = parseAdmin(serverHostParams, { host: input.host });
  const { reason } = parseAdmin(blockInput, input.body ?? {});
  return withTransaction(ctx, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`krug:blocked-server:${host}`}, 0))`);
    const [row] = blocked
      ? await tx.execute<{ id: string }>(sql`
          insert into fediverse_blocked_servers (host, reason, blocked_by) values (${host}, ${reason ?? null}, ${viewer.id})
          on conflict (host) do nothing returning id`)
      : await tx.execute<{ id: string }>(sql`delete from fediverse_blocked_servers where host = ${host} returning id`);
    // Its people here: blocked with it, unblocked with it.
    const changed = row
      ? await tx.execute(sql`
          update accounts set is_blocked = ${blocked}, blocked_until = null, updated_at = now()
          where remote and is_blocked <> ${blocked} and id in (select account_id from remote_actors where host = ${host})
          returning id`)
      : [];
    if (row) {
      await recordAudit(tx, {
        actorId: viewer.id,
        action: blocked ? "SERVER_BLOCKED" : "SERVER_UNBLOCKED",
        targetType: "SERVER",
        targetId: Number(row.id),
        targetAccountId: null,
        reason,
        details: { host, accounts: changed.length },
      });
      forgetBlockedServers(tx);
    }
    const [known] = await tx.execute<{ n: number }>(sql`select count(*)::int as n from remote_actors where host = ${host}`);
    return { host, blocked, accounts: known?.n ?? 0 };
  });
}
