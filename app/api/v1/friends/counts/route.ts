// GET /api/v1/friends/counts — the number on each of the six /friends tabs (an addition to spec section 7)
import { json } from "@/lib/server/http/response";
import { queryOf } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { countFriendsByStatus } from "@/lib/server/services/friends/lists";

export const GET = withAuth(async ({ req, ctx }) => json(await countFriendsByStatus({ ctx, input: queryOf(req) })));
