import { z } from "zod";

/** Spec section 9: infinite scroll stops after this many pages (lib/client/posts.ts's MAX_PAGES). */
const MAX_PAGE = 199;

/** A filter as the list sent it: the feed's schema (lib/validation/post.ts) judges its value. */
const filter = z.string().max(2000).optional();

/**
 * What a post list shows, as its rendered pages are asked for (docs/adr/0150): the viewer's feed, one
 * account's wall, or a news search with its filters. Only the shape is checked here; the values are the
 * query parameters of GET post/newsPosts and GET post, checked by their schemas in the service.
 */
export const postSourceSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("feed") }).strict(),
  z.object({ kind: z.literal("wall"), accountId: z.number().int().positive().max(2 ** 31 - 1) }).strict(),
  z.object({ kind: z.literal("community"), communityId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) }).strict(),
  z.object({ kind: z.literal("search"), text: filter, author: filter, tags: filter, dateFrom: filter }).strict(),
]);
export type PostSourceInput = z.output<typeof postSourceSchema>;

/** readCardPage's arguments: the list's source and the page number (0-based). */
export const cardPageInput = z.object({ source: postSourceSchema, page: z.number().int().min(0).max(MAX_PAGE) });
