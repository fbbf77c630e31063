// PUT /api/v1/friends/{id}/approve — accept an incoming friend request; answers the viewer's new side
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { approveFriendRequest } from "@/lib/server/services/friends/actions";
import { friendTargetInput } from "@/lib/validation/friends";

export const PUT = withAuth<{ id: string }>(async ({ ctx, params }) => {
  const input = friendTargetInput.parse(params);
  return json(await approveFriendRequest({ ctx, input }));
});
