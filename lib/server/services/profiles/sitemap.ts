import "server-only";
import { and, asc, gt, not, sql } from "drizzle-orm";
import { z } from "zod";
import { accounts } from "@/db/schema";
import type { ServiceCtx } from "../context";

/** The sitemaps protocol's limit of URLs per file; past it, the profiles split into several sitemaps. */
export const SITEMAP_MAX_URLS = 50_000;

const sizeSchema = z.number().int().min(1).max(SITEMAP_MAX_URLS).default(SITEMAP_MAX_URLS);
const chunksInput = z.object({ size: sizeSchema }).default({ size: SITEMAP_MAX_URLS });
const chunkInput = z.object({ after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER), size: sizeSchema });

export type SitemapEntry = { id: number; lastModified: Date };

/**
 * A closed page (privacy: friends only, docs/adr/0125) is not offered to search engines: its shell says
 * only that it is closed, and its owner chose not to be shown. The closed ones are a small set read from
 * accounts_closed_idx (a hashed subplan), so the listed pass stays an index-only scan of
 * accounts_listed_id_idx.
 */
const notClosed = sql`${accounts.id} not in (select c.id from accounts c where c.profile_visibility <> 'ALL')`;

/**
 * The sitemap files of the public profile shells, each named by its keyset cursor: the id after which
 * its profiles start (0 for the first). One index-only pass over accounts_listed_id_idx numbers the
 * listed (neither deleted nor admin-blocked) accounts by id and keeps every size-th id as the next file's cursor. There is always at
 * least one file, so /sitemap/0.xml exists even before the first account.
 */
export async function listSitemapChunks({ ctx, input }: { ctx: ServiceCtx; input?: unknown }): Promise<number[]> {
  const { size } = chunksInput.parse(input);
  const rows = await (ctx.tx ?? ctx.db).execute<{ id: string }>(sql`
    select id from (
      select id, row_number() over (order by id) as rn, count(*) over () as total
      from accounts where not is_deleted and not is_blocked and ${notClosed}
    ) numbered
    where rn % ${size} = 0 and rn < total
    order by id`);
  return [0, ...rows.map((r) => Number(r.id))];
}

/**
 * One sitemap file: at most `size` non-deleted accounts with an id above the cursor, in id order, with
 * the time of their last change. A keyset page over accounts_listed_id_idx (id, updated_at WHERE NOT
 * is_deleted AND NOT is_blocked): an index-only range scan that stops after `size` entries, however deep the file.
 */
export async function listSitemapProfiles({ ctx, input }: { ctx: ServiceCtx; input: unknown }): Promise<SitemapEntry[]> {
  const { after, size } = chunkInput.parse(input);
  const rows = await (ctx.tx ?? ctx.db)
    .select({ id: accounts.id, lastModified: accounts.updatedAt })
    .from(accounts)
    .where(and(not(accounts.isDeleted), not(accounts.isBlocked), gt(accounts.id, after), notClosed))
    .orderBy(asc(accounts.id))
    .limit(size);
  return rows;
}
