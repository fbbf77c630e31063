import "server-only";
import { and, asc, eq, gt, inArray, not, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import { communities } from "@/db/schema";
import type { ServiceCtx } from "../context";
import { SITEMAP_MAX_URLS } from "../profiles/sitemap";

/**
 * What a signed-out visitor or a crawler may see of a community (issue 42, as docs/adr/0014 for profiles):
 * an OPEN one its name, description, photo, cover and members count; a CLOSED one its name, description and
 * count only. A private, deleted, blocked or unknown one has no public page (null, a 404).
 */
export type PublicCommunity = {
  id: number;
  name: string;
  description: string;
  photo: string | null;
  cover: string | null;
  type: "OPEN" | "CLOSED";
  membersCount: number;
};

const idSchema = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const PUBLIC_TYPES = ["OPEN", "CLOSED"] as const;
const listed = and(not(communities.isDeleted), not(communities.isBlocked), inArray(communities.type, [...PUBLIC_TYPES]));

/** The public shell of one live OPEN or CLOSED community, or null (a primary-key read; needs no viewer). */
export async function publicCommunity(db: DbOrTx, id: unknown): Promise<PublicCommunity | null> {
  const parsed = idSchema.safeParse(id);
  if (!parsed.success) return null;
  const [row] = await db
    .select({
      id: communities.id,
      name: communities.name,
      description: communities.description,
      photo: communities.photo,
      cover: communities.cover,
      type: communities.type,
      membersCount: communities.membersCount,
    })
    .from(communities)
    .where(and(eq(communities.id, parsed.data), listed))
    .limit(1);
  if (!row || row.type === "PRIVATE") return null;
  // A closed community keeps its look to its members: the shell shows its name, description and count.
  if (row.type === "CLOSED") return { ...row, type: "CLOSED", photo: null, cover: null };
  return { ...row, type: "OPEN" };
}

/**
 * The HTTP status the proxy sets for /community/{id} before the page streams: 404 when there is no page for
 * the request — signed out, no public shell; signed in, no such community or a blocked one (a deleted one is
 * still its owner's to restore, a private one its members'; the page shows others the not-found card).
 */
export async function communityStatus(db: DbOrTx, id: unknown, signedIn: boolean): Promise<404 | undefined> {
  const parsed = idSchema.safeParse(id);
  if (!parsed.success) return 404;
  if (!signedIn) return (await publicCommunity(db, parsed.data)) ? undefined : 404;
  const [row] = await db
    .select({ id: communities.id })
    .from(communities)
    .where(and(eq(communities.id, parsed.data), not(communities.isBlocked)))
    .limit(1);
  return row ? undefined : 404;
}

const chunkInput = z.object({
  after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  size: z.number().int().min(1).max(SITEMAP_MAX_URLS).default(SITEMAP_MAX_URLS),
});

export type CommunitySitemapEntry = { id: number; lastModified: Date };

/** The cursors of the community sitemap files (0 first, then every size-th open community's id), as the profiles' ones. */
export async function listCommunitySitemapChunks({ ctx, input }: { ctx: ServiceCtx; input?: { size?: number } }): Promise<number[]> {
  const size = z.number().int().min(1).max(SITEMAP_MAX_URLS).parse(input?.size ?? SITEMAP_MAX_URLS);
  const rows = await (ctx.tx ?? ctx.db).execute<{ id: string }>(sql`
    select id from (
      select id, row_number() over (order by id) as rn, count(*) over () as total
      from communities where not is_deleted and not is_blocked and type = 'OPEN'
    ) numbered
    where rn % ${size} = 0 and rn < total
    order by id`);
  return [0, ...rows.map((r) => Number(r.id))];
}

/** One community sitemap file: the live OPEN communities after the cursor, in id order (a closed one is not offered to search engines). */
export async function listSitemapCommunities({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<CommunitySitemapEntry[]> {
  const { after, size } = chunkInput.parse(input);
  return (ctx.tx ?? ctx.db)
    .select({ id: communities.id, lastModified: communities.createdAt })
    .from(communities)
    .where(and(not(communities.isDeleted), not(communities.isBlocked), eq(communities.type, "OPEN"), gt(communities.id, after)))
    .orderBy(asc(communities.id))
    .limit(size);
}
