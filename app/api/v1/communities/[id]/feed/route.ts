// PUT /api/v1/communities/{id}/feed {inFeed} — a member keeps the community's posts in their news feed, or not (issue 42)
import { json } from "@/lib/server/http/response";
import { readJson } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { setCommunityFeed } from "@/lib/server/services/communities/members";
import { communityFeedInput } from "@/lib/validation/communities";

export const PUT = withAuth<{ id: string }>(async ({ req, ctx, params }) => {
  const { inFeed } = await readJson(req, communityFeedInput);
  return json(await setCommunityFeed({ ctx, input: { id: params.id, inFeed } }));
});
