// Builds the service worker after Next has compiled the app (next.config.ts: runAfterProductionCompile),
// so every way the app is built (`npm run build`, the first `npm start`, the e2e server, the bench) makes
// it. No "server-only": it runs in the build process, outside the app.
import { createHash } from "node:crypto";
import path from "node:path";
import { getManifest } from "@serwist/build";
import { build } from "esbuild";

/** The build's static files worth keeping offline: code, styles, fonts and images, not source maps. */
const PRECACHE_GLOBS = ["static/**/*.{js,css,woff2,svg,png,ico}"];

/**
 * Writes <distDir>/sw.js: lib/pwa/worker/sw.ts bundled for the browser with the precache list of this
 * build in place of self.__SW_MANIFEST. Next's static file names carry their content hash, so they need
 * no revision of their own.
 */
export async function buildServiceWorker({ projectDir, distDir }: { projectDir: string; distDir: string }): Promise<void> {
  const outDir = path.resolve(projectDir, distDir);
  const { manifestEntries, warnings } = await getManifest({
    globDirectory: outDir,
    globPatterns: PRECACHE_GLOBS,
    modifyURLPrefix: { "static/": "/_next/static/" },
    dontCacheBustURLsMatching: /^\/_next\/static\//,
    maximumFileSizeToCacheInBytes: 2 * 1024 * 1024,
  });
  for (const warning of warnings) console.warn(`service worker: ${warning}`);
  // The build's name for the pages the device keeps (docs/adr/0178): a kept page names this build's scripts.
  const buildId = createHash("sha256").update(JSON.stringify(manifestEntries ?? [])).digest("hex").slice(0, 12);
  await build({
    entryPoints: [path.join(projectDir, "lib", "pwa", "worker", "sw.ts")],
    outfile: path.join(outDir, "sw.js"),
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    tsconfig: path.join(projectDir, "tsconfig.json"),
    loader: { ".svg": "text" },
    define: {
      "process.env.NODE_ENV": JSON.stringify("production"),
      "self.__SW_MANIFEST": JSON.stringify(manifestEntries ?? []),
      "self.__KRUG_BUILD": JSON.stringify(buildId),
    },
    logLevel: "warning",
  });
}
