// POST /api/v1/friends/{id}/request — send a friend request (or accept theirs); answers the viewer's new side.
// RATE_LIMIT_FRIEND_REQUEST per account (counted by the service verb): no request spam.
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { sendFriendRequest } from "@/lib/server/services/friends/actions";
import { friendTargetInput } from "@/lib/validation/friends";

export const POST = withAuth<{ id: string }>(async ({ ctx, params }) => {
  const input = friendTargetInput.parse(params);
  return json(await sendFriendRequest({ ctx, input }));
});
