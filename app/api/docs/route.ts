// GET /api/docs — the API reference page (Scalar, served from this origin; docs/adr/0138)
import { localeOfHeaders } from "@/lib/server/http/translate";
import { referencePage } from "@/lib/server/openapi/reference-page";

export function GET(req: Request): Response {
  return referencePage(localeOfHeaders(req.headers));
}
