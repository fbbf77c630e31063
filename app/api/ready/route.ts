// GET /api/ready — 200 when the database is reachable and migrated and the realtime sidecar's listening
// connection is up, else 503 (for load balancers; docs/adr/0140).
import { getDb } from "@/db/client";
import { checkReadiness } from "@/lib/server/services/health";
import { realtimePort } from "@/lib/server/services/metrics";

export const dynamic = "force-dynamic";

export async function GET() {
  const readiness = await checkReadiness(getDb(), { realtimePort: realtimePort() });
  return Response.json(readiness, { status: readiness.ready ? 200 : 503, headers: { "cache-control": "no-store" } });
}
