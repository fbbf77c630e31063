// GET /sw.js — the service worker, bundled by the build (lib/pwa/build-service-worker.ts, docs/adr/0119).
import { readFile } from "node:fs/promises";
import path from "node:path";

export const dynamic = "force-dynamic";

/**
 * Served from the build directory of this server, never cached by the browser's HTTP cache (the
 * browser compares it byte for byte to find a new build). Its scope is its own directory, the root: no
 * Service-Worker-Allowed header is needed.
 */
export async function GET(): Promise<Response> {
  const file = path.join(process.cwd(), process.env.NEXT_DIST_DIR || ".next", "sw.js");
  const body = await readFile(file).catch(() => null);
  if (!body) return new Response("", { status: 404, headers: { "cache-control": "no-store" } });
  return new Response(new Uint8Array(body), {
    headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache" },
  });
}
