import { z } from "zod";
import { clientIdField } from "./client-id";
import type { Paged } from "./friends";
import { REACTION_TYPES, DEFAULT_REACTION, type ReactionType } from "./reactions";
import { storedPathSchema } from "./storage";
import { postHtmlWithinBounds } from "./post-html-bounds";
import { lineString, textString } from "./text";

// Shared by the post routes, the services (which re-parse), the composer, the feed/wall/search pages
// and their SWR hooks. Messages are keys of messages/*.json (namespace postErrors, or validation /
// uploadErrors); the API translates them (ADR 0004).

export type { Paged } from "./friends";
export type { ReactionType } from "./reactions";

export * from "./post-shared";
import {
  POST_TITLE_MIN,
  POST_TITLE_MAX,
  POST_TEXT_MIN,
  POST_TEXT_MAX,
  POST_TAGS_MAX,
  FEED_PAGE_SIZE,
  WALL_PAGE_SIZE,
  POST_PAGE_SIZE_MAX,
  POST_PAGE_MAX,
  POST_SEARCH_TEXT_MAX,
  PUBLISH_DATE_GRACE_MS,
  POST_ERRORS,
  charCount,
  normalizeTitle,
  visibleText,
  normalizeTagName,
  tagKey,
} from "./post-shared";

// ---- Body fields ----

const titleSchema = textString(POST_ERRORS.titleText)
  .max(POST_TITLE_MAX * 4, POST_ERRORS.titleTooLong)
  .transform(normalizeTitle)
  .refine((v) => charCount(v) >= POST_TITLE_MIN, POST_ERRORS.titleText)
  .refine((v) => charCount(v) <= POST_TITLE_MAX, POST_ERRORS.titleTooLong);

/** The HTML as sent; the server sanitises it (lib/validation/post-html.ts) before the length check counts. */
const postTextSchema = textString(POST_ERRORS.titleText)
  .max(POST_TEXT_MAX, POST_ERRORS.textTooLong)
  // Before anything parses it: more elements or a deeper nesting than the sanitiser can take in well
  // under 100 ms is refused (issue 24 item 1, docs/adr/0107).
  .refine(postHtmlWithinBounds, POST_ERRORS.textTooComplex)
  .refine((v) => charCount(visibleText(v)) >= POST_TEXT_MIN, POST_ERRORS.titleText);

const tagItem = z.union(
  [
    lineString().max(100, POST_ERRORS.tagInvalid),
    z.object({
      id: z.union([z.number(), z.string(), z.null()]).optional(),
      name: lineString(POST_ERRORS.tagInvalid).max(100, POST_ERRORS.tagInvalid),
    }),
  ],
  { error: POST_ERRORS.tagInvalid },
);

/**
 * `tags: [{id?, name}]` (plain strings accepted too) → distinct normalised names, in the order given.
 * The id a client sends is ignored: a tag is found by its name. A name that normalises to nothing is
 * refused; duplicates (case-insensitive) collapse; more than 10 distinct tags are refused.
 */
export const tagsSchema = z
  .array(tagItem, POST_ERRORS.tagInvalid)
  .max(100, POST_ERRORS.tooManyTags)
  .transform((items, ctx) => {
    const seen = new Set<string>();
    const names: string[] = [];
    for (const item of items) {
      const name = normalizeTagName(typeof item === "string" ? item : item.name);
      if (!name) {
        ctx.addIssue({ code: "custom", message: POST_ERRORS.tagInvalid });
        return z.NEVER;
      }
      if (seen.has(tagKey(name))) continue;
      seen.add(tagKey(name));
      names.push(name);
    }
    return names;
  })
  .refine((names) => names.length <= POST_TAGS_MAX, POST_ERRORS.tooManyTags);

/** An ISO 8601 date-time (an offset or Z; without one it is read as UTC). */
export const isoDateTimeSchema = z
  .string(POST_ERRORS.publishDateInvalid)
  .max(40, POST_ERRORS.publishDateInvalid)
  .refine((v) => /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(v.trim()), POST_ERRORS.publishDateInvalid)
  .transform((v) => {
    const t = v.trim();
    const withZone = /T/.test(t) && !/(Z|[+-]\d{2}:?\d{2})$/.test(t) ? `${t}Z` : t;
    return new Date(withZone);
  })
  .refine((d) => !Number.isNaN(d.getTime()) && d.getUTCFullYear() >= 1970 && d.getUTCFullYear() < 10000, POST_ERRORS.publishDateInvalid);

/** `publishDate`: an ISO date-time, or null / false / absent for "now" (one public client sends false). */
const publishDateField = z
  .union([z.literal(false).transform(() => null), z.null(), isoDateTimeSchema], { error: POST_ERRORS.publishDateInvalid })
  .optional();

