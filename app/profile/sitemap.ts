import type { MetadataRoute } from "next";
import { getDb } from "@/db/client";
import { profileUrl } from "@/components/profile/profile-metadata";
import { listSitemapChunks, listSitemapProfiles } from "@/lib/server/services/profiles/sitemap";

// Read at request time: the build has no migrated database, and the list changes with every sign-up.
export const dynamic = "force-dynamic";

const ctx = () => ({ viewer: null, db: getDb(), requestId: "sitemap" });

/**
 * The profile sitemaps, /profile/sitemap/{cursor}.xml: at most 50,000 public profile shells each, named
 * by the keyset cursor they start after (docs/adr/0014). /sitemap.xml is the index that lists them; it
 * is a route handler because Next claims /sitemap.xml for an app/sitemap.ts even with generateSitemaps.
 */
export async function generateSitemaps(): Promise<{ id: number }[]> {
  // `next build` asks for the static params; there is no database then, and nothing is prerendered.
  if (process.env.NEXT_PHASE === "phase-production-build") return [];
  return (await listSitemapChunks({ ctx: ctx() })).map((id) => ({ id }));
}

export default async function sitemap({ id }: { id: Promise<string> }): Promise<MetadataRoute.Sitemap> {
  const entries = await listSitemapProfiles({ ctx: ctx(), input: { after: await id } });
  return entries.map((e) => ({ url: profileUrl(e.id), lastModified: e.lastModified }));
}
