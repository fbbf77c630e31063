// The zod-free half of the friends contract: constants and response shapes that client components
// (the shell's friend-request counter, the tabs, the relation actions) import without pulling zod into
// every page (issue 14 item 11). lib/validation/friends.ts re-exports all of it.

/** Every side of a relation (spec section 4); the database enum friend_status has the same values. */
export const FRIEND_STATUSES = [
  "FRIEND",
  "REQUEST_TO",
  "REQUEST_FROM",
  "SUBSCRIBED",
  "WATCHING",
  "BLOCKED",
  "REJECTING",
] as const;
export type FriendStatus = (typeof FRIEND_STATUSES)[number];
/** The name the spec and the UI components use for the same thing. */
export type FriendStatusCode = FriendStatus;

/**
 * The six tabs of /friends: incoming requests, outgoing requests, subscribers, blocked, subscribed,
 * friends. REJECTING ("blocked me") has no tab and cannot be listed: nobody gets a list of who blocked them.
 */
export const FRIEND_TABS = ["REQUEST_FROM", "REQUEST_TO", "WATCHING", "BLOCKED", "SUBSCRIBED", "FRIEND"] as const;
export type FriendTab = (typeof FRIEND_TABS)[number];

/**
 * The two refusals whose wording the spec fixes (section 8) are sent verbatim so the client can map
 * them ("request already sent!" → friendErrors.requestAlreadySent, "Blocked!" → friendErrors.blockedYou).
 * Every other refusal is a message key the API translates.
 */
export const FRIEND_REPLY = {
  requestAlreadySent: "request already sent!",
  blocked: "Blocked!",
} as const;

export const FRIEND_ERRORS = {
  alreadyFriends: "friendErrors.alreadyFriends",
  youBlocked: "friendErrors.youBlocked",
  alreadySubscribed: "friendErrors.alreadySubscribed",
  followsYou: "friendErrors.followsYou",
  remoteFollowOnly: "friendErrors.remoteFollowOnly",
  incomingRequest: "friendErrors.incomingRequest",
  noIncomingRequest: "friendErrors.noIncomingRequest",
  noRelation: "friendErrors.noRelation",
  useUnblock: "friendErrors.useUnblock",
  alreadyBlocked: "friendErrors.alreadyBlocked",
  notBlocked: "friendErrors.notBlocked",
  self: "friendErrors.self",
  accountNotFound: "friendErrors.accountNotFound",
  viewerDeleted: "friendErrors.viewerDeleted",
  badAccountId: "friendErrors.badAccountId",
  badQuery: "friendErrors.badQuery",
  unknownParam: "friendErrors.unknownParam",
} as const;

export { FRIEND_EVENT_TYPES, type FriendEventType } from "./friend-events";

// ---- Response shapes (what the routes return; the pages and SWR hooks type their data with these) ----

/** The viewer's side of one relation; statusCode null when no relation remains. */
export type FriendSide = {
  id: number | null;
  friendId: number;
  statusCode: FriendStatus | null;
  previousStatusCode: FriendStatus | null;
};

export type FriendAccountSummary = {
  id: number;
  firstName: string;
  lastName: string;
  fullName: string;
  photo: string | null;
  /** Titled in the request's language (docs/adr/0044); the ids beside them. */
  city: string | null;
  cityId: number | null;
  country: string | null;
  countryId: string | null;
  age: number | null;
  isOnline: boolean;
  lastOnlineTime: string | null;
  emojiStatus: string | null;
  /** The page is closed to the viewer (docs/adr/0125): place, age, status and presence are left empty. */
  isClosed?: boolean;
  /** Issue 27: a friend's birthday as "MM-DD" (for the "birthday today" mark), null for anyone else. */
  birthday?: string | null;
};

export type FriendListItem = FriendSide & {
  id: number;
  statusCode: FriendStatus;
  updatedAt: string;
  account: FriendAccountSummary;
};

/** The viewer's side towards a recommended account: null, or a subscription either way (the rest are never recommended). */
export type FriendRecommendation = FriendAccountSummary & { mutualFriends: number; statusCode: FriendStatus | null };

/** The paging envelope of every list (spec section 3), for client code that cannot import the server's. */
export type Paged<T> = { content: T[]; totalPages: number; totalElements: number; size: number; number: number };

/** Spec section 9: the friends tabs show 3 rows first and 6 more on each "load more". */
export const FRIENDS_FIRST_PAGE = 3;
export const FRIENDS_MORE = 6;

export type FriendCounts = Record<FriendTab, number>;

/** Payload of every friend event: who acted, for whom, and the recipient's side after the change. */
export type FriendEventData = {
  authorId: number;
  receiverId: number;
  author: { id: number; firstName: string; lastName: string; photo: string | null };
  statusCode: FriendStatus | null;
  previousStatusCode: FriendStatus | null;
};
