// GET /api/v1/geo/country/{id}/city — cities of a country [{id, title, countryId}], titled in the request's
// language; unknown country → 404
import { listCities } from "@/lib/server/geo/cities";
import { NotFoundError } from "@/lib/server/http/errors";
import { localeOfHeaders } from "@/lib/server/http/translate";
import { withOptionalAuth } from "@/lib/server/http/with-auth";
import { countryIdParams } from "@/lib/validation/geo";

export const GET = withOptionalAuth<{ id: string }>(async ({ req, params }) => {
  const parsed = countryIdParams.safeParse(params);
  const cities = parsed.success ? listCities(parsed.data.id, localeOfHeaders(req.headers)) : null;
  if (!cities) throw new NotFoundError("geoErrors.countryNotFound");
  return Response.json(cities, { headers: { "cache-control": "private, max-age=86400", vary: "Accept-Language, Cookie" } });
});
