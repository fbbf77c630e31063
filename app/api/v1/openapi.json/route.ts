// GET /api/v1/openapi.json — the OpenAPI 3.1 document of this API, generated from lib/validation (docs/adr/0138)
import { openApiDocument } from "@/lib/server/openapi/document";

export function GET(): Response {
  return Response.json(openApiDocument(), { headers: { "cache-control": "public, max-age=300", "access-control-allow-origin": "*" } });
}
