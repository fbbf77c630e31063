// The zod-free half of the communities contract (issue 42): the numbers, kinds and the shapes the API
// sends, for pages that validate nothing. lib/validation/communities.ts re-exports it with the schemas.

/** Who reads a community: OPEN anyone signed in; CLOSED its members (others see its card); PRIVATE its members only (404 to others). */
export const COMMUNITY_TYPES = ["OPEN", "CLOSED", "PRIVATE"] as const;
export type CommunityType = (typeof COMMUNITY_TYPES)[number];

/** Who writes on its wall: ADMINS (a public page: posts signed by the community) or MEMBERS. */
export const COMMUNITY_WALLS = ["ADMINS", "MEMBERS"] as const;
export type CommunityWall = (typeof COMMUNITY_WALLS)[number];

/** Roles of a member, strongest first. */
export const COMMUNITY_ROLES = ["OWNER", "ADMIN", "MODERATOR", "MEMBER"] as const;
export type CommunityRole = (typeof COMMUNITY_ROLES)[number];

/** A person's standing in a community; NONE when there is no row. */
export const MEMBERSHIPS = ["MEMBER", "REQUESTED", "INVITED", "BANNED", "NONE"] as const;
export type Membership = (typeof MEMBERSHIPS)[number];

/** Statuses a member list can be asked for (REQUESTED, INVITED and BANNED: admins only). */
export const MEMBER_LIST_STATUSES = ["MEMBER", "REQUESTED", "INVITED", "BANNED"] as const;
export type MemberListStatus = (typeof MEMBER_LIST_STATUSES)[number];

export const COMMUNITY_NAME_MAX = 100;
export const COMMUNITY_DESCRIPTION_MAX = 500;
/** Letters a search needs before it asks anything (fewer: an empty page). */
export const COMMUNITY_QUERY_MIN = 3;
export const COMMUNITY_QUERY_MAX = 100;
export const COMMUNITY_PAGE_DEFAULT = 20;
export const COMMUNITY_PAGE_MAX = 100;
export const COMMUNITY_MEMBER_PAGE_DEFAULT = 50;
export const COMMUNITY_MEMBER_PAGE_MAX = 200;

/** A community as the API shows it to the caller. */
export type CommunityDto = {
  id: number;
  name: string;
  description: string;
  photo: string | null;
  cover: string | null;
  type: CommunityType;
  wall: CommunityWall;
  membersCount: number;
  /** The caller's role, when a member. */
  role: CommunityRole | null;
  membership: Membership;
  /** The caller may read its wall and members (OPEN, or a member). */
  canRead: boolean;
  /** The caller may post on its wall (a member; on an ADMINS wall an admin or the owner). */
  canPost: boolean;
  /** A member's choice: a COMMUNITY_POST notification of each new post on its wall (off when they join). */
  notifyPosts: boolean;
  /** A member's choice: its posts come into their news feed (on when they join). */
  inFeed: boolean;
  createdAt: string;
  /** Deleted by its owner: when (only the owner sees a deleted community, to restore it until restoreUntil). */
  deletedAt: string | null;
  restoreUntil: string | null;
};

/** A row of GET communities/{id}/members. */
export type CommunityMemberDto = {
  id: number;
  firstName: string;
  lastName: string;
  photo: string | null;
  role: CommunityRole | null;
  status: Exclude<Membership, "NONE">;
  /** Since when (joined, asked, invited or banned). */
  since: string;
  /** A friend of the caller (they come first in the list). */
  isFriend: boolean;
};
