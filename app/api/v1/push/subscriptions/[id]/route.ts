// DELETE /api/v1/push/subscriptions/{id} — removes one of the viewer's devices (404 for anyone else's)
import { noContent } from "@/lib/server/http/response";
import { withAuth } from "@/lib/server/http/with-auth";
import { removePushDevice } from "@/lib/server/services/push/subscriptions";

export const DELETE = withAuth<{ id: string }>(async ({ ctx, params }) => {
  await removePushDevice({ ctx, input: params });
  return noContent();
});
