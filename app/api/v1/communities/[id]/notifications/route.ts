// PUT /api/v1/communities/{id}/notifications {posts} — a member is notified of each new post on its wall, or not (issue 42)
import { json } from "@/lib/server/http/response";
import { readJson } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { setCommunityNotifications } from "@/lib/server/services/communities/notifications";
import { communityNotificationsInput } from "@/lib/validation/communities";

export const PUT = withAuth<{ id: string }>(async ({ req, ctx, params }) => {
  const { posts } = await readJson(req, communityNotificationsInput);
  return json(await setCommunityNotifications({ ctx, input: { id: params.id, posts } }));
});
