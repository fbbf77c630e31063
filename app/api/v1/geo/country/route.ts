// GET /api/v1/geo/country — every country [{id, title}], titled in the request's language
import { listCountries } from "@/lib/server/geo/countries";
import { localeOfHeaders } from "@/lib/server/http/translate";
import { withOptionalAuth } from "@/lib/server/http/with-auth";

export const GET = withOptionalAuth(async ({ req }) => {
  const locale = localeOfHeaders(req.headers);
  return Response.json(listCountries(locale), {
    // Depends on the language cookie / Accept-Language, so shared caches must keep them apart.
    headers: { "cache-control": "private, max-age=86400", vary: "Cookie, Accept-Language" },
  });
});
