// DELETE /api/v1/friends/{id} — unfriend, cancel or decline a request, unsubscribe or remove a subscriber; answers the viewer's side (statusCode null)
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { removeFriendRelation } from "@/lib/server/services/friends/actions";
import { friendTargetInput } from "@/lib/validation/friends";

export const DELETE = withAuth<{ id: string }>(async ({ ctx, params }) => {
  const input = friendTargetInput.parse(params);
  return json(await removeFriendRelation({ ctx, input }));
});
