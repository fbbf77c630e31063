// GET /api/v1/friends/recommendations — people the viewer may know, with the number of mutual friends (page, size)
import { json } from "@/lib/server/http/response";
import { queryOf } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { listRecommendations } from "@/lib/server/services/friends/recommendations";
import { recommendationsQuery } from "@/lib/validation/friends";

export const GET = withAuth(async ({ req, ctx }) => {
  const input = recommendationsQuery.parse(queryOf(req));
  return json(await listRecommendations({ ctx, input }));
});
