// The trivial page's app (bench/trivial-page.ts): Next.js with nothing of Krug's, built and served
// beside Krug so that the Lighthouse bench measures the framework's own floor on the same host in the
// same run (docs/adr/0128).
import type { NextConfig } from "next";

const config: NextConfig = {
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  reactStrictMode: true,
};
export default config;
