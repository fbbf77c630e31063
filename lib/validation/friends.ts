import { z } from "zod";
import { FRIEND_TABS, FRIEND_ERRORS } from "./friends-shared";
import { lineString } from "./text";

export * from "./friends-shared";

// Shared by the friends routes, the services (which re-parse), the /friends pages and SWR hooks.
// Messages are keys of messages/*.json (namespace friendErrors); the API translates them.

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

// ---- /friends/find ----

const ageText = z.string().trim().regex(/^(\d{1,3})?$/, "friends.search.ageInvalid").refine((v) => v === "" || Number(v) <= 150, "friends.search.ageInvalid");

/**
 * The friends search form (spec section 2: first name, last name, age from and to, country, city).
 * Every field may stay empty; the values become the query of GET account/search, which re-checks them.
 */
export const friendSearchForm = z
  .object({
    firstName: lineString().trim().max(100, "validation.tooLong"),
    lastName: lineString().trim().max(100, "validation.tooLong"),
    ageFrom: ageText,
    ageTo: ageText,
    /** ISO 3166-1 alpha-2 id from GET geo/country, or "" for any country. */
    country: z.string().regex(/^([A-Z]{2})?$/, "friends.search.countryInvalid"),
    city: lineString().trim().max(100, "validation.tooLong"),
  })
  .refine((v) => v.ageFrom === "" || v.ageTo === "" || Number(v.ageFrom) <= Number(v.ageTo), {
    message: "accountErrors.ageRange",
    path: ["ageTo"],
  });
export type FriendSearchForm = z.infer<typeof friendSearchForm>;
export const FRIEND_SEARCH_FIELDS = ["firstName", "lastName", "ageFrom", "ageTo", "country", "city"] as const;
