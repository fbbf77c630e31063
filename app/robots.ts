import type { MetadataRoute } from "next";
import { env } from "@/lib/server/env";

// PUBLIC_URL is read when the file is requested, not baked in at build time.
export const dynamic = "force-dynamic";

/**
 * robots.txt: crawlers may read the public profile shells (/profile/{id}) and nothing that shows a
 * signed-in viewer's data or an auth flow; the sitemap index lists the shells (docs/adr/0014).
 */
export default function robots(): MetadataRoute.Robots {
  const base = env().PUBLIC_URL;
  return {
    rules: {
      userAgent: "*",
      // The public shells of profiles and of open communities (issue 42).
      allow: ["/profile/", "/community/"],
      disallow: [
        "/api/",
        "/admin",
        "/settings",
        "/im",
        "/friends",
        "/search",
        "/push",
        "/calculator",
        "/login",
        "/registration",
        "/forgot",
        "/change-password",
        "/shift-password",
        "/shift-email",
        // The own page (/profile) is the viewer's; the shells under /profile/ stay allowed (longest match wins).
        "/profile$",
      ],
    },
    sitemap: `${base}/sitemap.xml`,
    host: base,
  };
}
