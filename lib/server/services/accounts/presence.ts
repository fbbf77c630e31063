import "server-only";
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { accounts } from "@/db/schema";

/**
 * How long after its last sign of life an account still counts as online. The realtime sidecar
 * touches a connected account at least once a minute, so two minutes survive one missed touch.
 */
export const ONLINE_WINDOW_SECONDS = 120;

/** How often the sidecar refreshes last_online_time of an account that stays connected. */
export const PRESENCE_TOUCH_INTERVAL_MS = 60_000;

/** Marks the account as seen now. The sidecar calls it on connect, once a minute, and on the last disconnect. */
export async function touchPresence(db: DbOrTx, accountId: number): Promise<void> {
  await db.update(accounts).set({ lastOnlineTime: sql`now()` }).where(eq(accounts.id, accountId));
}

/**
 * Whether the viewer's side of a relation hides the other account's presence: a block either way
 * (BLOCKED, REJECTING) holds everywhere, so neither sees whether the other is online or when they were
 * last (issue 24 item 20). The DTOs then answer isOnline false and lastOnlineTime null.
 */
export function hidesPresence(viewerSide: string | null | undefined): boolean {
  return viewerSide === "BLOCKED" || viewerSide === "REJECTING";
}

/** Whether an account seen at `lastOnlineTime` counts as online at `now`; the account DTOs use it. */
export function isOnline(lastOnlineTime: Date | string | null | undefined, now: Date = new Date()): boolean {
  if (!lastOnlineTime) return false;
  const seen = typeof lastOnlineTime === "string" ? Date.parse(lastOnlineTime) : lastOnlineTime.getTime();
  if (Number.isNaN(seen)) return false;
  return now.getTime() - seen <= ONLINE_WINDOW_SECONDS * 1000;
}
