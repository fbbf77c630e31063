// GET /sitemap.xml — the sitemap index: one <sitemap> per profile sitemap of app/profile/sitemap.ts, then one per
// community sitemap of app/community/sitemap.ts (issue 42)
import { getDb } from "@/db/client";
import { env } from "@/lib/server/env";
import { listSitemapChunks } from "@/lib/server/services/profiles/sitemap";
import { listCommunitySitemapChunks } from "@/lib/server/services/communities/public";

// Next's metadata routes split a sitemap (generateSitemaps) but write no index; crawlers find the files here.
export const dynamic = "force-dynamic";

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export async function GET(): Promise<Response> {
  const base = env().PUBLIC_URL;
  const ctx = { viewer: null, db: getDb(), requestId: "sitemap-index" };
  const [cursors, communityCursors] = await Promise.all([listSitemapChunks({ ctx }), listCommunitySitemapChunks({ ctx })]);
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...cursors.map((id) => `<sitemap><loc>${escapeXml(`${base}/profile/sitemap/${id}.xml`)}</loc></sitemap>`),
    ...communityCursors.map((id) => `<sitemap><loc>${escapeXml(`${base}/community/sitemap/${id}.xml`)}</loc></sitemap>`),
    "</sitemapindex>",
    "",
  ].join("\n");
  return new Response(body, { headers: { "content-type": "application/xml; charset=utf-8", "cache-control": "public, max-age=0, must-revalidate" } });
}
