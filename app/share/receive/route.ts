// POST /share/receive — the manifest's share_target when no service worker answered it (docs/adr/0179).
import { SHARE_PAGE } from "@/lib/validation/share";

// The worker receives a share and keeps it on the device; without it nothing is read or kept here (a
// share may be ten photos), and the share page says to open Krug once and share again.
export function POST(): Response {
  return new Response(null, { status: 303, headers: { location: `${SHARE_PAGE}?error=failed`, "cache-control": "no-store" } });
}