/**
 * Create: a publish time more than a minute in the past is refused; one within that minute, or
 * none, means "publish now" (null). The output is a Date only for a real schedule.
 */
function schedule(date: Date | null | undefined, now = Date.now()): Date | null {
  if (!date) return null;
  return date.getTime() > now ? date : null;
}

const imagePathField = z
  .union([z.null(), z.literal("").transform(() => null), storedPathSchema])
  .optional();

/**
 * POST post. Server-owned fields in the body (authorId, likeAmount, commentsCount, time, isDeleted,
 * myLike, type …) are ignored: only these keys are read.
 */
/** A positive integer id: in a path ("42") or a body (42 or "42"); "0x2a", "1e3", " 4" are refused. */
const positiveIdOf = (error: string) =>
  z.union(
    [
      z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
      z
        .string()
        .regex(/^[1-9]\d{0,15}$/)
        .transform(Number)
        .refine(Number.isSafeInteger),
    ],
    { error },
  );

/** A community's id (issue 42): defined here, so the composer's bundle carries no communities module. */
const communityIdSchema = positiveIdOf("communityErrors.badId");

export const createPostInput = z
  .object({
    title: titleSchema,
    postText: postTextSchema,
    tags: tagsSchema.optional().transform((v) => v ?? []),
    imagePath: imagePathField.transform((v) => v ?? null),
    publishDate: publishDateField.refine(
      (d) => !d || d.getTime() >= Date.now() - PUBLISH_DATE_GRACE_MS,
      POST_ERRORS.scheduledInPast,
    ),
    /** Optional: a retry with the same id answers the post already made (docs/adr/0144). */
    clientId: clientIdField.optional(),
    /** Optional (issue 42): the community on whose wall the post stands (the caller must be allowed to post there). */
    communityId: communityIdSchema.optional(),
    /** Optional (issue 42): signed by the community — its owner or an admin only. */
    asCommunity: z.boolean({ error: POST_ERRORS.badQuery }).optional(),
  })
  .transform((v) => ({ ...v, publishDate: schedule(v.publishDate) }));
export type CreatePostInput = z.input<typeof createPostInput>;
export type CreatePostValues = z.output<typeof createPostInput>;

/** A post id: in a path ("42") or a body (42 or "42"). */
export const postIdSchema = positiveIdOf(POST_ERRORS.badId);

export const postIdParams = z.object({ id: postIdSchema });

/**
 * POST post/{id}/repost `{comment?}` (issue 27): the reposter's own words above the original, HTML like
 * a post's text and held to the same bounds; the sanitiser runs in the service. Absent, null or empty
 * (nothing visible once sanitised): a repost without words. Other keys are ignored.
 */
export const repostInput = z
  .object({
    comment: z
      .union([
        z.null(),
        textString(POST_ERRORS.textTooLong).max(POST_TEXT_MAX, POST_ERRORS.textTooLong).refine(postHtmlWithinBounds, POST_ERRORS.textTooComplex),
      ])
      .optional()
      .transform((v) => v ?? ""),
  })
  .optional()
  .transform((v) => v ?? { comment: "" });
export type RepostInput = z.input<typeof repostInput>;

/**
 * A Note from the fediverse as a post (issue 43): its id (an http(s) URL) and its HTML, held to a post's
 * bounds before the sanitiser runs; no title and no lower bound (a remote note may be one word).
 */
export const remotePostInput = z.object({
  uri: z.url({ protocol: /^https?$/ }).max(2048),
  /** The Note's image, once stored here by the federation module (never a remote URL). */
  imagePath: imagePathField,
  /** Its hashtags' names, held to a post's tag rules (at most 10, each at most 10 characters). */
  tags: tagsSchema.optional(),
  postText: textString(POST_ERRORS.textTooLong).max(POST_TEXT_MAX, POST_ERRORS.textTooLong).refine(postHtmlWithinBounds, POST_ERRORS.textTooComplex),
});
export type RemotePostInput = z.input<typeof remotePostInput>;

/**
 * PUT post: the same rules as create. `tags` and `imagePath` absent leave them as they are (null or
 * "" removes the image). `publishDate`: the service decides, because a client may echo the post's
 * own (past) publish time — for a queued post a new time must be in the future and null/false
 * publishes it now; a published post keeps its publish time.
 */
export const editPostInput = z.object({
  id: postIdSchema,
  title: titleSchema,
  postText: postTextSchema,
  tags: tagsSchema.optional(),
  imagePath: imagePathField,
  publishDate: publishDateField,
});
export type EditPostInput = z.input<typeof editPostInput>;
export type EditPostValues = z.output<typeof editPostInput>;

