// GET /api/ready — 200 when the database is reachable and migrated, else 503 (for load balancers).
import { getDb } from "@/db/client";
import { checkReadiness } from "@/lib/server/services/health";

export const dynamic = "force-dynamic";

export async function GET() {
  const readiness = await checkReadiness(getDb());
  return Response.json(readiness, { status: readiness.ready ? 200 : 503 });
}
