import { z } from "zod";
import { POST_ERRORS } from "./post-shared";
import type { PostAuthor } from "./post";
import { REACTION_TYPES, type ReactionType } from "./reactions";

// GET post/{id}/reactions (issue 27, docs/adr/0131): who reacted to a post. Shared by the route's
// service verb (which parses) and the who-reacted dialog (which types its pages with it).

/** Page size of the dialog, and the largest a client may ask for. */
export const REACTORS_PAGE_SIZE = 20;
export const REACTORS_PAGE_SIZE_MAX = 50;
/** Deepest page: 20 × 5,000 = 100,000 people at the dialog's size, as many as there are accounts at scale. */
export const REACTORS_PAGE_MAX = 5_000;

const intParam = (min: number, max: number) =>
  z
    .string({ error: POST_ERRORS.badQuery })
    .max(8, POST_ERRORS.badQuery)
    .regex(/^\d+$/, POST_ERRORS.badQuery)
    .transform(Number)
    .refine((n) => n >= min && n <= max, POST_ERRORS.badQuery);

/**
 * The query: `reactionType` (one of the 69 ids; absent or empty means every type), `page` (zero-based)
 * and `size`. Strict: an unknown parameter, a non-decimal number ("1e3", "-1", "0x10"), a
 * page past REACTORS_PAGE_MAX or a size past REACTORS_PAGE_SIZE_MAX is refused (400), never clamped.
 */
export const reactorsQuery = z.preprocess(
  (raw) => (raw && typeof raw === "object" ? Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== "" && v != null)) : raw),
  z.strictObject(
    {
      reactionType: z.enum(REACTION_TYPES, { error: POST_ERRORS.reactionUnknown }).optional(),
      page: intParam(0, REACTORS_PAGE_MAX).default(0),
      size: intParam(1, REACTORS_PAGE_SIZE_MAX).default(REACTORS_PAGE_SIZE),
    },
    { error: (iss) => (iss.code === "unrecognized_keys" ? POST_ERRORS.badQuery : undefined) },
  ),
);
export type ReactorsQuery = z.input<typeof reactorsQuery>;

/** One person on the list: the account, their reaction, when, and whether they are the viewer's friend. */
export type ReactorDto = {
  account: PostAuthor;
  reactionType: ReactionType;
  createdAt: string;
  isFriend: boolean;
};
