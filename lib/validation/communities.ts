import { z } from "zod";
import {
  COMMUNITY_DESCRIPTION_MAX,
  COMMUNITY_MEMBER_PAGE_DEFAULT,
  COMMUNITY_MEMBER_PAGE_MAX,
  COMMUNITY_NAME_MAX,
  COMMUNITY_PAGE_DEFAULT,
  COMMUNITY_PAGE_MAX,
  COMMUNITY_QUERY_MAX,
  COMMUNITY_ROLES,
  COMMUNITY_TYPES,
  COMMUNITY_WALLS,
  MEMBER_LIST_STATUSES,
} from "./communities-shared";
import { storedKeyOf } from "./storage";
import { lineString, textString } from "./text";

export * from "./communities-shared";

// The communities API's contract (issue 42): the zod schemas of every body, path and query, used by the
// routes and re-parsed by the services. Refusal messages are keys of messages/*.json (communityErrors);
// the API translates them. No server imports.

export const COMMUNITY_ERRORS = {
  badId: "communityErrors.badId",
  badQuery: "communityErrors.badQuery",
  unknownParam: "communityErrors.unknownParam",
  nameEmpty: "communityErrors.nameEmpty",
  nameTooLong: "communityErrors.nameTooLong",
  descriptionTooLong: "communityErrors.descriptionTooLong",
  badType: "communityErrors.badType",
  badWall: "communityErrors.badWall",
  badPhoto: "communityErrors.badPhoto",
  badRole: "communityErrors.badRole",
  badStatus: "communityErrors.badStatus",
  nothingToChange: "communityErrors.nothingToChange",
  notFound: "communityErrors.notFound",
  accountNotFound: "communityErrors.accountNotFound",
  memberNotFound: "communityErrors.memberNotFound",
  notAllowed: "communityErrors.notAllowed",
  alreadyMember: "communityErrors.alreadyMember",
  alreadyRequested: "communityErrors.alreadyRequested",
  alreadyInvited: "communityErrors.alreadyInvited",
  banned: "communityErrors.banned",
  blocked: "communityErrors.blocked",
  notFriend: "communityErrors.notFriend",
  ownerLeaves: "communityErrors.ownerLeaves",
  notDeleted: "communityErrors.notDeleted",
  restoreExpired: "communityErrors.restoreExpired",
  viewerDeleted: "communityErrors.viewerDeleted",
  rateLimited: "communityErrors.rateLimited",
} as const;

/** A positive integer id, from a path or query segment ("42") or a JSON number. */
export const communityIdSchema = z.union(
  [
    z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    z
      .string()
      .regex(/^[1-9]\d{0,15}$/)
      .transform(Number)
      .refine(Number.isSafeInteger),
  ],
  { error: COMMUNITY_ERRORS.badId },
);

const unknownParam = {
  error: (iss: { code?: string }) => (iss.code === "unrecognized_keys" ? COMMUNITY_ERRORS.unknownParam : undefined),
};
const pageNumber = z.coerce.number({ error: COMMUNITY_ERRORS.badQuery }).int(COMMUNITY_ERRORS.badQuery).min(0, COMMUNITY_ERRORS.badQuery).max(1_000_000, COMMUNITY_ERRORS.badQuery);
const pageSize = (max: number, fallback: number) =>
  z.coerce.number({ error: COMMUNITY_ERRORS.badQuery }).int(COMMUNITY_ERRORS.badQuery).min(1, COMMUNITY_ERRORS.badQuery).max(max, COMMUNITY_ERRORS.badQuery).default(fallback);

/** A community's name: one line, trimmed, 1..COMMUNITY_NAME_MAX characters (code points). */
export const communityNameSchema = lineString({ error: COMMUNITY_ERRORS.nameEmpty })
  .trim()
  .min(1, COMMUNITY_ERRORS.nameEmpty)
  .refine((s) => [...s].length <= COMMUNITY_NAME_MAX, COMMUNITY_ERRORS.nameTooLong);

/** Its short description: plain text with lines, trimmed, at most COMMUNITY_DESCRIPTION_MAX characters. */
export const communityDescriptionSchema = textString({ error: COMMUNITY_ERRORS.descriptionTooLong })
  .trim()
  .refine((s) => [...s].length <= COMMUNITY_DESCRIPTION_MAX, COMMUNITY_ERRORS.descriptionTooLong);

const typeSchema = z.enum(COMMUNITY_TYPES, { error: COMMUNITY_ERRORS.badType });
const wallSchema = z.enum(COMMUNITY_WALLS, { error: COMMUNITY_ERRORS.badWall });

/** A photo or cover: a URL path of an image this server stored, or null to remove it. */
const imageSchema = z
  .string({ error: COMMUNITY_ERRORS.badPhoto })
  .max(200, COMMUNITY_ERRORS.badPhoto)
  .refine((v) => storedKeyOf(v) !== null, COMMUNITY_ERRORS.badPhoto)
  .nullable();

