import { z } from "zod";

// Shared by the friends routes, the services (which re-parse), the /friends pages and SWR hooks.
// Messages are keys of messages/*.json (namespace friendErrors); the API translates them.

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

/** A positive integer account id, from a path segment ("42") or a number; "0x2a", "1e3", " 4" are refused. */
export const accountIdSchema = z.union(
  [
    z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    z
      .string()
      .regex(/^[1-9]\d{0,15}$/)
      .transform(Number)
      .refine(Number.isSafeInteger),
  ],
  { error: FRIEND_ERRORS.badAccountId },
);

/** The `{id}` of POST friends/{id}/request, PUT friends/block/{id} … */
export const friendTargetInput = z.object({ id: accountIdSchema });
export type FriendTargetInput = z.input<typeof friendTargetInput>;

const unknownParam = { error: (iss: { code?: string }) => (iss.code === "unrecognized_keys" ? FRIEND_ERRORS.unknownParam : undefined) };

const pageNumber = z.coerce.number({ error: FRIEND_ERRORS.badQuery }).int(FRIEND_ERRORS.badQuery).min(0, FRIEND_ERRORS.badQuery).max(1_000_000, FRIEND_ERRORS.badQuery);
const pageSize = (max: number, fallback: number) =>
  z.coerce.number({ error: FRIEND_ERRORS.badQuery }).int(FRIEND_ERRORS.badQuery).min(1, FRIEND_ERRORS.badQuery).max(max, FRIEND_ERRORS.badQuery).default(fallback);

export const FRIEND_PAGE_MAX = 100;
export const FRIEND_LIST_SORTS = ["updatedAt,desc", "updatedAt,asc"] as const;

/**
 * Query of GET friends and GET friends/request. Strict: a parameter that is not listed (accountId,
 * friendId …) is refused — there is no way to name another account, every list is the viewer's own.
 */
export const friendListQuery = z.strictObject(
  {
    statusCode: z.enum(FRIEND_TABS, { error: FRIEND_ERRORS.badQuery }).default("FRIEND"),
    page: pageNumber.default(0),
    size: pageSize(FRIEND_PAGE_MAX, 20),
    sort: z.enum(FRIEND_LIST_SORTS, { error: FRIEND_ERRORS.badQuery }).default("updatedAt,desc"),
  },
  unknownParam,
);
export type FriendListQuery = z.input<typeof friendListQuery>;

export const incomingRequestsQuery = friendListQuery.omit({ statusCode: true });
export type IncomingRequestsQuery = z.input<typeof incomingRequestsQuery>;

/** At most this many recommendations are ranked; page and size move through them. */
export const RECOMMENDATIONS_MAX = 100;
export const recommendationsQuery = z.strictObject(
  { page: pageNumber.default(0), size: pageSize(50, 10) },
  unknownParam,
);
export type RecommendationsQuery = z.input<typeof recommendationsQuery>;

/** GET friends/count and friends/counts take no parameters. */
export const noQuery = z.strictObject({}, unknownParam);

/** Types of the outbox events a relation change appends for the other account. */
export const FRIEND_EVENT_TYPES = [
  "FRIEND_REQUEST",
  "FRIEND_APPROVE",
  "FRIEND_SUBSCRIBE",
  "FRIEND_BLOCKED",
  "FRIEND_UNBLOCKED",
  "FRIEND_REMOVED",
] as const;
export type FriendEventType = (typeof FRIEND_EVENT_TYPES)[number];

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
  city: string | null;
  country: string | null;
  age: number | null;
  isOnline: boolean;
  lastOnlineTime: string | null;
  emojiStatus: string | null;
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

// ---- /friends/find ----

const ageText = z.string().trim().regex(/^(\d{1,3})?$/, "friends.search.ageInvalid").refine((v) => v === "" || Number(v) <= 150, "friends.search.ageInvalid");

/**
 * The friends search form (spec section 2: first name, last name, age from and to, country, city).
 * Every field may stay empty; the values become the query of GET account/search, which re-checks them.
 */
export const friendSearchForm = z
  .object({
    firstName: z.string().trim().max(100, "validation.tooLong"),
    lastName: z.string().trim().max(100, "validation.tooLong"),
    ageFrom: ageText,
    ageTo: ageText,
    /** ISO 3166-1 alpha-2 id from GET geo/country, or "" for any country. */
    country: z.string().regex(/^([A-Z]{2})?$/, "friends.search.countryInvalid"),
    city: z.string().trim().max(100, "validation.tooLong"),
  })
  .refine((v) => v.ageFrom === "" || v.ageTo === "" || Number(v.ageFrom) <= Number(v.ageTo), {
    message: "accountErrors.ageRange",
    path: ["ageTo"],
  });
export type FriendSearchForm = z.infer<typeof friendSearchForm>;
export const FRIEND_SEARCH_FIELDS = ["firstName", "lastName", "ageFrom", "ageTo", "country", "city"] as const;
