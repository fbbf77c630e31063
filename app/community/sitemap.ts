import type { MetadataRoute } from "next";
import { getDb } from "@/db/client";
import { communityUrl } from "@/components/communities/public-community";
import { listCommunitySitemapChunks, listSitemapCommunities } from "@/lib/server/services/communities/public";

// Read at request time: the build has no migrated database, and the list changes with every new community.
export const dynamic = "force-dynamic";

const ctx = () => ({ viewer: null, db: getDb(), requestId: "sitemap" });

/**
 * The community sitemaps, /community/sitemap/{cursor}.xml (issue 42): the live OPEN communities' public
 * shells, at most 50,000 each, named by the keyset cursor they start after, as the profiles' ones
 * (app/profile/sitemap.ts). /sitemap.xml lists them after the profiles'.
 */
export async function generateSitemaps(): Promise<{ id: number }[]> {
  if (process.env.NEXT_PHASE === "phase-production-build") return [];
  return (await listCommunitySitemapChunks({ ctx: ctx() })).map((id) => ({ id }));
}

export default async function sitemap({ id }: { id: Promise<string> }): Promise<MetadataRoute.Sitemap> {
  const entries = await listSitemapCommunities({ ctx: ctx(), input: { after: await id } });
  return entries.map((e) => ({ url: communityUrl(e.id), lastModified: e.lastModified }));
}
