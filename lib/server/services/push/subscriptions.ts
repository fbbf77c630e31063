import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import { pushSubscriptions } from "@/db/schema";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/server/http/errors";
import { consumeAccountLimits } from "@/lib/server/http/rate-limit";
import { pushSubscriptionIdParams, pushSubscriptionInput, type PushDeviceDto, type PushDevicesDto } from "@/lib/validation/push";
import { requireViewer, withTransaction, type ServiceCtx } from "../context";
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
 * the browser is signed in here now and must not receive that account's pushes. Counted against
 * RATE_LIMIT_PUSH_SUBSCRIBE; a 21st device is refused (409) until one is removed.
 */
export async function subscribePush({ ctx, input, userAgent }: { ctx: ServiceCtx; input: unknown; userAgent?: string | null }): Promise<{ device: PushDeviceDto; created: boolean }> {
  const viewer = requireViewer(ctx);
  if (viewer.isDeleted) throw new ForbiddenError("accountErrors.accountDeleted");
  const { endpoint, keys } = pushSubscriptionInput.parse(input);
  await consumeAccountLimits(["pushSubscribe"], viewer.id);
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
      insert into push_subscriptions as s (account_id, endpoint, p256dh, auth, language, user_agent_label)
      values (${viewer.id}, ${endpoint}, ${keys.p256dh}, ${keys.auth}, ${language}, ${label})
      on conflict (endpoint) do update set
        p256dh = excluded.p256dh, auth = excluded.auth, language = excluded.language, user_agent_label = excluded.user_agent_label,
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
