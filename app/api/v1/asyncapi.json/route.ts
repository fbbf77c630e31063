// GET /api/v1/asyncapi.json — the AsyncAPI 3 document of the socket at /api/v1/streaming (docs/adr/0138)
import { asyncApiDocument } from "@/lib/server/openapi/asyncapi";

export function GET(): Response {
  return Response.json(asyncApiDocument(), { headers: { "cache-control": "public, max-age=300", "access-control-allow-origin": "*" } });
}
