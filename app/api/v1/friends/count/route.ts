// GET /api/v1/friends/count — {count} of the viewer's incoming friend requests
import { json } from "@/lib/server/http/response";
import { queryOf } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { countIncomingRequests } from "@/lib/server/services/friends/lists";

export const GET = withAuth(async ({ req, ctx }) => json(await countIncomingRequests({ ctx, input: queryOf(req) })));