// ---- Reactions ----

/** POST post/{id}/like: `{type: "POST", reactionType}`; a body without reactionType sets a thumbs-up. */
export const reactionInput = z.object({
  type: z.literal("POST", { error: POST_ERRORS.reactionTarget }).optional(),
  reactionType: z.enum(REACTION_TYPES, { error: POST_ERRORS.reactionUnknown }).optional().default(DEFAULT_REACTION),
});
export type ReactionInput = z.input<typeof reactionInput>;

// ---- List queries (query strings; empty values count as absent) ----

function query<T extends z.ZodRawShape>(shape: T) {
  return z.preprocess(
    (raw) =>
      raw && typeof raw === "object"
        ? Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== "" && v !== undefined && v !== null))
        : raw,
    z.object(shape),
  );
}

const boolParam = z.enum(["true", "false"], { error: POST_ERRORS.badQuery }).transform((v) => v === "true");
/** A page number; below 0 is read as 0 (the original client can ask for -1). */
const pageParam = z.coerce
  .number({ error: POST_ERRORS.badQuery })
  .int(POST_ERRORS.badQuery)
  .max(POST_PAGE_MAX, POST_ERRORS.badQuery)
  .transform((n) => Math.max(0, n));
const sizeParam = z.coerce.number({ error: POST_ERRORS.badQuery }).int(POST_ERRORS.badQuery).min(1, POST_ERRORS.badQuery).max(POST_PAGE_SIZE_MAX, POST_ERRORS.badQuery);
const idList = z
  .string()
  .max(400, POST_ERRORS.badQuery)
  .regex(/^\s*[1-9]\d{0,15}\s*(,\s*[1-9]\d{0,15}\s*)*$/, POST_ERRORS.badQuery)
  .transform((v) => [...new Set(v.split(",").map((s) => Number(s.trim())))])
  .refine((ids) => ids.length <= 20 && ids.every(Number.isSafeInteger), POST_ERRORS.badQuery);
/** `tags=a,b` (names as in the UI, normalised like stored ones; all of them must be on a post). */
const tagsParam = z
  .string()
  .max(400, POST_ERRORS.badQuery)
  .transform((v) => [...new Set(v.split(",").map(normalizeTagName).filter(Boolean))])
  .refine((names) => names.length <= POST_TAGS_MAX, POST_ERRORS.tooManyTags);

const filterShape = {
  withFriends: boolParam.optional(),
  /** Full-text search over title and text (Russian and English word forms). */
  text: lineString().trim().max(POST_SEARCH_TEXT_MAX, "validation.tooLong").optional(),
  /** An author's name: first, last, or "First Last". */
  author: lineString().trim().max(101, "validation.tooLong").optional(),
  tags: tagsParam.optional(),
  dateFrom: isoDateTimeSchema.optional(),
  dateTo: isoDateTimeSchema.optional(),
  page: pageParam.default(0),
  size: sizeParam.optional(),
  // The original client sends sort=time,desc and isDeleted=false: accepted, the order and the
  // exclusion of deleted posts are fixed.
  sort: z.string().max(40).optional(),
  isDeleted: z.string().max(10).optional(),
};

/** Runs even when a date itself was refused (zod still calls an object's refinements): then it has nothing to compare. */
function dateRangeOk(q: { dateFrom?: unknown; dateTo?: unknown }) {
  return !(q.dateFrom instanceof Date) || !(q.dateTo instanceof Date) || q.dateFrom.getTime() <= q.dateTo.getTime();
}

/** GET post/newsPosts: the feed (withFriends=true) or every visible post, with the search filters. */
export const feedQuery = query(filterShape)
  .refine(dateRangeOk, { message: POST_ERRORS.dateRange, path: ["dateTo"] })
  .transform(({ sort: _sort, isDeleted: _isDeleted, ...q }) => ({
    ...q,
    withFriends: q.withFriends ?? false,
    size: q.size ?? FEED_PAGE_SIZE,
  }));
export type FeedQuery = z.input<typeof feedQuery>;
export type FeedQueryValues = z.output<typeof feedQuery>;

/**
 * GET post: with `accountIds` (the original client) or `accountId` (the spec) the wall of those
 * accounts (size 3 by default); without them the same as GET post/newsPosts.
 */
