import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import { pushSubscriptions } from "@/db/schema";
import type { Tx } from "@/db/client";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "@/lib/server/http/errors";
import { QUEUES } from "@/lib/server/jobs/boss";
import { consumeAccountLimits } from "@/lib/server/http/rate-limit";
import { pushSubscriptionIdParams, pushSubscriptionInput, type PushDeviceDto, type PushDevicesDto } from "@/lib/validation/push";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
import { mayBePushEndpoint } from "./endpoint-address";
import { vapidKeys } from "./vapid";

/** Devices one account may have subscribed at a time (dead ones leave on their first 404/410). */
export const PUSH_DEVICES_MAX = 20;

const device = {
  id: pushSubscriptions.id,
  userAgentLabel: pushSubscriptions.userAgentLabel,
  language: pushSubscriptions.language,
  createdAt: pushSubscriptions.createdAt,
  lastSuccessAt: pushSubscriptions.lastSuccessAt,
};

function toDto(r: { id: number; userAgentLabel: string; language: string; createdAt: Date; lastSuccessAt: Date | null }): PushDeviceDto {
  return { ...r, createdAt: r.createdAt.toISOString(), lastSuccessAt: r.lastSuccessAt?.toISOString() ?? null };
}

/** "Chrome on Android" from a User-Agent header: enough to tell one's devices apart in the list. */
export function userAgentLabel(ua: string | null | undefined): string {
  const s = (ua ?? "").slice(0, 512);
  const browser = /Edg\//.test(s) ? "Edge" : /OPR\/|Opera/.test(s) ? "Opera" : /Firefox\//.test(s) ? "Firefox" : /Chrome\/|Chromium\//.test(s) ? "Chrome" : /Safari\//.test(s) ? "Safari" : "";
  const os = /Android/.test(s) ? "Android" : /iPhone|iPad|iPod/.test(s) ? "iOS" : /Windows/.test(s) ? "Windows" : /Mac OS X|Macintosh/.test(s) ? "macOS" : /CrOS/.test(s) ? "ChromeOS" : /Linux/.test(s) ? "Linux" : "";
  return [browser, os].filter(Boolean).join(" · ");
}

/**
 * POST push/subscriptions — subscribes the viewer's browser: one row per endpoint, idempotent (the same
 * browser again refreshes its keys and language). An endpoint another account held moves to the viewer:
 * the browser is signed in here now and must not receive that account's pushes. The row belongs to the
 * viewer's session and goes when it ends (endSessionsPushDevices). An endpoint that is not https on a
 * public address is refused (422 on `endpoint`, docs/adr/0163). Counted against RATE_LIMIT_PUSH_SUBSCRIBE;
 * a 21st device is refused (409) until one is removed.
 */
export async function subscribePush({ ctx, input, userAgent }: { ctx: ServiceCtx; input: unknown; userAgent?: string | null }): Promise<{ device: PushDeviceDto; created: boolean }> {
  const viewer = requireViewer(ctx);
  if (viewer.isDeleted) throw new ForbiddenError("accountErrors.accountDeleted");
  const { endpoint, keys } = pushSubscriptionInput.parse(input);
  await consumeAccountLimits(["pushSubscribe"], viewer.id);
  if (!(await mayBePushEndpoint(endpoint))) {
    throw new ValidationError("pushErrors.endpointNotPublic", [{ path: "endpoint", message: "pushErrors.endpointNotPublic" }]);
  }
  const language = ctx.locale ?? "ru";
  const label = userAgentLabel(userAgent);
  return withTransaction(ctx, async (tx) => {
    // One subscribe of an account at a time, so two browsers racing cannot both pass the cap.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('push-subscribe:' || ${viewer.id}::text, 0))`);
    const [{ n, mine }] = await tx.execute<{ n: number; mine: boolean }>(sql`
      select count(*)::int as n, bool_or(endpoint = ${endpoint}) as mine
      from push_subscriptions where account_id = ${viewer.id}`);
    if (!mine && n >= PUSH_DEVICES_MAX) throw new ConflictError("pushErrors.tooManyDevices");
    const [row] = await tx.execute<{ id: string }>(sql`
      insert into push_subscriptions as s (account_id, session_id, endpoint, p256dh, auth, language, user_agent_label)
      values (${viewer.id}, ${viewer.sessionId}, ${endpoint}, ${keys.p256dh}, ${keys.auth}, ${language}, ${label})
      on conflict (endpoint) do update set
        p256dh = excluded.p256dh, auth = excluded.auth, language = excluded.language, user_agent_label = excluded.user_agent_label,
        session_id = excluded.session_id, failures = 0, retry_after = null,
        created_at = case when s.account_id = excluded.account_id then s.created_at else now() end,
        last_success_at = case when s.account_id = excluded.account_id then s.last_success_at end,
        account_id = excluded.account_id
      returning s.id`);
    const [saved] = await tx.select(device).from(pushSubscriptions).where(eq(pushSubscriptions.id, Number(row.id)));
    return { device: toDto(saved), created: !mine };
  });
}

