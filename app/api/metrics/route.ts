// GET /api/metrics — Prometheus text, only with `Authorization: Bearer $METRICS_TOKEN` (unset: 404; docs/adr/0140).
import type { NextRequest } from "next/server";
import { getDb } from "@/db/client";
import { errorResponse } from "@/lib/server/http/with-auth";
import { requestIdOf } from "@/lib/server/http/request";
import { scrapeMetrics } from "@/lib/server/services/metrics";

export const dynamic = "force-dynamic";

export async function GET(req: NextRequest) {
  try {
    const { body, contentType } = await scrapeMetrics(getDb(), req.headers.get("authorization"));
    return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
  } catch (err) {
    return errorResponse(err, req, requestIdOf(req.headers));
  }
}
