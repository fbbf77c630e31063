// GET /api/v1/asyncapi.json — the AsyncAPI 3 document of the socket at /api/v1/streaming (docs/adr/0138), in the reader's language
import { localeOfHeaders } from "@/lib/server/http/translate";
import { asyncApiDocument } from "@/lib/server/openapi/asyncapi";
import { referenceLanguage } from "@/lib/server/openapi/language";

export function GET(req: Request): Response {
  const lang = referenceLanguage(req.url, localeOfHeaders(req.headers));
  return Response.json(asyncApiDocument(lang), { headers: { "cache-control": "public, max-age=300", vary: "Accept-Language, Cookie", "access-control-allow-origin": "*" } });
}
