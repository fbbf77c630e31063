import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { ForbiddenError } from "@/lib/server/http/errors";
import { PRIVACY_ERRORS, type FriendRequestsFrom } from "@/lib/validation/privacy";
import { friendRequestAllowed, profileOpenSql } from "./rules";
import { haveMutualFriend } from "./settings";

/**
 * Refuses (403 privacyErrors.profileClosed) a list of another account's page — its wall, its friends —
 * that is closed to the viewer. One statement of primary-key probes. Callers check existence first.
 */
export async function assertProfileOpen(db: DbOrTx, viewerId: number, ownerId: number): Promise<void> {
  if (ownerId === viewerId) return;
  const [row] = await db.execute<{ open: boolean }>(sql`select ${profileOpenSql(viewerId, sql`${ownerId}::bigint`)} as open`);
  if (!row?.open) throw new ForbiddenError(PRIVACY_ERRORS.profileClosed);
}

/** Whether the viewer may ask `ownerId` for friendship by its setting (a query only for FRIENDS_OF_FRIENDS). */
export async function mayRequestFriendship(db: DbOrTx, viewerId: number, owner: { id: number; friendRequestsFrom: FriendRequestsFrom }): Promise<boolean> {
  if (owner.friendRequestsFrom === "ALL") return true;
  return friendRequestAllowed({ friendRequestsFrom: owner.friendRequestsFrom, mutual: await haveMutualFriend(db, viewerId, owner.id) });
}
