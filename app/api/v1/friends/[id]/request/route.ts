// POST /api/v1/friends/{id}/request — send a friend request (or accept theirs); answers the viewer's new side.
// RATE_LIMIT_FRIEND_REQUEST per account: no request spam.
import { json } from "@/lib/server/http/response";
import { consumeLimit } from "@/lib/server/http/rate-limit";
import { withAuth } from "@/lib/server/http/with-auth";
import { sendFriendRequest } from "@/lib/server/services/friends/actions";
import { friendTargetInput } from "@/lib/validation/friends";

export const POST = withAuth<{ id: string }>(async ({ ctx, params }) => {
  const input = friendTargetInput.parse(params);
  await consumeLimit("friendRequest", `account:${ctx.viewer.id}`);
  return json(await sendFriendRequest({ ctx, input }));
});