export const postListQuery = query({ ...filterShape, accountIds: idList.optional(), accountId: idList.optional(), communityId: communityIdSchema.optional() })
  .refine(dateRangeOk, { message: POST_ERRORS.dateRange, path: ["dateTo"] })
  .transform(({ sort: _sort, isDeleted: _isDeleted, accountIds, accountId, communityId, ...q }) => {
    const ids = [...new Set([...(accountIds ?? []), ...(accountId ?? [])])];
    // A community's wall (issue 42).
    if (communityId !== undefined) return { kind: "community" as const, ...q, communityId, withFriends: false, size: q.size ?? WALL_PAGE_SIZE };
    return ids.length > 0
      ? { kind: "wall" as const, ...q, accountIds: ids, withFriends: false, size: q.size ?? WALL_PAGE_SIZE }
      : { kind: "feed" as const, ...q, withFriends: q.withFriends ?? false, size: q.size ?? FEED_PAGE_SIZE };
  });
export type PostListQuery = z.input<typeof postListQuery>;
export type PostListQueryValues = z.output<typeof postListQuery>;

/** GET tag?name=: the typed text, normalised like a tag name (empty → no suggestions). */
export const tagSearchQuery = query({
  name: lineString().max(100, POST_ERRORS.badQuery).transform(normalizeTagName).optional(),
}).transform((q) => ({ name: q.name ?? "" }));
export type TagSearchQuery = z.input<typeof tagSearchQuery>;

// ---- Response shapes (the routes return these; pages and SWR hooks type their data with them) ----

export type PostType = "POSTED" | "QUEUED";

/** A post's or comment's author; a person of another server carries their fediverse address (issue 43). */
export type PostAuthor = { id: number; firstName: string; lastName: string; photo: string | null; fediverseAddress?: string };

/** The author card of a DTO row (author_id, first_name, last_name, photo, and author_address for a remote person). */
export function authorCard(r: { author_id: string | number; first_name: string; last_name: string; photo: string | null; author_address?: string | null }): PostAuthor {
  const card: PostAuthor = { id: Number(r.author_id), firstName: r.first_name, lastName: r.last_name, photo: r.photo };
  if (r.author_address) card.fediverseAddress = r.author_address;
  return card;
}

export type PostTag = { id: number; name: string };

export type ReactionCount = { reactionType: ReactionType; count: number };

/** The Post DTO (spec section 3): every key is always present. Times are ISO strings (UTC). */
export type PostDto = {
  id: number;
  authorId: number;
  author: PostAuthor;
  title: string;
  /** Sanitised HTML: sanitised on write and passed through the sanitiser again when read (renderPostHtml, ADR 107 and 0124). */
  postText: string;
  imagePath: string | null;
  tags: PostTag[];
  publishDate: string;
  /** QUEUED while publishDate is in the future (only the author ever sees such a post). */
  type: PostType;
  /** Creation time. */
  time: string;
  /** Last edit time, null when never edited. */
  timeChanged: string | null;
  isDeleted: boolean;
  /** Blocked by a moderator (issue 13): only its author (who sees it marked) and staff receive it. */
  isBlocked: boolean;
  commentsCount: number;
  /** The number of reactions of every type. */
  likeAmount: number;
  /** The viewer has a reaction on this post. */
  myLike: boolean;
  myReaction: ReactionType | null;
  /** Counts per reaction type, only types with a count above 0, most used first. */
  reactionType: ReactionCount[];
  /** The same list again under the name the original client reads (issue 29 §3, docs/adr/0142). */
  reactions: ReactionCount[];
  /**
   * A repost (issue 27): the original as the viewer may read it (its own `repostOf` is always null: a
   * repost of a repost points to the original), or a marker when it is gone; null for an ordinary post.
   */
  repostOf: RepostOf | null;
  /** A post on a community's wall (issue 42): the community's id, else null. */
  communityId: number | null;
  /** The community it stands in: its card's name and photo (null on a person's own wall). */
  community: PostCommunity | null;
  /** Signed by the community: the card shows the community instead of the author. */
  asCommunity: boolean;
};

/** The community of a post on its wall, as its card shows it. */
export type PostCommunity = { id: number; name: string; photo: string | null; type: "OPEN" | "CLOSED" | "PRIVATE" };

/**
 * The original of a repost, or a marker: GONE_DELETED when its author deleted it, GONE_HIDDEN when the
 * viewer may not read it (a block, a closed page, a moderator's block, a deleted author).
 */
export type RepostOf = PostDto | RepostGone;
export type RepostGone = { id: number; gone: "DELETED" | "HIDDEN" };

export type PostPage = Paged<PostDto>;

/** The answer of POST/DELETE post/{id}/like: the post's counts after the change. */
export type ReactionResult = Pick<PostDto, "id" | "likeAmount" | "myLike" | "myReaction" | "reactionType" | "reactions">;
