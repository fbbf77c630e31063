// GET /api/v1/friends — the viewer's relations of one status (statusCode, page, size, sort), with each account's summary
import { json } from "@/lib/server/http/response";
import { queryOf } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { listFriends } from "@/lib/server/services/friends/lists";
import { friendListQuery } from "@/lib/validation/friends";

export const GET = withAuth(async ({ req, ctx }) => {
  const input = friendListQuery.parse(queryOf(req));
  return json(await listFriends({ ctx, input }));
});
