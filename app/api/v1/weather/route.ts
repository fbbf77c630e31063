// GET /api/v1/weather?country=&city= — the weather card (issue 13): the viewer's profile city, or the city the
// card's picker chose; never slow and never an error when the provider is down (status stale / unavailable).
import { localeOfHeaders } from "@/lib/server/http/translate";
import { withAuth } from "@/lib/server/http/with-auth";
import { getWeather } from "@/lib/server/services/weather/weather";

export const GET = withAuth(async ({ req, ctx }) => {
  const input = Object.fromEntries(req.nextUrl.searchParams);
  const weather = await getWeather({ ctx, input, locale: localeOfHeaders(req.headers) });
  return Response.json(weather, { headers: { "cache-control": "private, no-store" } });
});
