// GET /api/v1/account/search/statusCode — the viewer's relations of one status, by name, paged
import { queryOf } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { searchAccountsByStatusCode } from "@/lib/server/services/accounts/search-accounts";

export const GET = withAuth(async ({ req, ctx }) =>
  Response.json(await searchAccountsByStatusCode({ ctx, input: queryOf(req) })),
);
