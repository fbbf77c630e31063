// GET /api/v1/account/search — people search (name parts, age range, country, city, friends only), paged.
// RATE_LIMIT_SEARCH per account: nobody pages through everyone at machine speed.
import { consumeLimit } from "@/lib/server/http/rate-limit";
import { queryOf } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { searchAccounts } from "@/lib/server/services/accounts/search-accounts";

export const GET = withAuth(async ({ req, ctx }) => {
  await consumeLimit("search", `account:${ctx.viewer.id}`);
  return Response.json(await searchAccounts({ ctx, input: queryOf(req) }));
});