/** Body of POST communities. */
export const createCommunityInput = z.strictObject(
  {
    name: communityNameSchema,
    description: communityDescriptionSchema.optional(),
    type: typeSchema,
    wall: wallSchema.optional(),
    photo: imageSchema.optional(),
    cover: imageSchema.optional(),
  },
  unknownParam,
);
export type CreateCommunityInput = z.input<typeof createCommunityInput>;

/** Body of PATCH communities/{id}: any of its fields (null removes the photo or the cover). */
export const updateCommunityInput = z
  .strictObject(
    {
      name: communityNameSchema.optional(),
      description: communityDescriptionSchema.optional(),
      type: typeSchema.optional(),
      wall: wallSchema.optional(),
      photo: imageSchema.optional(),
      cover: imageSchema.optional(),
    },
    unknownParam,
  )
  .refine((d) => Object.values(d).some((v) => v !== undefined), { message: COMMUNITY_ERRORS.nothingToChange, path: ["name"] });
export type UpdateCommunityInput = z.input<typeof updateCommunityInput>;

/** `{id}` of communities/{id}/…. */
export const communityIdParams = z.object({ id: communityIdSchema });
/** `{id}` and `{accountId}` of communities/{id}/members/{accountId}. */
export const communityMemberParams = z.object({ id: communityIdSchema, accountId: communityIdSchema });

/**
 * Query of GET communities: `query` searches names (at least COMMUNITY_QUERY_MIN letters); `memberId`
 * lists that person's communities (another person's: the open ones; one's own: all, and with
 * `membership` INVITED or REQUESTED one's invitations or requests). Neither: the caller's own.
 */
export const communityListQuery = z.strictObject(
  {
    query: lineString({ error: COMMUNITY_ERRORS.badQuery }).trim().max(COMMUNITY_QUERY_MAX, COMMUNITY_ERRORS.badQuery).optional(),
    memberId: communityIdSchema.optional(),
    membership: z.enum(["MEMBER", "INVITED", "REQUESTED"], { error: COMMUNITY_ERRORS.badQuery }).optional(),
    page: pageNumber.default(0),
    size: pageSize(COMMUNITY_PAGE_MAX, COMMUNITY_PAGE_DEFAULT),
  },
  unknownParam,
);
export type CommunityListQuery = z.input<typeof communityListQuery>;

/** Query of GET communities/{id}/members. */
export const communityMemberListQuery = z.strictObject(
  {
    status: z.enum(MEMBER_LIST_STATUSES, { error: COMMUNITY_ERRORS.badStatus }).default("MEMBER"),
    page: pageNumber.default(0),
    size: pageSize(COMMUNITY_MEMBER_PAGE_MAX, COMMUNITY_MEMBER_PAGE_DEFAULT),
  },
  unknownParam,
);
export type CommunityMemberListQuery = z.input<typeof communityMemberListQuery>;

/**
 * Body of PUT communities/{id}/members/{accountId}: `status` MEMBER accepts a request, BANNED bans
 * (an admin); `role` makes an admin, moderator or member, or OWNER hands ownership on (the owner).
 */
export const updateMemberInput = z
  .strictObject(
    {
      role: z.enum(COMMUNITY_ROLES, { error: COMMUNITY_ERRORS.badRole }).optional(),
      status: z.enum(["MEMBER", "BANNED"], { error: COMMUNITY_ERRORS.badStatus }).optional(),
    },
    unknownParam,
  )
  .refine((d) => d.role !== undefined || d.status !== undefined, { message: COMMUNITY_ERRORS.nothingToChange, path: ["role"] })
  .refine((d) => d.role === undefined || d.status === undefined, { message: COMMUNITY_ERRORS.badStatus, path: ["status"] });
export type UpdateMemberInput = z.input<typeof updateMemberInput>;

/** Body of PUT communities/{id}/feed: whether the member's news feed shows the community's posts. */
export const communityFeedInput = z.strictObject({ inFeed: z.boolean({ error: COMMUNITY_ERRORS.badQuery }) }, unknownParam);
export type CommunityFeedInput = z.input<typeof communityFeedInput>;

/** Body of PUT communities/{id}/notifications: whether the member is notified of each new post on its wall. */
export const communityNotificationsInput = z.strictObject({ posts: z.boolean({ error: COMMUNITY_ERRORS.badQuery }) }, unknownParam);
export type CommunityNotificationsInput = z.input<typeof communityNotificationsInput>;

/** Body of POST communities/{id}/invitations. */
export const inviteInput = z.strictObject({ accountId: communityIdSchema }, unknownParam);
export type InviteInput = z.input<typeof inviteInput>;
