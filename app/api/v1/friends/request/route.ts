// GET /api/v1/friends/request — the viewer's incoming friend requests (page, size, sort)
import { json } from "@/lib/server/http/response";
import { queryOf } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { listIncomingRequests } from "@/lib/server/services/friends/lists";
import { incomingRequestsQuery } from "@/lib/validation/friends";

export const GET = withAuth(async ({ req, ctx }) => {
  const input = incomingRequestsQuery.parse(queryOf(req));
  return json(await listIncomingRequests({ ctx, input }));
});