/** GET push/subscriptions — the viewer's devices, newest first, and the key a browser subscribes with. */
export async function listPushDevices({ ctx }: { ctx: ServiceCtx }): Promise<PushDevicesDto> {
  const viewer = requireViewer(ctx);
  const rows = await (ctx.tx ?? ctx.db).select(device).from(pushSubscriptions).where(eq(pushSubscriptions.accountId, viewer.id)).orderBy(desc(pushSubscriptions.id));
  return { vapidPublicKey: vapidKeys().publicKey, devices: rows.map(toDto) };
}

/** GET push/vapid-public-key — the applicationServerKey for PushManager.subscribe (public: it signs nothing). */
export function pushPublicKey(): { vapidPublicKey: string } {
  return { vapidPublicKey: vapidKeys().publicKey };
}

/** DELETE push/subscriptions/{id} — removes one of the viewer's devices; another account's is 404, as if none. */
export async function removePushDevice({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<void> {
  const viewer = requireViewer(ctx);
  const { id } = pushSubscriptionIdParams.parse(input);
  const gone = await (ctx.tx ?? ctx.db)
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.accountId, viewer.id)))
    .returning({ id: pushSubscriptions.id });
  if (gone.length === 0) throw new NotFoundError("pushErrors.notFound");
}

/**
 * A session ends (sign-out, refresh-token reuse, every session of an account after a password change or
 * reset, an e-mail change, an admin's block, erasure): the devices it subscribed go, with their queued
 * pushes, in the same transaction (issue 40 item 3). Called by lib/server/services/auth/sessions.ts, the
 * one place that revokes sessions; a session purged or an account deleted cascades to its devices in the
 * database, and the dispatcher and the sender join the live session besides (an expired one pushes nothing).
 */
export async function endSessionsPushDevices(tx: Tx, sessions: { sessionId: string } | { accountIds: number[] }): Promise<void> {
  const which =
    "sessionId" in sessions
      ? sql`p.session_id = ${sessions.sessionId}::uuid`
      : sql`p.account_id = any(${`{${sessions.accountIds.join(",")}}`}::bigint[])`;
  const gone = await tx.execute<{ id: string }>(sql`delete from push_subscriptions p where ${which} returning p.id`);
  if (gone.length === 0) return;
  // Their queued pushes (created or waiting for a retry), once pg-boss has made its schema (a database
  // whose jobs never started has none): the sender would skip them, this keeps no text waiting.
  const [jobs] = await tx.execute<{ ready: boolean }>(sql`select to_regclass('pgboss.job') is not null as ready`);
  if (!jobs?.ready) return;
  await tx.execute(sql`
    delete from pgboss.job
    where name = ${QUEUES.push} and state < 'active'
      and (data->>'subscriptionId')::bigint = any(${`{${gone.map((g) => g.id).join(",")}}`}::bigint[])`);
}
