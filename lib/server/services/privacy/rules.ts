import "server-only";
import { sql, type AnyColumn, type Placeholder, type SQL } from "drizzle-orm";
import type { FriendRequestsFrom, MessagesFrom, ProfileVisibility } from "@/lib/validation/privacy";

// The privacy rule (issue 26 section 3, docs/adr/0125), in ONE place: every read and write path asks
// these functions (in TypeScript for a row already read, in SQL for statements over many rows). Staff
// get no exception here: their access to people's content is the admin area's, which does not read
// through these rules.
//
// "Friend" is the viewer's own side of the pair being FRIEND (both rows of a pair change together, and
// FRIEND is never a blocked relation).

/** The viewer's side of the relation with an account (friendships.status_code), null when none. */
export type Side = string | null | undefined;

/** Whether the viewer sees the page beyond name and photo: their own, an open one, or a friend's. */
export function profileOpen(o: { ownerId: number; viewerId: number | null; profileVisibility: ProfileVisibility; side: Side }): boolean {
  return o.ownerId === o.viewerId || o.profileVisibility === "ALL" || o.side === "FRIEND";
}

/** Whether the owner's messagesFrom lets the viewer write (blocks and deletions are the dialogs' own refusals). */
export function messagesAllowed(o: { messagesFrom: MessagesFrom; side: Side }): boolean {
  return o.messagesFrom === "ALL" || o.side === "FRIEND";
}

/**
 * Whether the owner's friendRequestsFrom lets the viewer ask for friendship. `mutual` is whether the
 * two share a friend; pass undefined when it was not read (then only ALL answers true).
 */
export function friendRequestAllowed(o: { friendRequestsFrom: FriendRequestsFrom; mutual: boolean | undefined }): boolean {
  return o.friendRequestsFrom === "ALL" || o.mutual === true;
}

/**
 * Who hears of an account's new post (POST notifications, the feeds' live event): friends and
 * subscribers of an open page; a closed page's friends only — a subscriber who is not a friend may not
 * read the post.
 */
export function postAudience(profileVisibility: ProfileVisibility): ("FRIEND" | "WATCHING")[] {
  return profileVisibility === "ALL" ? ["FRIEND", "WATCHING"] : ["FRIEND"];
}

/** Account `alias` takes friend requests from anyone (a stranger's "add" button would not be refused). */
export const takesRequestsFromAnyone = (alias: string) => sql.raw(`${alias}.friend_requests_from = 'ALL'`);

/** The viewer's friends, as a subquery (an index-only range of friendships_account_status_idx). */
const friendsOf = (viewerId: number | SQL) =>
  sql`(select f.friend_id from friendships f where f.account_id = ${viewerId} and f.status_code = 'FRIEND')`;

/**
 * The accounts whose page is closed to the viewer: closed, neither the viewer nor a friend. A small
 * set read once per statement through accounts_closed_idx; use as `author_id not in <this>` so
 * Postgres hashes it and tests each row in memory (no per-row probe, no function on the indexed side).
 */
export const closedTo = (viewerId: number) =>
  sql`(select c.id from accounts c where c.profile_visibility <> 'ALL' and c.id <> ${viewerId} and c.id not in ${friendsOf(viewerId)})`;

/**
 * Whether the account (its `id` and `searchable` columns) may appear in the viewer's people search and
 * recommendations: searchable, or a friend of the viewer (friends know each other already; see the ADR).
 * A plain column test first, so the planner keeps its row estimates (nearly every account is searchable)
 * and the name indexes; the viewer's friends are hashed once, and asked only of unsearchable rows.
 */
export const findableBy = (viewerId: number, id: SQL | AnyColumn, searchable: SQL | AnyColumn) =>
  sql`(${searchable} or ${id} in ${friendsOf(viewerId)})`;

/** Whether account `owner` (an id expression) is open to the viewer: for statements about one row. */
export const profileOpenSql = (viewerId: number | Placeholder, owner: SQL) => sql`(${owner} = ${viewerId}
  or not exists (select 1 from accounts pv where pv.id = ${owner} and pv.profile_visibility <> 'ALL')
  or exists (select 1 from friendships pf where pf.account_id = ${viewerId} and pf.friend_id = ${owner} and pf.status_code = 'FRIEND'))`;

/**
 * Whether `sender` may write to `recipient` by the recipient's messagesFrom (ids as expressions). A person
 * of another server takes no messages, even from a mutual follower (FRIEND across servers, docs/adr/0180).
 */
export const messagesAllowedSql = (sender: number | SQL, recipient: number | SQL) => sql`exists (
  select 1 from accounts mr where mr.id = ${recipient} and not mr.remote and (mr.messages_from = 'ALL'
    or exists (select 1 from friendships mf where mf.account_id = ${sender} and mf.friend_id = ${recipient} and mf.status_code = 'FRIEND')))`;

/**
 * Whether `a` and `b` share a friend: a's friends (one index range) each probed in b's (primary key).
 * Bounded by a's friend count; asked only of accounts whose friendRequestsFrom is FRIENDS_OF_FRIENDS.
 */
export const mutualFriendSql = (a: number, b: number) => sql`exists (
  select 1 from friendships x
  join friendships y on y.account_id = ${b} and y.friend_id = x.friend_id and y.status_code = 'FRIEND'
  where x.account_id = ${a} and x.status_code = 'FRIEND')`;
