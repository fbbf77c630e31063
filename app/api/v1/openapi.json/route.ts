// GET /api/v1/openapi.json — the OpenAPI 3.1 document of this API, generated from lib/validation (docs/adr/0138), in the reader's language
import { localeOfHeaders } from "@/lib/server/http/translate";
import { openApiDocument } from "@/lib/server/openapi/document";
import { referenceLanguage } from "@/lib/server/openapi/language";

export function GET(req: Request): Response {
  const lang = referenceLanguage(req.url, localeOfHeaders(req.headers));
  return Response.json(openApiDocument(lang), { headers: { "cache-control": "public, max-age=300", vary: "Accept-Language, Cookie", "access-control-allow-origin": "*" } });
}
