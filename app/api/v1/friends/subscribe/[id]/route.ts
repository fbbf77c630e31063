// POST /api/v1/friends/subscribe/{id} — follow an account; answers the viewer's new side
import { json } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { subscribeToAccount } from "@/lib/server/services/friends/actions";
import { friendTargetInput } from "@/lib/validation/friends";

export const POST = withAuth<{ id: string }>(async ({ ctx, params }) => {
  const input = friendTargetInput.parse(params);
  return json(await subscribeToAccount({ ctx, input }));
});
