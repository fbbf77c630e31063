import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { ForbiddenError, NotFoundError } from "@/lib/server/http/errors";
import { env } from "@/lib/server/env";
import { isoTime } from "@/lib/server/services/friends/summary";
import type { Viewer } from "@/lib/server/auth/viewer";
import { COMMUNITY_ERRORS, type CommunityDto, type CommunityRole, type CommunityType, type CommunityWall, type Membership } from "@/lib/validation/communities";

// Who sees a community and what they may do in it (issue 42): one row read per call (the community and
// the caller's own member row, two primary-key probes), mapped once.

/** Roles by strength: a role acts only on roles below its own. */
export const ROLE_RANK: Record<CommunityRole, number> = { OWNER: 3, ADMIN: 2, MODERATOR: 1, MEMBER: 0 };

export type CommunityRow = {
  id: string;
  name: string;
  description: string;
  photo: string | null;
  cover: string | null;
  type: CommunityType;
  wall: CommunityWall;
  owner_id: string;
  members_count: number;
  created_at: string;
  is_deleted: boolean;
  deleted_at: string | null;
  is_blocked: boolean;
  my_status: Exclude<Membership, "NONE"> | null;
  my_role: CommunityRole | null;
  my_notify_posts: boolean | null;
  my_feed_off: boolean | null;
};

/** The columns of `c` (communities) and `m` (the caller's community_members row, left-joined). */
export const communityColumns = sql`c.id, c.name, c.description, c.photo, c.cover, c.type, c.wall, c.owner_id, c.members_count,
  ${isoTime(sql`c.created_at`)} as created_at, c.is_deleted, ${isoTime(sql`c.deleted_at`)} as deleted_at, c.is_blocked,
  m.status as my_status, m.role as my_role, m.notify_posts as my_notify_posts, m.feed_off as my_feed_off`;

/** The end of a deleted community's restore window, as an account's (DELETION_RESTORE_DAYS). */
export function restoreUntil(deletedAt: string | null): Date | null {
  return deletedAt ? new Date(new Date(deletedAt).getTime() + env().DELETION_RESTORE_DAYS * 24 * 3600_000) : null;
}

/**
 * Whether the caller sees community `r` at all: not blocked by the staff; deleted only to its owner;
 * a PRIVATE one only to its members and the people it invited.
 */
export function visible(r: CommunityRow, viewerId: number): boolean {
  if (r.is_blocked) return false;
  if (r.is_deleted) return Number(r.owner_id) === viewerId;
  if (r.type === "PRIVATE") return r.my_status === "MEMBER" || r.my_status === "INVITED";
  return true;
}

export function toCommunityDto(r: CommunityRow): CommunityDto {
  const member = r.my_status === "MEMBER";
  const role = member ? r.my_role : null;
  return {
    id: Number(r.id),
    name: r.name,
    description: r.description,
    photo: r.photo,
    cover: r.cover,
    type: r.type,
    wall: r.wall,
    membersCount: r.members_count,
    role,
    membership: r.my_status ?? "NONE",
    canRead: !r.is_deleted && (r.type === "OPEN" || member),
    canPost: !r.is_deleted && member && (r.wall === "MEMBERS" || role === "OWNER" || role === "ADMIN"),
    notifyPosts: member && r.my_notify_posts === true,
    inFeed: member && !r.my_feed_off,
    createdAt: new Date(r.created_at).toISOString(),
    deletedAt: r.is_deleted && r.deleted_at ? new Date(r.deleted_at).toISOString() : null,
    restoreUntil: r.is_deleted ? (restoreUntil(r.deleted_at)?.toISOString() ?? null) : null,
  };
}

/**
 * Community `id` with the caller's row; `lock` takes the community's row for a change (members_count,
 * roles), "share" waits for one in progress (a post on its wall waits for a ban being committed).
 */
export async function readCommunityRow(db: DbOrTx, viewerId: number, id: number, lock: boolean | "share" = false): Promise<CommunityRow | null> {
  const [row] = await db.execute<CommunityRow>(sql`
    select ${communityColumns} from communities c
    left join community_members m on m.community_id = c.id and m.account_id = ${viewerId}
    where c.id = ${id}${lock === "share" ? sql` for share of c` : lock ? sql` for update of c` : sql``}`);
  return row ?? null;
}

/** The community as the caller may see it, else 404 (absent, deleted, blocked, or private to them). */
export async function visibleCommunity(db: DbOrTx, viewerId: number, id: number, lock = false): Promise<CommunityRow> {
  const row = await readCommunityRow(db, viewerId, id, lock);
  if (!row || !visible(row, viewerId)) throw new NotFoundError(COMMUNITY_ERRORS.notFound);
  return row;
}

/** A live (not deleted) community the caller sees, locked, for a change; 404 otherwise. */
export async function lockLiveCommunity(tx: Tx, viewerId: number, id: number): Promise<CommunityRow> {
  const row = await visibleCommunity(tx, viewerId, id, true);
  if (row.is_deleted) throw new NotFoundError(COMMUNITY_ERRORS.notFound);
  return row;
}

/** The caller's role when they are a member, else null. */
export const roleOf = (r: CommunityRow): CommunityRole | null => (r.my_status === "MEMBER" ? r.my_role : null);

/** The caller is the owner or an admin of `r`; 403 otherwise. */
export function requireAdmin(r: CommunityRow): CommunityRole {
  const role = roleOf(r);
  if (role !== "OWNER" && role !== "ADMIN") throw new ForbiddenError(COMMUNITY_ERRORS.notAllowed);
  return role;
}

/** A deleted account writes nothing (as everywhere). */
export function requireLiveViewer(viewer: Viewer): void {
  if (viewer.isDeleted) throw new ForbiddenError(COMMUNITY_ERRORS.viewerDeleted);
}
